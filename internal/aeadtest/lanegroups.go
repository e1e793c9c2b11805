package aeadtest

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/guard"
)

// LaneRun seals or opens (setting OK) g's messages of msgs under a in a
// lane kernel, as a's batches run a group.
type LaneRun[A batch.AEAD] func(a A, open bool, msgs []batch.Message, g *batchutil.LaneGroup)

// TestLaneGroups is for the lane kernels that run up to 16 messages of a
// batch side by side (batchutil.LaneGroup) of the OCB modes, ocb's and
// raocb's: for every tag size from 8 to 16 bytes, under AEADs from
// newWithSizes with keys of 16, 24 and 32 bytes and nonces of 1 to 15, it
// calls run directly on groups of 1 to 16 of a batch's messages, whatever
// RunLanes would group, against Seal and Open of each alone. Texts run from
// 0 to maxLen bytes, across length classes, within one, with lane 0 the
// longest, the shortest or empty (the lanes past g.N repeat its whole
// blocks), all of one length; with associated data or none, in place and
// not; opening, with some of the lanes changed. The messages outside the
// group and the bytes about every output must stay as they were. Then
// groups of each size, every buffer against a guard page (with -short,
// fewer of them).
func TestLaneGroups[A batch.AEAD](t *testing.T, newWithSizes func(key []byte, nonceSize, tagSize int) (A, error), maxLen int, run LaneRun[A]) {
	key := make([]byte, 32)
	key[0] = 0x1a
	for tag := 8; tag <= 16; tag++ {
		a, err := newWithSizes(key[:16+8*(tag%3)], 1+tag%15, tag)
		if err != nil {
			t.Fatal(err)
		}
		testLaneGroups(t, a, maxLen, func(open bool, msgs []batch.Message, g *batchutil.LaneGroup) { run(a, open, msgs, g) })
	}
}

func testLaneGroups(t *testing.T, a batch.AEAD, maxLen int, run func(open bool, msgs []batch.Message, g *batchutil.LaneGroup)) {
	src := newRand()
	r := rand.New(src)
	const spare = 16 // bytes each side of an output
	for n := 1; n <= 16; n++ {
		for pattern := range 5 {
			lens := laneLengths(r, pattern, n, maxLen)
			// The batch holds three messages more than the group, which
			// takes n of them in some order; Idx past n keeps others.
			count := n + 3
			perm := r.Perm(count)
			var g batchutil.LaneGroup
			copy(g.Idx[:], perm)
			g.N = n
			ms := make([]message, count)
			for i := range ms {
				l := r.IntN(maxLen + 1)
				if k := slices.Index(perm[:n], i); k >= 0 {
					l = lens[k]
				}
				m := &ms[i]
				adLen := 0
				if r.IntN(2) == 0 {
					adLen = 1 + r.IntN(40)
				}
				m.nonce, m.pt, m.ad = randBytes(src, a.NonceSize()), randBytes(src, l), randBytes(src, adLen)
				m.inPlace = r.IntN(2) == 0
				m.ct = a.Seal(nil, m.nonce, m.pt, m.ad)
			}
			for _, open := range []bool{false, true} {
				// Each message's memory: its Out with spare bytes about it,
				// which holds In where in place.
				bufs := make([][]byte, count)
				want := make([][]byte, count)
				b := make([]batch.Message, count)
				wantOK := make([]bool, count)
				for i, m := range ms {
					in, out := m.pt, m.ct
					if open {
						in, out = bytes.Clone(m.ct), m.pt
					}
					grouped := slices.Contains(perm[:n], i)
					if open && grouped && r.IntN(3) == 0 {
						in[r.IntN(len(in))] ^= 1 << r.IntN(8)
					}
					buf := bytes.Repeat([]byte{sentinel}, len(out)+2*spare)
					dst := buf[spare : spare+len(out)]
					src := in
					if m.inPlace {
						src = buf[spare : spare+len(in)]
						copy(src, in)
					}
					b[i] = batch.Message{Nonce: m.nonce, AD: m.ad, In: src, Out: dst, OK: i%2 == 0}
					bufs[i], want[i], wantOK[i] = buf, bytes.Clone(buf), i%2 == 0
					if !grouped {
						continue
					}
					if open {
						pt, err := a.Open(nil, m.nonce, in, m.ad)
						wantOK[i] = err == nil
						if err != nil {
							pt = make([]byte, len(out))
						}
						copy(want[i][spare:], pt)
					} else {
						copy(want[i][spare:], out)
					}
				}
				run(open, b, &g)
				for i := range b {
					if !bytes.Equal(bufs[i], want[i]) || open && b[i].OK != wantOK[i] {
						t.Fatalf("group of %d (pattern %d, lengths %v), open %v: message %d (%d bytes, AD %d, in place %v, in the group %v): output or OK (%v, want %v) wrong",
							n, pattern, lens, open, i, len(ms[i].pt), len(ms[i].ad), ms[i].inPlace, slices.Contains(perm[:n], i), b[i].OK, wantOK[i])
					}
				}
			}
		}
	}
	testLaneGroupsGuard(t, a, src, maxLen, run)
}

