package gpu

import (
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// The conformance suite on the emulated GPU: the AEADs keep the
// cipher.AEAD contract (the engine allocates per call, hence AllowAllocs).
// Every call costs launches, so the suite runs Sparse, on an engine of one
// warp and 16 KiB chunks that its longest messages (64 KiB) still span, and
// on the table kernels: a bitsliced launch enciphers at least 1024 blocks
// per warp, four times the emulated work of filling the tables, and the
// host code the suite checks is the same for both kinds, whose kernels the
// emulator tests run against the CPU packages. -short leaves it out.
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
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return newOCB(e, key, config{tables: true}) }, aeadtest.AllowAllocs(), aeadtest.Sparse())
	})
	t.Run("raocb", func(t *testing.T) {
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return newRAOCB(e, key, config{tables: true}) }, aeadtest.AllowAllocs(), aeadtest.Sparse())
	})
}
