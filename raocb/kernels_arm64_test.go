//go:build !purego

package raocb

import (
	"bytes"
	mrand "math/rand/v2"
	"slices"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// TestARMv8Kernel compares the ARMv8 kernels with blocksGeneric for every
// key size and direction, on 1 to 40 blocks (every group and tail shape)
// from random mask inputs, with a nonzero sum to XOR into.
func TestARMv8Kernel(t *testing.T) {
	if !slices.Contains(impl.List("aes"), "armv8") {
		t.Skip("no ARMv8 AES")
	}
	r := mrand.New(mrand.NewPCG(9, 10))
	src := randBytes(r, 40*blockSize)
	withKernel("armv8", func() {
		for _, keyLen := range []int{16, 24, 32} {
			a, err := New(randBytes(r, keyLen))
			if err != nil {
				t.Fatal(err)
			}
			for n := 1; n <= 40; n++ {
				x, sum := block(randBytes(r, 16)), block(randBytes(r, 16))
				for _, d := range []direction{encrypt, decrypt, hash} {
					sumK, sumG := sum, sum
					var dstK, dstG []byte
					if d != hash {
						dstK, dstG = make([]byte, 16*n), make([]byte, 16*n)
					}
					a.kernel(d, dstK, src[:16*n], &x, &sumK)
					a.blocksGeneric(d, dstG, src[:16*n], &x, &sumG)
					if !bytes.Equal(dstK, dstG) || sumK != sumG {
						t.Fatalf("key %d, direction %d, %d blocks from %x: kernel differs from blocksGeneric", keyLen, d, n, x)
					}
				}
			}
		}
	})
}

// TestARMv8RandomAccess compares EncryptBlocks and DecryptBlocks on the
// ARMv8 kernels with the generic code at random nonzero first blocks, for
// every key size: lengths 0..300 byte by byte, and 64 KiB+7.
func TestARMv8RandomAccess(t *testing.T) {
	if !slices.Contains(impl.List("aes"), "armv8") {
		t.Skip("no ARMv8 AES")
	}
	r := mrand.New(mrand.NewPCG(11, 12))
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 65536+7)
	if testing.Short() {
		lengths = append(lengths[:80], 65536+7)
	}
	for _, keyLen := range []int{16, 24, 32} {
		key := randBytes(r, keyLen)
		var armv8, generic *AEAD
		withKernel("armv8", func() { armv8, _ = New(key) })
		withKernel("generic", func() { generic, _ = New(key) })
		for _, n := range lengths {
			nonce, src := randBytes(r, NonceSize), randBytes(r, n)
			first := 1 + r.Uint64N(maxIndex-5-numBlocks(uint64(n)))
			for _, decrypt := range []bool{false, true} {
				crypt := func(a *AEAD) []byte {
					if decrypt {
						return a.DecryptBlocks(nil, nonce, src, first)
					}
					return a.EncryptBlocks(nil, nonce, src, first)
				}
				var got, want []byte
				withKernel("armv8", func() { got = crypt(armv8) })
				withKernel("generic", func() { want = crypt(generic) })
				if !bytes.Equal(got, want) {
					t.Fatalf("key %d, %d bytes from block %d, decrypt %v: ARMv8 differs from generic", keyLen, n, first, decrypt)
				}
			}
		}
	}
}
