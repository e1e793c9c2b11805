package ccm

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
)

// paths are CCM-AES's: ccm's kernels, and its generic code over the AES
// engine. Over fae's LEA, LEA's kernels run (package "lea").
var (
	paths    = impltest.Of("ccm", "aes")
	leaPaths = impltest.Of("lea")
)

// TestKernelsAgree compares every path, and each kernel over the generic
// AES code, with the generic code (aeadtest.Agree): message lengths up to
// 128 KiB, all key, nonce and tag sizes.
func TestKernelsAgree(t *testing.T) {
	newAEAD := func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
		return NewWithSizes(key, nonceSize, tagSize)
	}
	long := []int{511, 512, 513, 1023, 4096 + 7, 16384, 65535, 65536 + 7, 1<<17 - 9}
	aeadtest.Agree(t, paths, []int{16, 24, 32}, long, agreeSizes, newAEAD, newAEAD)
}

// agreeSizes picks any tag size and any nonce size that leaves room for a
// message of n bytes.
func agreeSizes(r *mrand.Rand, n int) (nonceSize, tagSize int) {
	nonceSize = MinNonceSize + r.IntN(MaxNonceSize-MinNonceSize+1)
	if n > 1<<16-1 {
		nonceSize = min(nonceSize, 12)
	}
	return nonceSize, MinTagSize + 2*r.IntN((MaxTagSize-MinTagSize)/2+1)
}

// TestInPlace seals and opens in place, dst and src the same array, on
// every path.
func TestInPlace(t *testing.T) {
	key, nonce := make([]byte, 16), make([]byte, 12)
	rand.Read(key)
	rand.Read(nonce)
	paths.Run(t, func(t *testing.T) {
		a, _ := NewWithSizes(key, len(nonce), 16)
		for _, n := range []int{0, 1, 16, 17, 100, 1000} {
			pt := make([]byte, n)
			rand.Read(pt)
			want := a.Seal(nil, nonce, pt, nil)
			buf := append(make([]byte, 0, n+16), pt...)
			ct := a.Seal(buf[:0], nonce, buf, nil)
			if !bytes.Equal(ct, want) {
				t.Fatalf("in-place Seal of %d bytes differs", n)
			}
			got, err := a.Open(ct[:0], nonce, ct, nil)
			if err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("in-place Open of %d bytes failed: %v", n, err)
			}
		}
	})
}
