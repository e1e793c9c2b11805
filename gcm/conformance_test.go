package gcm

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	faeaes "github.com/faelabs/fae/internal/aes"
)

// TestConformance runs the shared suite on every path, for each key size and
// for extreme nonce and tag sizes, and on XAES-256-GCM; over fae's LEA on
// every path of gcm's and LEA's kernels; and over another block cipher.
// -short (emulated and race runs) keeps the first and last sizes, and
// LEA-128 alone.
func TestConformance(t *testing.T) {
	sizes := []struct{ key, nonce, tag int }{
		{16, 12, 16}, {24, 12, 16}, {32, 12, 16}, {16, 1, 12}, {32, 60, 13},
	}
	leaKeys := []int{16, 32}
	if testing.Short() {
		sizes = []struct{ key, nonce, tag int }{sizes[0], sizes[len(sizes)-1]}
		leaKeys = leaKeys[:1]
	}
	paths.Run(t, func(t *testing.T) {
		for _, c := range sizes {
			t.Run(fmt.Sprintf("key%d-nonce%d-tag%d", c.key, c.nonce, c.tag), func(t *testing.T) {
				key := make([]byte, c.key)
				key[0] = byte(c.nonce)
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return NewWithSizes(key, c.nonce, c.tag) })
			})
		}
		t.Run("XAES-256-GCM", func(t *testing.T) {
			aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return NewXAES256(make([]byte, 32)) })
		})
	})
	// Over fae's LEA no buffer passes through an interface: no allocations.
	t.Run("LEA", func(t *testing.T) {
		leaPaths.Run(t, func(t *testing.T) {
			for _, key := range leaKeys {
				t.Run(fmt.Sprintf("key%d", key), func(t *testing.T) {
					aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return newLEA(make([]byte, key), 12, 16) })
				})
			}
		})
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := stdaes.NewCipher(make([]byte, 16))
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return NewFromBlock(b, 12, 16) }, aeadtest.AllowAllocs())
	})
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ key, nonce, tag int }{
		{15, 12, 16}, {16, 0, 16}, {16, 1025, 16}, {16, 12, 11}, {16, 12, 17}, {33, 12, 16},
	} {
		if _, err := NewWithSizes(make([]byte, c.key), c.nonce, c.tag); err == nil {
			t.Errorf("key %d, nonce %d, tag %d accepted", c.key, c.nonce, c.tag)
		}
	}
	// The key's error stays reachable through the wrapping.
	_, err := New(make([]byte, 15))
	if ks := faeaes.KeySizeError(0); !errors.As(err, &ks) || ks != 15 {
		t.Errorf("New with a 15-byte key: error %v, want a wrapped KeySizeError(15)", err)
	}
	b, _ := stdaes.NewCipher(make([]byte, 16))
	if _, err := NewFromBlock(b, 0, 16); err == nil {
		t.Error("NewFromBlock accepted nonce size 0")
	}
	for _, n := range []int{0, 16, 24, 31, 33} {
		if _, err := NewXAES256(make([]byte, n)); err == nil {
			t.Errorf("NewXAES256 accepted a %d-byte key", n)
		}
	}
}
