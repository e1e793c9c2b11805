package gcm

import (
	"bytes"
	"fmt"
	"testing"
)

// TestParallelMatchesSerial checks that every degree of parallelism gives the
// serial output on every path, for messages and associated data around and
// above the threshold, and across the 32-bit counter's wrap. Run it with
// -race too.
func TestParallelMatchesSerial(t *testing.T) {
	lengths := []int{ParallelThreshold - 1, ParallelThreshold, ParallelThreshold + 17, 700<<10 + 5, 1<<20 + 33}
	if testing.Short() {
		lengths = lengths[1:3]
	}
	r := newRand(5)
	buf := randBytes(r, lengths[len(lengths)-1]+64)
	paths.Run(t, func(t *testing.T) {
		for _, keyLen := range []int{16, 32} {
			serial, err := NewWithSizes(randBytes(r, keyLen), 16, 16)
			if err != nil {
				t.Fatal(err)
			}
			// The counter wraps in the first share, and in the second.
			nonces := [][]byte{randBytes(r, 16), wrapNonce(t, serial, 16, 3000, r), wrapNonce(t, serial, 16, maxKernelBlocks+5, r)}
			for i, nonce := range nonces {
				for _, n := range lengths {
					pt, ad := buf[3:3+n], buf[len(buf)-n:]
					want := serial.Seal(nil, nonce, pt, ad)
					for _, p := range []int{2, 3, 8} {
						t.Run(fmt.Sprintf("key%d/nonce%d/len%d/p%d", keyLen, i, n, p), func(t *testing.T) {
							a := serial.WithParallelism(p)
							got := a.Seal(nil, nonce, pt, ad)
							if !bytes.Equal(got, want) {
								t.Fatal("parallel Seal differs from serial")
							}
							if opened, err := a.Open(nil, nonce, got, ad); err != nil || !bytes.Equal(opened, pt) {
								t.Fatalf("parallel Open failed: %v", err)
							}
							got[len(got)/2] ^= 1
							if _, err := a.Open(got[:0], nonce, got, ad); err == nil || !bytes.Equal(got[:n], make([]byte, n)) {
								t.Fatal("parallel Open accepted a tampered message or left output behind")
							}
						})
					}
				}
			}
		}
	})
}

func TestWithParallelismKeepsOriginal(t *testing.T) {
	a, _ := New(make([]byte, 16))
	b := a.WithParallelism(4)
	if a.parallelism != 1 || b.parallelism != 4 || a.WithParallelism(1) != a {
		t.Fatal("WithParallelism changed the original or copied needlessly")
	}
	if a.WithParallelism(0) != a {
		t.Fatal("parallelism 0 not treated as 1")
	}
}
