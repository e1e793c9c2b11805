package gcm

import (
	stdaes "crypto/aes"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs guard.TestAEAD on every path, for each key size, each
// tag size (short tags are where Go's GCM assembly writes past Seal's output
// and reads past Open's ciphertext, go.dev/issue/80288) and extreme nonce
// sizes, with the key against a guard page too, and on XAES-256-GCM; over fae's LEA on every path of gcm's and LEA's kernels; and
// over another block cipher.
func TestGuardPages(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range []struct{ key, nonce, tag int }{
			{16, 12, 16}, {16, 12, 12}, {24, 12, 13}, {32, 12, 14}, {32, 12, 15}, {24, 1, 12}, {32, 1024, 13},
		} {
			t.Run(fmt.Sprintf("key%d-nonce%d-tag%d", c.key, c.nonce, c.tag), func(t *testing.T) {
				guard.TestNewAEAD(t, c.key, 0, func(key []byte) (*AEAD, error) { return NewWithSizes(key, c.nonce, c.tag) })
			})
		}
		t.Run("XAES-256-GCM", func(t *testing.T) { guard.TestNewAEAD(t, 32, 0, NewXAES256) })
	})
	t.Run("LEA", func(t *testing.T) {
		leaPaths.Run(t, func(t *testing.T) {
			a, err := newLEA(make([]byte, 16), 12, 14)
			if err != nil {
				t.Fatal(err)
			}
			guard.TestAEAD(t, a, 0)
		})
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := stdaes.NewCipher(make([]byte, 16))
		a, err := NewFromBlock(b, 12, 16)
		if err != nil {
			t.Fatal(err)
		}
		guard.TestAEAD(t, a, 0)
	})
}
