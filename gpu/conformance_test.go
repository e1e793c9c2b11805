package gpu

import (
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// The conformance suite on the emulated GPU: the AEADs keep the
// cipher.AEAD contract (the engine allocates per call, hence AllowAllocs).
// It takes about a minute on the emulator, so -short leaves it out.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("slow on the emulator")
	}
	e, err := newEngine(newEmuDevice(), 16*4096, 64, 2)
	if err != nil {
		t.Fatal(err)
	}
	key := make([]byte, 16)
	t.Run("ocb", func(t *testing.T) {
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return newOCB(e, key) }, aeadtest.AllowAllocs())
	})
	t.Run("raocb", func(t *testing.T) {
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return newRAOCB(e, key) }, aeadtest.AllowAllocs())
	})
}
