package gpu

import (
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// The conformance suite on the emulated GPU: the AEADs keep the
// cipher.AEAD contract (the engine allocates per call, hence AllowAllocs).
// Every call costs launches, each a full group of 1024 blocks per warp for
// the bitsliced kernels, so the suite runs Sparse, on the default
// (bitsliced) kernels only, and on an engine of one warp and 16 KiB chunks
// that its longest messages (64 KiB) still span. The host code it checks is
// the same for the table kernels, which the emulator tests run against the
// CPU packages; -short leaves the suite out.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("slow on the emulator")
	}
	e, err := newEngine(newEmuDevice(), 16<<10, 32, 1)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 16)
	t.Run("ocb", func(t *testing.T) {
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return newOCB(e, key, config{}) }, aeadtest.AllowAllocs(), aeadtest.Sparse())
	})
	t.Run("raocb", func(t *testing.T) {
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return newRAOCB(e, key, config{}) }, aeadtest.AllowAllocs(), aeadtest.Sparse())
	})
}
