package ccm

import (
	"bytes"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/impl/impltest"
)

// sealOpen seals and opens with the kernels selected now.
func sealOpen(t *testing.T, key, nonce, pt, ad []byte, tagSize int) []byte {
	t.Helper()
	a, err := New(key, len(nonce), tagSize)
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

// paths are CCM-AES's: ccm's kernels, and its generic code over the AES
// engine. Over fae's LEA, LEA's kernels run (package "lea").
var (
	paths    = impltest.Of("ccm", "aes")
	leaPaths = impltest.Of("lea")
)

// TestKernelsAgree compares every path, and each kernel over the generic
// AES code, with the generic code: message and AD lengths 0..300 byte by
// byte, ragged large sizes, all key sizes, and inputs at odd addresses.
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
	type testCase struct {
		key, nonce, pt, ad, want []byte
		tagSize                  int
	}
	var cases []testCase
	paths.Compare(t, func() {
		for _, keyLen := range []int{16, 24, 32} {
			for _, n := range lengths {
				c := testCase{key: make([]byte, keyLen), nonce: make([]byte, MinNonceSize+r.IntN(MaxNonceSize-MinNonceSize+1))}
				if n > 1<<16-1 {
					c.nonce = c.nonce[:min(len(c.nonce), 12)]
				}
				rand.Read(c.key)
				rand.Read(c.nonce)
				c.tagSize = 2 * (2 + r.IntN(7))
				s := r.IntN(7) // unaligned
				c.pt, c.ad = buf[s:s+n], buf[len(buf)-n:]
				if r.IntN(2) == 0 {
					c.ad = c.ad[:r.IntN(n+1)]
				}
				c.want = sealOpen(t, c.key, c.nonce, c.pt, c.ad, c.tagSize)
				cases = append(cases, c)
			}
		}
	}, func(t *testing.T) {
		for _, c := range cases {
			if got := sealOpen(t, c.key, c.nonce, c.pt, c.ad, c.tagSize); !bytes.Equal(got, c.want) {
				t.Fatalf("key %d, msg %d, ad %d, nonce %d, tag %d: output differs from generic",
					len(c.key), len(c.pt), len(c.ad), len(c.nonce), c.tagSize)
			}
		}
	})
}

// TestInPlace seals and opens in place, dst and src the same array, on
// every path.
func TestInPlace(t *testing.T) {
	key, nonce := make([]byte, 16), make([]byte, 12)
	rand.Read(key)
	rand.Read(nonce)
	paths.Run(t, func(t *testing.T) {
		a, _ := New(key, len(nonce), 16)
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
