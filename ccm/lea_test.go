package ccm

import (
	"crypto/cipher"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/lea"
)

// newLEA returns CCM over fae's LEA, or over LEA as a plain cipher.Block,
// one block per call, which is the reference.
func newLEA(key []byte, plain bool, nonceSize, tagSize int) (*AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if plain {
		return NewFromBlock(struct{ cipher.Block }{b}, nonceSize, tagSize)
	}
	return NewFromBlock(b, nonceSize, tagSize)
}

// TestLEAConformance runs the suite over fae's LEA on every path of LEA's:
// no buffer passes through an interface, so nothing is allocated.
func TestLEAConformance(t *testing.T) {
	leaPaths.Run(t, func(t *testing.T) {
		for _, p := range []struct{ keySize, nonceSize, tagSize int }{{16, 12, 16}, {32, 7, 4}} {
			t.Run(fmt.Sprintf("key%d_nonce%d_tag%d", p.keySize, p.nonceSize, p.tagSize), func(t *testing.T) {
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) {
					return newLEA(make([]byte, p.keySize), false, p.nonceSize, p.tagSize)
				})
			})
		}
	})
}

// TestLEAAgrees compares CCM over fae's LEA, whose MAC chain runs in
// registers and whose keystream runs on LEA's CTR kernels, on every path of
// LEA's, with CCM over LEA as a plain cipher.Block on the generic code
// (aeadtest.Agree).
func TestLEAAgrees(t *testing.T) {
	newAEAD := func(plain bool) aeadtest.NewFunc {
		return func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
			return newLEA(key, plain, nonceSize, tagSize)
		}
	}
	long := []int{511, 512, 513, 1500, 4096 + 7, 16384, 65535, 1<<17 - 9}
	aeadtest.Agree(t, leaPaths, []int{16, 32}, long, agreeSizes, newAEAD(false), newAEAD(true))
}
