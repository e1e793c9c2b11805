package raocb

import (
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// TestConformance runs the shared suite on every path, for each key size
// and for the extreme nonce and tag sizes.
func TestConformance(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range []struct{ key, nonce, tag int }{
			{16, 12, 16}, {24, 12, 16}, {32, 12, 16}, {16, 1, 8}, {32, 15, 13},
		} {
			t.Run(fmt.Sprintf("key%d-nonce%d-tag%d", c.key, c.nonce, c.tag), func(t *testing.T) {
				key := make([]byte, c.key)
				key[0] = byte(c.nonce)
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return NewWithSizes(key, c.nonce, c.tag) })
			})
		}
	})
}
