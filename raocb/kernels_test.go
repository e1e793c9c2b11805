package raocb

import (
	"bytes"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// sealOpen seals and opens with the kernel that is selected now.
func sealOpen(t *testing.T, key, nonce, pt, ad []byte, tagSize int) []byte {
	t.Helper()
	a, err := NewWithSizes(key, len(nonce), tagSize)
	if err != nil {
		t.Fatal(err)
	}
	ct := a.Seal(nil, nonce, pt, ad)
	got, err := a.Open(nil, nonce, ct, ad)
	if err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("round trip failed: %v", err)
	}
	return ct
}

// TestKernelsAgree compares every kernel with the portable code on random
// keys, nonces and AD: message lengths 0..300 byte by byte, ragged large
// sizes up to 64 KiB+7, all key sizes.
func TestKernelsAgree(t *testing.T) {
	r := mrand.New(mrand.NewPCG(3, 4))
	buf := make([]byte, 1<<17)
	rand.Read(buf)
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 511, 512, 513, 1023, 4096+7, 16384, 65536+7, 1<<17-9)
	if testing.Short() {
		lengths = lengths[:80]
	}
	for _, kernel := range impl.List("aes") {
		t.Run(kernel, func(t *testing.T) {
			for _, keyLen := range []int{16, 24, 32} {
				key := make([]byte, keyLen)
				for _, n := range lengths {
					rand.Read(key)
					nonce := make([]byte, 1+r.IntN(15))
					rand.Read(nonce)
					tagSize := 8 + r.IntN(9)
					s := r.IntN(7) // unaligned
					pt := buf[s : s+n]
					ad := buf[len(buf)-n:]
					if r.IntN(2) == 0 {
						ad = ad[:r.IntN(n+1)]
					}
					var want, got []byte
					withKernel("generic", func() { want = sealOpen(t, key, nonce, pt, ad, tagSize) })
					withKernel(kernel, func() { got = sealOpen(t, key, nonce, pt, ad, tagSize) })
					if !bytes.Equal(got, want) {
						t.Fatalf("key %d, msg %d, ad %d, nonce %d, tag %d: kernel output differs from generic",
							keyLen, n, len(ad), len(nonce), tagSize)
					}
				}
			}
		})
	}
}

// TestKernelWordWrap runs the kernels on mask inputs whose 32-bit words
// wrap around within a call (⊞ adds modulo 2^32 in each word, without
// carries between words), every block count of a group and tail, in every
// direction.
func TestKernelWordWrap(t *testing.T) {
	src := make([]byte, 80*blockSize)
	rand.Read(src)
	for _, kernel := range impl.List("aes") {
		withKernel(kernel, func() {
			a, _ := New(src[:16])
			for _, x := range [][blockSize]byte{
				{0xff, 0xff, 0xff, 0xf0, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xfe, 0, 0, 0, 0},
				{15: 0xfd, 11: 0xff, 10: 0xff, 9: 0xff},
			} {
				for n := 1; n <= 80; n++ {
					for _, d := range []direction{encrypt, decrypt, hash} {
						var sumK, sumG [blockSize]byte
						dstK, dstG := make([]byte, 16*n), make([]byte, 16*n)
						if d == hash {
							dstK, dstG = nil, nil
						}
						a.kernel(d, dstK, src[:16*n], &x, &sumK)
						a.blocksGeneric(d, dstG, src[:16*n], &x, &sumG)
						if !bytes.Equal(dstK, dstG) || sumK != sumG {
							t.Fatalf("%s: direction %d, %d blocks from %x: kernel differs from blocksGeneric", kernel, d, n, x)
						}
					}
				}
			}
		})
	}
}

// TestMessageKernels compares Seal and Open on every kernel with the
// portable code where the whole-message kernels change course: a last group
// that is whole or not, alone or after the main loop, a final partial block
// or none, lengths up to kernelSpan and past it (the general path); with
// and without AD, every key, nonce and tag size, in place and not, and a
// forged tag, which must leave no plaintext behind.
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
	for _, kernel := range impl.List("aes") {
		t.Run(kernel, func(t *testing.T) {
			for i, n := range lengths {
				for _, keyLen := range []int{16, 24, 32} {
					key := buf[i : i+keyLen]
					nonceSize, tagSize := 1+(i+keyLen)%15, 8+(i+keyLen)%9
					nonce := buf[len(buf)-nonceSize:]
					pt := buf[i+1 : i+1+n]
					ad := buf[:[]int{0, 1, 16, 33}[(i+keyLen)%4]]
					var want []byte
					withKernel("generic", func() {
						a, _ := NewWithSizes(key, nonceSize, tagSize)
						want = a.Seal(nil, nonce, pt, ad)
					})
					withKernel(kernel, func() {
						a, err := NewWithSizes(key, nonceSize, tagSize)
						if err != nil {
							t.Fatal(err)
						}
						name := func() string {
							return fmt.Sprintf("key %d, msg %d, ad %d, nonce %d, tag %d", keyLen, n, len(ad), nonceSize, tagSize)
						}
						if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
							t.Fatalf("%s: Seal differs from generic", name())
						}
						inPlace := append(make([]byte, 0, n+tagSize), pt...)
						if got := a.Seal(inPlace[:0], nonce, inPlace, ad); !bytes.Equal(got, want) {
							t.Fatalf("%s: Seal in place differs from generic", name())
						}
						got, err := a.Open(inPlace[:0], nonce, inPlace[:n+tagSize], ad)
						if err != nil || !bytes.Equal(got, pt) {
							t.Fatalf("%s: Open in place failed: %v", name(), err)
						}
						forged := bytes.Clone(want)
						forged[len(forged)-1] ^= 1
						if _, err := a.Open(forged[:0], nonce, forged, ad); err == nil {
							t.Fatalf("%s: Open accepted a forged tag", name())
						}
						if !bytes.Equal(forged[:n], make([]byte, n)) {
							t.Fatalf("%s: Open left plaintext behind after a forged tag", name())
						}
					})
				}
			}
		})
	}
}
