package aeadtest

import (
	"bytes"
	"crypto/cipher"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/faelabs/fae/internal/impl/impltest"
)

// A NewFunc makes an AEAD from a key and nonce and tag sizes.
type NewFunc func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error)

// Agree is the differential test of an AEAD's kernels: it compares newAEAD
// on the paths that paths.Compare takes with ref on the portable code. For
// each key size and message length (0..300 bytes one by one, then those of
// long; 0..79 alone with -short) it draws a key, the nonce and tag sizes
// that sizes picks for the length, a plaintext at a random offset and
// associated data as long or shorter. Every path must seal as ref did, in
// place too, and open what it sealed.
func Agree(t *testing.T, paths impltest.Paths, keySizes, long []int, sizes func(r *rand.Rand, msgLen int) (nonceSize, tagSize int), newAEAD, ref NewFunc) {
	t.Helper()
	lengths := make([]int, 301)
	for n := range lengths {
		lengths[n] = n
	}
	lengths = append(lengths, long...)
	if testing.Short() {
		lengths = lengths[:80]
	}
	r, bytesR := rand.New(rand.NewPCG(3, 4)), rand.NewChaCha8([32]byte{3})
	buf := make([]byte, slices.Max(lengths)+8)
	bytesR.Read(buf)
	type testCase struct {
		key, nonce, pt, ad, want []byte
		tagSize                  int
	}
	var cases []testCase
	paths.Compare(t, func() {
		for _, keySize := range keySizes {
			for _, n := range lengths {
				nonceSize, tagSize := sizes(r, n)
				c := testCase{key: make([]byte, keySize), nonce: make([]byte, nonceSize), tagSize: tagSize}
				bytesR.Read(c.key)
				bytesR.Read(c.nonce)
				adLen := n
				if r.IntN(2) == 0 {
					adLen = r.IntN(n + 1)
				}
				s := r.IntN(7) // unaligned
				c.pt, c.ad = buf[s:s+n], buf[len(buf)-adLen:]
				a := mustNewSized(t, ref, c.key, nonceSize, tagSize)
				c.want = a.Seal(nil, c.nonce, c.pt, c.ad)
				cases = append(cases, c)
			}
		}
	}, func(t *testing.T) {
		for _, c := range cases {
			a := mustNewSized(t, newAEAD, c.key, len(c.nonce), c.tagSize)
			n := len(c.pt)
			if got := a.Seal(nil, c.nonce, c.pt, c.ad); !bytes.Equal(got, c.want) {
				t.Fatalf("key %d, msg %d, ad %d, nonce %d, tag %d: Seal differs from the portable code",
					len(c.key), n, len(c.ad), len(c.nonce), c.tagSize)
			}
			inPlace := append(make([]byte, 0, n+c.tagSize), c.pt...)
			if got := a.Seal(inPlace[:0], c.nonce, inPlace, c.ad); !bytes.Equal(got, c.want) {
				t.Fatalf("key %d, msg %d: Seal in place differs from the portable code", len(c.key), n)
			}
			if got, err := a.Open(inPlace[:0], c.nonce, inPlace[:n+c.tagSize], c.ad); err != nil || !bytes.Equal(got, c.pt) {
				t.Fatalf("key %d, msg %d: Open in place failed: %v", len(c.key), n, err)
			}
		}
	})
}

func mustNewSized(t *testing.T, newAEAD NewFunc, key []byte, nonceSize, tagSize int) cipher.AEAD {
	t.Helper()
	a, err := newAEAD(key, nonceSize, tagSize)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
