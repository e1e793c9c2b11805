package raocb

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/internal/ocbmode"
)

// paths are raocb's kernels, and its generic code over the AES engine.
var paths = impltest.Of("raocb", "aes")

// TestKernelsAgree compares every path, and each kernel over the generic
// AES code, with the portable code (aeadtest.Agree): message lengths up to
// 128 KiB, all key, nonce and tag sizes.
func TestKernelsAgree(t *testing.T) {
	newAEAD := func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
		return NewWithSizes(key, nonceSize, tagSize)
	}
	sizes := func(r *mrand.Rand, _ int) (nonceSize, tagSize int) {
		return MinNonceSize + r.IntN(MaxNonceSize-MinNonceSize+1), MinTagSize + r.IntN(MaxTagSize-MinTagSize+1)
	}
	long := []int{511, 512, 513, 1023, 4096 + 7, 16384, 65536 + 7, 1<<17 - 9}
	aeadtest.Agree(t, paths, []int{16, 24, 32}, long, sizes, newAEAD, newAEAD)
}

// TestKernelBlocks runs the block kernels against blocksGeneric on every
// path, for every key size and direction, on 1 to 80 blocks (every group and
// tail shape) with a nonzero sum to XOR into: from random mask inputs, and
// from inputs whose 32-bit words wrap around within a call (⊞ adds modulo
// 2^32 in each word, without carries between words).
func TestKernelBlocks(t *testing.T) {
	r := mrand.New(mrand.NewPCG(9, 10))
	src := randBytes(r, 80*blockSize)
	paths.Compare(t, nil, func(t *testing.T) {
		for _, keyLen := range []int{16, 24, 32} {
			a, err := New(randBytes(r, keyLen))
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range [][blockSize]byte{
				block(randBytes(r, 16)),
				{0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xfe, 0, 0, 0, 0},
				{15: 0xfd, 11: 0xff, 10: 0xff, 9: 0xff},
			} {
				sum := block(randBytes(r, 16))
				for n := 1; n <= 80; n++ {
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
		}
	})
}

// TestRandomAccessAnywhere compares EncryptBlocks and DecryptBlocks on every
// path with the generic code at random first blocks up to the end of the
// index range, for every key size: lengths 0..300 byte by byte, and
// 64 KiB+7.
func TestRandomAccessAnywhere(t *testing.T) {
	r := mrand.New(mrand.NewPCG(11, 12))
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	if testing.Short() {
		lengths = lengths[:80]
	}
	lengths = append(lengths, 65536+7)
	type testCase struct {
		key, nonce, src, enc, dec []byte
		first                     uint64
	}
	var cases []testCase
	paths.Compare(t, func() {
		for _, keyLen := range []int{16, 24, 32} {
			key := randBytes(r, keyLen)
			a, _ := New(key)
			for _, n := range lengths {
				c := testCase{key: key, nonce: randBytes(r, NonceSize), src: randBytes(r, n)}
				c.first = 1 + r.Uint64N(ocbmode.MaxIndex-5-ocbmode.NumBlocks(uint64(n)))
				c.enc = a.EncryptBlocks(nil, c.nonce, c.src, c.first)
				c.dec = a.DecryptBlocks(nil, c.nonce, c.src, c.first)
				cases = append(cases, c)
			}
		}
	}, func(t *testing.T) {
		var a *AEAD
		for i, c := range cases {
			if i == 0 || !bytes.Equal(c.key, cases[i-1].key) {
				a, _ = New(c.key)
			}
			if got := a.EncryptBlocks(nil, c.nonce, c.src, c.first); !bytes.Equal(got, c.enc) {
				t.Fatalf("key %d, %d bytes from block %d: EncryptBlocks differs from generic", len(c.key), len(c.src), c.first)
			}
			if got := a.DecryptBlocks(nil, c.nonce, c.src, c.first); !bytes.Equal(got, c.dec) {
				t.Fatalf("key %d, %d bytes from block %d: DecryptBlocks differs from generic", len(c.key), len(c.src), c.first)
			}
		}
	})
}

// TestMessageKernels compares Seal and Open on every path with the portable
// code where the whole-message kernels change course: a last group that is
// whole or not, alone or after the main loop, a final partial block or
// none, lengths up to kernelSpan and past it (the general path); with and
// without AD, every key, nonce and tag size, in place and not, and a forged
// tag, which must leave no plaintext behind.
func TestMessageKernels(t *testing.T) {
	var lengths []int
	for _, blocks := range []int{1, 7, 8, 31, 32, 33, 63, 64, 65, 96, 1024} {
		for _, r := range []int{0, 1, 15} {
			lengths = append(lengths, blocks*blockSize+r)
		}
	}
	lengths = append(lengths, 15, kernelSpan-1, kernelSpan, kernelSpan+1)
	if testing.Short() {
		lengths = lengths[:33]
	}
	buf := make([]byte, kernelSpan+64)
	rand.Read(buf)
	type testCase struct {
		key, nonce, pt, ad, want []byte
		tagSize                  int
	}
	var cases []testCase
	paths.Compare(t, func() {
		for i, n := range lengths {
			for _, keyLen := range []int{16, 24, 32} {
				nonceSize, tagSize := 1+(i+keyLen)%15, 8+(i+keyLen)%9
				c := testCase{key: buf[i : i+keyLen], nonce: buf[len(buf)-nonceSize:], pt: buf[i+1 : i+1+n], tagSize: tagSize}
				c.ad = buf[:[]int{0, 1, 16, 33}[(i+keyLen)%4]]
				a, _ := NewWithSizes(c.key, nonceSize, tagSize)
				c.want = a.Seal(nil, c.nonce, c.pt, c.ad)
				cases = append(cases, c)
			}
		}
	}, func(t *testing.T) {
		for _, c := range cases {
			a, err := NewWithSizes(c.key, len(c.nonce), c.tagSize)
			if err != nil {
				t.Fatal(err)
			}
			aeadtest.CheckMessage(t, fmt.Sprintf("key %d, msg %d, ad %d, nonce %d, tag %d", len(c.key), len(c.pt), len(c.ad), len(c.nonce), c.tagSize), a, c.nonce, c.ad, c.pt, c.want)
		}
	})
}