// laneLengths returns the texts' lengths, up to maxLen, of a group of n
// messages: random (pattern 0), of one length class (1), of one class with
// lane 0 the longest, whole blocks (2), or with lane 0 the shortest, empty
// half the time (3), or all of one length (4).
func laneLengths(r *rand.Rand, pattern, n, maxLen int) []int {
	// The class's lengths: texts of 2^(c-1) to 2^c blocks, the last
	// partial or whole.
	c := 1 + r.IntN(bits.Len(uint(maxLen+15)/16))
	lo, hi := 16<<(c-1)-15, min(16<<c-16, maxLen)
	if lo > hi {
		lo = hi
	}
	in := func() int { return lo + r.IntN(hi-lo+1) }
	lens := make([]int, n)
	for k := range lens {
		switch pattern {
		case 0:
			lens[k] = r.IntN(maxLen + 1)
		case 4:
			lens[k] = lens[0]
			if k == 0 {
				lens[k] = in()
			}
		default:
			lens[k] = in()
		}
	}
	switch pattern {
	case 2:
		lens[0] = hi &^ 15
		for k := range lens {
			lens[k] = min(lens[k], lens[0])
		}
	case 3:
		lens[0] = lo
		if r.IntN(2) == 0 {
			lens[0] = 0
		}
	}
	return lens
}

// testLaneGroupsGuard seals and opens groups of 1 to 16 messages (every
// fourth size with -short) whose every buffer touches a guard page, at one
// side and then the other, in place and not, opening with the last lane's
// tag changed.
func testLaneGroupsGuard(t *testing.T, a batch.AEAD, src *rand.ChaCha8, maxLen int, run func(open bool, msgs []batch.Message, g *batchutil.LaneGroup)) {
	const adMax = 40
	r := rand.New(src)
	ov := a.Overhead()
	var regions [16]guardRegions
	for i := range regions {
		regions[i] = newGuardRegions(t, a.NonceSize(), adMax, maxLen+ov)
	}
	step := 1
	if testing.Short() {
		step = 4
	}
	for n := 1; n <= 16; n += step {
		lens := laneLengths(r, n%5, n, maxLen)
		ms := make([]message, n)
		for i := range ms {
			m := &ms[i]
			m.nonce, m.pt, m.ad = randBytes(src, a.NonceSize()), randBytes(src, lens[i]), randBytes(src, r.IntN(adMax+1))
			m.ct = a.Seal(nil, m.nonce, m.pt, m.ad)
		}
		var g batchutil.LaneGroup
		for k := range g.Idx {
			g.Idx[k] = k % n
		}
		g.N = n
		for _, side := range guard.Sides {
			for _, inPlace := range []bool{false, true} {
				b := make([]batch.Message, n)
				err := guard.Fault(func() {
					for i, m := range ms {
						b[i] = regions[i].message(side, m.nonce, m.ad, m.pt, len(m.ct), inPlace)
					}
					run(false, b, &g)
					for i, m := range ms {
						if !bytes.Equal(b[i].Out, m.ct) {
							t.Errorf("group of %d, lengths %v, %v, in place %v: sealed message %d differs", n, lens, side, inPlace, i)
						}
					}
					for i, m := range ms {
						b[i] = regions[i].message(side, m.nonce, m.ad, m.ct, len(m.pt), inPlace)
					}
					b[n-1].In[len(b[n-1].In)-1] ^= 1
					run(true, b, &g)
					for i, m := range ms {
						ok := i < n-1
						if b[i].OK != ok || ok && !bytes.Equal(b[i].Out, m.pt) || !ok && !bytes.Equal(b[i].Out, make([]byte, len(m.pt))) {
							t.Errorf("group of %d, lengths %v, %v, in place %v: opened message %d: OK %v, want %v; output wrong", n, lens, side, inPlace, i, b[i].OK, ok)
						}
					}
				})
				if err != nil {
					t.Fatalf("group of %d, lengths %v, %v, in place %v: %v", n, lens, side, inPlace, err)
				}
				if t.Failed() {
					t.FailNow()
				}
			}
		}
	}
}

