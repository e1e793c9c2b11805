package raocb

import (
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// TestConformance runs the shared suite on every path: at the default nonce
// and tag sizes with each key size (AES-128 alone with -short, for the
// emulated runs), and at the extreme nonce and tag sizes.
func TestConformance(t *testing.T) {
	sizes := []struct{ key, nonce, tag int }{{16, 12, 16}, {16, 1, 8}, {32, 15, 13}, {24, 12, 16}, {32, 12, 16}}
	if testing.Short() {
		sizes = sizes[:3]
	}
	paths.Run(t, func(t *testing.T) {
		for _, c := range sizes {
			t.Run(fmt.Sprintf("key%d-nonce%d-tag%d", c.key, c.nonce, c.tag), func(t *testing.T) {
				key := make([]byte, c.key)
				key[0] = byte(c.nonce)
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return NewWithSizes(key, c.nonce, c.tag) })
			})
		}
	})
}
