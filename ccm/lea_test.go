package ccm

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
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
// registers and whose keystream runs on LEA's CTR kernels, with CCM over
// LEA as a plain cipher.Block, on every path of LEA's: message and AD lengths
// 0..300 byte by byte, ragged large sizes, unaligned, and in place.
func TestLEAAgrees(t *testing.T) {
	r := mrand.New(mrand.NewPCG(5, 6))
	buf := make([]byte, 1<<17)
	rand.Read(buf)
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 511, 512, 513, 1500, 4096+7, 16384, 65535, 1<<17-9)
	if testing.Short() {
		lengths = lengths[:80]
	}
	leaPaths.Run(t, func(t *testing.T) {
		for _, n := range lengths {
			key := make([]byte, 16+16*r.IntN(2))
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
			ref, err := newLEA(key, true, len(nonce), tagSize)
			if err != nil {
				t.Fatal(err)
			}
			a, err := newLEA(key, false, len(nonce), tagSize)
			if err != nil {
				t.Fatal(err)
			}
			want := ref.Seal(nil, nonce, pt, ad)
			if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
				t.Fatalf("msg %d, ad %d, nonce %d, tag %d: Seal differs from the reference", n, len(ad), len(nonce), tagSize)
			}
			inPlace := append(make([]byte, 0, n+tagSize), pt...)
			ct := a.Seal(inPlace[:0], nonce, inPlace, ad)
			if !bytes.Equal(ct, want) {
				t.Fatalf("msg %d: in-place Seal differs from the reference", n)
			}
			if got, err := a.Open(ct[:0], nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("msg %d: in-place Open failed: %v", n, err)
			}
		}
	})
}