// TestLaneStackGrowth is for the OCB modes' lane kernels, whose frames are
// large enough to take the stack check: on fresh goroutines at many depths
// of their stacks, so that some call of each kernel grows the stack, it
// seals and opens under a a batch of 16 messages of 64 bytes (a run
// kernel's group) and, in run directly, a group of 4 more, and checks every
// message against Seal and its OK.
func TestLaneStackGrowth[A batch.AEAD](t *testing.T, a A, run LaneRun[A]) {
	const n, size = 20, 64
	var g batchutil.LaneGroup
	for k := range g.Idx {
		g.Idx[k] = 16 + k%4
	}
	g.N = 4
	for depth := range 48 {
		seal, open := make([]batch.Message, n), make([]batch.Message, n)
		for i := range seal {
			nonce, pt := make([]byte, a.NonceSize()), make([]byte, size)
			nonce[0], pt[0] = byte(i), byte(depth)
			seal[i] = batch.Message{Nonce: nonce, In: pt, Out: make([]byte, size+a.Overhead())}
			open[i] = batch.Message{Nonce: nonce, In: seal[i].Out, Out: make([]byte, size)}
		}
		// Each call on a goroutine of its own, whose stack no call before
		// it has grown.
		for _, f := range []func(){
			func() { a.SealBatch(seal[:16]) },
			func() { run(a, false, seal, &g) },
			func() { a.OpenBatch(open[:16]) },
			func() { run(a, true, open, &g) },
		} {
			done := make(chan bool)
			go func() {
				atDepth(depth, f)
				done <- true
			}()
			<-done
		}
		for i, m := range seal {
			if want := a.Seal(nil, m.Nonce, m.In, nil); !bytes.Equal(m.Out, want) || !open[i].OK || !bytes.Equal(open[i].Out, m.In) {
				t.Fatalf("depth %d, message %d: lanes differ from Seal and Open", depth, i)
			}
		}
	}
}

// atDepth calls f below n frames of about 300 bytes each (the pad it
// returns keeps them).
//
//go:noinline
func atDepth(n int, f func()) (pad [256]byte) {
	if n > 0 {
		pad = atDepth(n-1, f)
		pad[n&255]++
		return pad
	}
	f()
	return pad
}

// BenchmarkLaneGroups measures what batchutil's lanesPay decides: n
// messages of one length class (texts drawn uniformly from its lengths, the
// same on every run, without associated data) sealed, or opened with open,
// under a new AEAD, in a lane kernel (run, as TestLaneGroups calls it) as
// cC/N/lanes, and each alone by Seal or Open as cC/N/one, for the classes C
// up to maxLen's and N = 2, 4, ..., 16.
func BenchmarkLaneGroups[A batch.AEAD](b *testing.B, newAEAD func() (A, error), maxLen int, open bool, run LaneRun[A]) {
	a, err := newAEAD()
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	ov := a.Overhead()
	for c := 1; c <= bits.Len(uint(maxLen+15)/16); c++ {
		lo, hi := 16<<(c-1)-15, min(16<<c-16, maxLen)
		for n := 2; n <= 16; n += 2 {
			msgs := make([]batch.Message, n)
			var g batchutil.LaneGroup
			for i := range msgs {
				nonce := make([]byte, a.NonceSize())
				nonce[0] = byte(i)
				in, out := make([]byte, lo+r.IntN(hi-lo+1)), []byte(nil)
				if open {
					in, out = a.Seal(nil, nonce, in, nil), in
				} else {
					out = make([]byte, len(in)+ov)
				}
				msgs[i] = batch.Message{Nonce: nonce, In: in, Out: out}
				g.Idx[i] = i
			}
			g.N = n
			name := "c" + strconv.Itoa(c) + "/" + strconv.Itoa(n)
			b.Run(name+"/lanes", func(b *testing.B) {
				for b.Loop() {
					run(a, open, msgs, &g)
				}
			})
			b.Run(name+"/one", func(b *testing.B) {
				for b.Loop() {
					for i := range msgs {
						m := &msgs[i]
						if open {
							a.Open(m.Out[:0], m.Nonce, m.In, nil)
						} else {
							a.Seal(m.Out[:0], m.Nonce, m.In, nil)
						}
					}
				}
			})
		}
	}
}
