package aeadtest

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/guard"
)

// TestBatchLanes is for AEADs whose batches run messages of one shape side
// by side (batchutil.RunLanes), with blocks of rate bytes. It compares
// SealBatch and OpenBatch with single calls where the lanes differ:
// messages of 0 to 300 bytes byte by byte, four of a length class at a time
// with ragged tails, associated data of 0 to 100 bytes, batches of 1 to 9
// messages that leave lanes empty, in place and not, with a tampered
// message in every other batch; then all of them in one batch, shuffled
// (more shapes than wait at once); then batches of four messages of one
// shape, with tails ragged where the length allows, every buffer against a
// guard page.
func TestBatchLanes(t *testing.T, a batch.AEAD, rate int) {
	r := newRand()
	var shapes [][2]int // message and associated data lengths
	for n := range 301 {
		shapes = append(shapes, [2]int{n, n / 4 % 101})
	}
	for ad := range 101 {
		shapes = append(shapes, [2]int{64, ad}, [2]int{70, ad})
	}
	for count, k := 1, 0; k < len(shapes); count = count%9 + 1 {
		end := min(k+count, len(shapes))
		checkLanes(t, r, a, shapes[k:end], k%2 == 0)
		k = end
	}
	rand.New(r).Shuffle(len(shapes), func(i, j int) { shapes[i], shapes[j] = shapes[j], shapes[i] })
	checkLanes(t, r, a, shapes, false)
	checkLanes(t, r, a, shapes, true)
	testLanesGuard(t, a, rate)
}

// checkLanes seals a batch of messages of the given shapes with SealBatch
// and opens it with OpenBatch, a message tampered with unless inPlace, and
// compares both with single calls.
func checkLanes(t *testing.T, r *rand.ChaCha8, a batch.AEAD, shapes [][2]int, inPlace bool) {
	t.Helper()
	msgs := make([]batch.Message, len(shapes))
	want := make([][]byte, len(shapes))
	pts := make([][]byte, len(shapes))
	for i, s := range shapes {
		m := &msgs[i]
		m.Nonce, m.AD, pts[i] = randBytes(r, a.NonceSize()), randBytes(r, s[1]), randBytes(r, s[0])
		want[i] = a.Seal(nil, m.Nonce, pts[i], m.AD)
		m.Out = make([]byte, s[0]+a.Overhead())
		m.In = bytes.Clone(pts[i])
		if inPlace {
			m.In = m.Out[:s[0]]
			copy(m.In, pts[i])
		}
	}
	a.SealBatch(msgs)
	bad := -1
	if !inPlace {
		bad = int(r.Uint64() % uint64(len(msgs)))
	}
	for i := range msgs {
		m := &msgs[i]
		if !bytes.Equal(m.Out, want[i]) {
			t.Fatalf("SealBatch of %d messages: message %d (%d bytes, %d of AD) differs from Seal", len(msgs), i, shapes[i][0], shapes[i][1])
		}
		m.In, m.Out = m.Out, m.Out[:shapes[i][0]]
		if !inPlace {
			m.Out = make([]byte, shapes[i][0])
		}
		if i == bad {
			m.In = bytes.Clone(m.In)
			m.In[int(r.Uint64()%uint64(len(m.In)))] ^= 1
		}
	}
	if a.OpenBatch(msgs) != (bad < 0) {
		t.Fatalf("OpenBatch of %d messages: wrong result", len(msgs))
	}
	for i := range msgs {
		m := &msgs[i]
		switch {
		case m.OK != (i != bad):
			t.Fatalf("OpenBatch of %d messages: message %d: OK %v", len(msgs), i, m.OK)
		case m.OK && !bytes.Equal(m.Out, pts[i]):
			t.Fatalf("OpenBatch of %d messages: message %d differs from the plaintext", len(msgs), i)
		case !m.OK && !bytes.Equal(m.Out, make([]byte, len(m.Out))):
			t.Fatalf("OpenBatch of %d messages: failed message %d not zeroed", len(msgs), i)
		}
	}
}

// testLanesGuard seals and opens batches of four messages of one shape,
// with tails ragged where the length allows (n, n-1, n-2, n-3 bytes) and
// associated data of 1 to 4 bytes, every buffer against a guard page, at
// one side and then the other, in place and not: lane kernels read and
// write each lane's partial blocks through its own masks.
func testLanesGuard(t *testing.T, a batch.AEAD, rate int) {
	const k = 4
	most := 300
	if testing.Short() {
		most = 99
	}
	lengths := slices.DeleteFunc(guard.Lengths(), func(n int) bool { return n > most })
	var regions [k]guardRegions
	for i := range regions {
		regions[i] = newGuardRegions(t, a.NonceSize(), k, 400)
	}
	for _, n := range lengths {
		var pts, cts, nonces, ads [k][]byte
		for i := range k {
			l := n
			if n%rate >= k {
				l -= i
			}
			nonces[i], ads[i], pts[i] = bytes.Repeat([]byte{byte(i)}, a.NonceSize()), make([]byte, 1+i), bytes.Repeat([]byte{byte(n)}, l)
			cts[i] = a.Seal(nil, nonces[i], pts[i], ads[i])
		}
		for _, side := range guard.Sides {
			for _, inPlace := range []bool{false, true} {
				msg := func(i int, in []byte, outLen int) batch.Message {
					return regions[i].message(side, nonces[i], ads[i], in, outLen, inPlace)
				}
				var b [k]batch.Message
				err := guard.Fault(func() {
					for i := range b {
						b[i] = msg(i, pts[i], len(cts[i]))
					}
					a.SealBatch(b[:])
					for i := range b {
						if !bytes.Equal(b[i].Out, cts[i]) {
							t.Fatalf("SealBatch, %d bytes, %v, in place %v: message %d differs", n, side, inPlace, i)
						}
					}
					for i := range b {
						b[i] = msg(i, cts[i], len(pts[i]))
					}
					if !a.OpenBatch(b[:]) {
						t.Fatalf("OpenBatch, %d bytes, %v, in place %v: failed", n, side, inPlace)
					}
					for i := range b {
						if !bytes.Equal(b[i].Out, pts[i]) {
							t.Fatalf("OpenBatch, %d bytes, %v, in place %v: message %d differs", n, side, inPlace, i)
						}
					}
				})
				if err != nil {
					t.Fatalf("%d bytes, %v, in place %v: %v", n, side, inPlace, err)
				}
			}
		}
	}
}
