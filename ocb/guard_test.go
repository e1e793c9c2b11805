package ocb

import (
	"crypto/aes"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs guard.TestAEAD on every path, for each key size and
// the extreme nonce and tag sizes, with the key against a guard page too,
// and over another block cipher: the masked loads and stores of the message
// kernels around the nonce and a final partial block must touch nothing
// else.
func TestGuardPages(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range []struct{ key, nonce, tag int }{
			{16, 12, 16}, {24, 1, 8}, {32, 15, 13},
		} {
			t.Run(fmt.Sprintf("key%d-nonce%d-tag%d", c.key, c.nonce, c.tag), func(t *testing.T) {
				guard.TestNewAEAD(t, c.key, 0, func(key []byte) (*AEAD, error) { return NewWithSizes(key, c.nonce, c.tag) })
			})
		}
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := aes.NewCipher(make([]byte, 16))
		a, err := NewFromBlock(b, 12, 16)
		if err != nil {
			t.Fatal(err)
		}
		guard.TestAEAD(t, a, 0)
	})
}
