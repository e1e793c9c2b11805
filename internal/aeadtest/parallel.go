package aeadtest

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"testing"
)

// Parallel is an AEAD that can spread one large message over goroutines,
// with output identical to the serial one.
type Parallel[A any] interface {
	cipher.AEAD
	// WithParallelism returns a copy that uses n goroutines, 1 for n < 1.
	WithParallelism(n int) A
}

// TestParallel checks that every degree of parallelism from 1 to 8 gives
// the serial output, and opens it, for each key size and for messages and
// associated data around and above threshold, the smallest that is split.
// newAEAD returns a serial AEAD. Run it with -race too.
func TestParallel[A Parallel[A]](t *testing.T, threshold int, keySizes []int, newAEAD func(key []byte) (A, error)) {
	lengths := []int{threshold - 1, threshold, threshold + 17, 700<<10 + 5, 1<<20 + 33}
	if testing.Short() {
		lengths = lengths[1:3]
	}
	r := newRand()
	buf := randBytes(r, lengths[len(lengths)-1]+64)
	for _, keySize := range keySizes {
		serial, err := newAEAD(randBytes(r, keySize))
		if err != nil {
			t.Fatal(err)
		}
		nonce := randBytes(r, serial.NonceSize())
		for _, n := range lengths {
			pt, ad := buf[3:3+n], buf[len(buf)-n:]
			want := serial.Seal(nil, nonce, pt, ad)
			for p := 1; p <= 8; p++ {
				t.Run(fmt.Sprintf("key%d/len%d/p%d", keySize, n, p), func(t *testing.T) {
					a := serial.WithParallelism(p)
					got := a.Seal(nil, nonce, pt, ad)
					if !bytes.Equal(got, want) {
						t.Fatal("parallel Seal differs from serial")
					}
					if opened, err := a.Open(nil, nonce, got, ad); err != nil || !bytes.Equal(opened, pt) {
						t.Fatalf("parallel Open failed: %v", err)
					}
					got[len(got)/2] ^= 1
					if _, err := a.Open(nil, nonce, got, ad); err == nil {
						t.Fatal("parallel Open accepted a tampered message")
					}
				})
			}
		}
	}
}
