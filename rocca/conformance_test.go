package rocca

import (
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// TestConformance runs the shared cipher.AEAD suite on every path.
func TestConformance(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		key := make([]byte, KeySize)
		key[0] = 1
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return New(key) })
	})
}
