package ccm

import (
	"bytes"
	"crypto/rand"
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

// withKernel runs f with one AES kernel selected.
func withKernel(name string, f func()) {
	impl.Select("aes", name)
	defer impl.Reset("aes")
	f()
}

// TestKernelsAgree compares every kernel with the generic code: message and
// AD lengths 0..300 byte by byte, ragged large sizes, all key sizes, and
// inputs at odd addresses.
func TestKernelsAgree(t *testing.T) {
	r := mrand.New(mrand.NewPCG(3, 4))
	buf := make([]byte, 1<<17)
	rand.Read(buf)
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 511, 512, 513, 1023, 4096+7, 16384, 65535, 65536+7, 1<<17-9)
	if testing.Short() {
		lengths = lengths[:80]
	}
	for _, kernel := range impl.List("aes") {
		t.Run(kernel, func(t *testing.T) {
			for _, keyLen := range []int{16, 24, 32} {
				key := make([]byte, keyLen)
				for _, n := range lengths {
					rand.Read(key)
					nonce := make([]byte, MinNonceSize+r.IntN(MaxNonceSize-MinNonceSize+1))
					if n > 1<<16-1 {
						nonce = nonce[:min(len(nonce), 12)]
					}
					rand.Read(nonce)
					tagSize := 2 * (2 + r.IntN(7))
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

// TestInPlace seals and opens in place, dst and src the same array, with
// every kernel.
func TestInPlace(t *testing.T) {
	key, nonce := make([]byte, 16), make([]byte, 12)
	rand.Read(key)
	rand.Read(nonce)
	for _, kernel := range append(impl.List("aes"), "generic") {
		withKernel(kernel, func() {
			a, _ := NewWithSizes(key, len(nonce), 16)
			for _, n := range []int{0, 1, 16, 17, 100, 1000} {
				pt := make([]byte, n)
				rand.Read(pt)
				want := a.Seal(nil, nonce, pt, nil)
				buf := append(make([]byte, 0, n+16), pt...)
				ct := a.Seal(buf[:0], nonce, buf, nil)
				if !bytes.Equal(ct, want) {
					t.Fatalf("%s: in-place Seal of %d bytes differs", kernel, n)
				}
				got, err := a.Open(ct[:0], nonce, ct, nil)
				if err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("%s: in-place Open of %d bytes failed: %v", kernel, n, err)
				}
			}
		})
	}
}
