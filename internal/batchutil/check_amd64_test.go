//go:build !purego

package batchutil

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCheckKernels checks that the check kernels pass exactly the messages
// before the first eight with a bad one, with their Spans: the Go loop
// would find a bad message wherever they stop early, which
// TestCheckEights cannot tell.
func TestCheckKernels(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512")
	}
	r := rand.New(rand.NewPCG(5, 6))
	for b := range 3000 {
		open := b%2 == 1
		msgs, tagSize, nonceSize := testBatch(r, open)
		bad, _ := sealFrom(msgs, 0, Spans{MinIn: math.MaxInt}, tagSize, nonceSize)
		if open {
			bad, _ = openFrom(msgs, 0, Spans{MinIn: math.MaxInt}, tagSize, nonceSize)
		}
		want, wantSp := bad&^7, Spans{MinIn: math.MaxInt}
		for i := range msgs[:want] {
			wantSp = wantSp.add(&msgs[i])
		}
		if got, gotSp := checkEights(msgs, open, tagSize, nonceSize); got != want || gotSp != wantSp {
			t.Fatalf("batch %d (open %v, %d messages, tag %d, nonce %d, first bad %d): passed %d, Spans %+v; want %d, %+v",
				b, open, len(msgs), tagSize, nonceSize, bad, got, gotSp, want, wantSp)
		}
	}
}
