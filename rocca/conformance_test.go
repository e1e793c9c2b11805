package rocca

import (
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
)

// TestConformance runs the shared cipher.AEAD suite on every kernel.
func TestConformance(t *testing.T) {
	impltest.Run(t, "aes", func(t *testing.T) {
		key := make([]byte, KeySize)
		key[0] = 1
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return New(key) })
	})
}
