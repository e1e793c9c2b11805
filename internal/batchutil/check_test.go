package batchutil

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/faelabs/fae/batch"
)

// TestCheckEights checks firstBadSeal and firstBadOpen, with the check
// kernels where there are some, against their Go loops alone from the first
// message: the first bad message and the Spans before it, on batches of 0 to
// 70 messages (testBatch).
func TestCheckEights(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	batches := 3000
	if testing.Short() {
		batches = 300
	}
	for b := range batches {
		open := b%2 == 1
		msgs, tagSize, nonceSize := testBatch(r, open)
		got, gotSp := firstBadSeal(msgs, tagSize, nonceSize)
		want, wantSp := sealFrom(msgs, 0, Spans{MinIn: math.MaxInt}, tagSize, nonceSize)
		if open {
			got, gotSp = firstBadOpen(msgs, tagSize, nonceSize)
			want, wantSp = openFrom(msgs, 0, Spans{MinIn: math.MaxInt}, tagSize, nonceSize)
		}
		if got != want || gotSp != wantSp {
			t.Fatalf("batch %d (open %v, %d messages, tag %d, nonce %d): first bad %d, Spans %+v; want %d, %+v",
				b, open, len(msgs), tagSize, nonceSize, got, gotSp, want, wantSp)
		}
	}
}

// testBatch returns a batch to seal (or to open, open) of 0 to 70 messages,
// a few of them odd (testMessage) at random places, and its tag and nonce
// sizes. In half the batches only the odd messages may have associated
// data (the check kernels skip the AD of eight messages where all is empty).
func testBatch(r *rand.Rand, open bool) (msgs []batch.Message, tagSize, nonceSize int) {
	tagSize, nonceSize = []int{16, 8, 4}[r.IntN(3)], []int{12, 16, 7}[r.IntN(3)]
	adMax := []int{10, 1}[r.IntN(2)]
	msgs = make([]batch.Message, r.IntN(71))
	for i := range msgs {
		msgs[i] = testMessage(r, open, tagSize, nonceSize, adMax, false)
	}
	for range r.IntN(3) {
		if len(msgs) > 0 {
			msgs[r.IntN(len(msgs))] = testMessage(r, open, tagSize, nonceSize, 10, true)
		}
	}
	return msgs, tagSize, nonceSize
}

// testMessage returns a message to seal (or to open, open) with tags of
// tagSize bytes, nonces of nonceSize and less than adMax bytes of
// associated data, in place or not: a good one or, odd,
// one with a length off by one, nil slices, or an In, AD or empty Out placed
// at or near an edge of Out (good or bad: the Go loop tells).
func testMessage(r *rand.Rand, open bool, tagSize, nonceSize, adMax int, odd bool) batch.Message {
	in, ad := r.IntN(50), r.IntN(adMax)
	out := in + tagSize
	if open {
		out = max(in-tagSize, 0)
	}
	// Out sits in arena at base, with room around it for In and AD at
	// every placement that meets it and just past.
	base := in + ad + 2
	arena := make([]byte, base+out+in+ad+4)
	m := batch.Message{
		Nonce: make([]byte, nonceSize),
		AD:    make([]byte, ad),
		In:    make([]byte, in),
		Out:   arena[base : base+out],
	}
	if r.IntN(4) == 0 { // in place
		m.In = arena[base : base+in]
	}
	if !odd {
		return m
	}
	// at returns n bytes at one of the edges of Out, or at random by it.
	at := func(n int) []byte {
		d := []int{-n - 1, -n, -n + 1, -1, 0, 1, out - 1, out, out + 1, r.IntN(n+out+3) - n - 1}[r.IntN(10)]
		if d < -n-1 || d > out+1 {
			d = 0
		}
		return arena[base+d : base+d+n]
	}
	switch r.IntN(8) {
	case 0:
		m.Out = arena[base : base+max(out+2*r.IntN(2)-1, 0)]
	case 1:
		m.Nonce = [][]byte{nil, m.Nonce[:nonceSize-1], make([]byte, nonceSize+1)}[r.IntN(3)]
	case 2:
		m.In = at(in)
	case 3:
		m.AD = at(ad)
	case 4:
		m.In, m.AD = at(0), at(0)
	case 5:
		m.In, m.AD = nil, nil
		if open {
			m.Out = nil
		}
	case 6: // an empty Out where In or AD is
		m.In, m.AD = arena[:in], arena[in:in+ad]
		m.Out = arena[r.IntN(in+ad+1):][:0]
	case 7:
		m.Out = nil
	}
	return m
}
