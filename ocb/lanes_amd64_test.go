//go:build !purego

package ocb

import (
	"bytes"
	"fmt"
	mrand "math/rand/v2"
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/batchutil"
)

// TestLaneLayout pins laneOut's layout, which the lane kernels' generator
// (_asm/batch.go) takes as given (batchutil's tests pin batch.Message's).
func TestLaneLayout(t *testing.T) {
	var o laneOut
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"fail", unsafe.Offsetof(o.fail), 256},
		{"done", unsafe.Offsetof(o.done), 260},
		{"size", unsafe.Sizeof(o), 264},
	} {
		if c.got != c.want {
			t.Errorf("laneOut's %s is %d, the kernels take %d", c.name, c.got, c.want)
		}
	}
}

// TestLaneGroups runs the lane kernels directly on groups of 1 to 16
// messages (aeadtest.TestLaneGroups), which batches give them only where
// batchutil's grouping says.
func TestLaneGroups(t *testing.T) {
	if !useVAES512Lanes {
		t.Skip("no lane kernels on this CPU")
	}
	aeadtest.TestLaneGroups(t, NewWithSizes, laneMaxLen, (*AEAD).runLaneGroup)
}

// BenchmarkSealLanes and BenchmarkOpenLanes measure groups of 2 to 16
// messages of each length class in the lane kernels against single calls
// (aeadtest.BenchmarkLaneGroups): what batchutil's lanesPay decides.
func BenchmarkSealLanes(b *testing.B) { benchmarkLanes(b, false) }
func BenchmarkOpenLanes(b *testing.B) { benchmarkLanes(b, true) }

func benchmarkLanes(b *testing.B, open bool) {
	if !useVAES512Lanes {
		b.Skip("no lane kernels on this CPU")
	}
	aeadtest.BenchmarkLaneGroups(b, func() (*AEAD, error) { return New(make([]byte, 16)) }, laneMaxLen, open, (*AEAD).runLaneGroup)
}

// runLaneGroup is runLanes for aeadtest.LaneRun.
func (a *AEAD) runLaneGroup(open bool, msgs []batch.Message, g *batchutil.LaneGroup) {
	d := encrypt
	if open {
		d = decrypt
	}
	var out laneOut
	a.runLanes(d, msgs, g, &out)
}

// TestLaneStackGrowth runs the lane and run kernels, whose frames take the
// stack check, where some call grows the stack
// (aeadtest.TestLaneStackGrowth).
func TestLaneStackGrowth(t *testing.T) {
	if !useVAES512Lanes {
		t.Skip("no lane kernels on this CPU")
	}
	a, err := New(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	aeadtest.TestLaneStackGrowth(t, a, (*AEAD).runLaneGroup)
}

// TestLaneSharedKtop runs the lane and run kernels on groups whose 16 lanes
// share Ktop (nonces that differ at most in their 6 bottom bits), which the
// kernels encipher once for all, and on groups where all but one lane
// share it (each lane in turn, differing in the bit just above the bottom
// 6 or in the nonce's first byte), against Seal and Open of each message
// alone: groups of 16 and part-filled ones (whose idle lanes repeat lane
// 0's nonce) in the lane kernels, and runs whose groups alternate between
// shared and not in the run kernels; every key size, nonces of 12 and 1
// bytes, tags of 16 bytes (which the kernels finish, running a whole run
// in one call) and 12 (a call a group); opening, with a tag changed in a
// shared group, which alone must fail.
func TestLaneSharedKtop(t *testing.T) {
	if !useVAES512Lanes {
		t.Skip("no lane kernels on this CPU")
	}
	key := make([]byte, 32)
	key[0] = 0x4b
	r := mrand.New(mrand.NewPCG(4, 6))
	for _, keyLen := range []int{16, 24, 32} {
		for _, ns := range []int{12, 1} {
			for _, tag := range []int{16, 12} {
				a, err := NewWithSizes(key[:keyLen], ns, tag)
				if err != nil {
					t.Fatal(err)
				}
				random := func() []byte {
					n := make([]byte, ns)
					for i := range n {
						n[i] = byte(r.Uint32())
					}
					return n
				}
				// window returns a random base, its 6 bottom bits clear.
				window := func() []byte {
					base := random()
					base[ns-1] &^= 63
					return base
				}
				// A group's nonces of base: shared (one nonce, or counters from
				// a random place in an aligned window of 64), then with
				// lane k's changed above the bottom 6 bits; where not
				// shared, random.
				groupOf := func(base []byte, shared bool, k int) [][]byte {
					start, step := byte(r.IntN(49)), byte(r.IntN(2))
					nonces := make([][]byte, 16)
					for i := range nonces {
						if !shared {
							nonces[i] = random()
							continue
						}
						nonces[i] = bytes.Clone(base)
						nonces[i][ns-1] |= start + step*byte(i)
					}
					if k >= 0 {
						if k%2 == 0 || ns == 1 {
							nonces[k][ns-1] ^= 64
						} else {
							nonces[k][0] ^= 0x80
						}
					}
					return nonces
				}
				group := func(shared bool, k int) [][]byte { return groupOf(window(), shared, k) }
				what := fmt.Sprintf("key %d, nonce %d, tag %d", keyLen, ns, tag)
				// The lane kernels: groups of 16 and of 7.
				for _, n := range []int{16, 7} {
					checkKtopGroups(t, a, fmt.Sprintf("%s, lanes, %d shared", what, n), group(true, -1)[:n], 0)
					for k := range n {
						checkKtopGroups(t, a, fmt.Sprintf("%s, lanes, %d with lane %d apart", what, n, k), group(true, k)[:n], 0)
					}
				}
				// The run kernels: shared groups and not, in turn.
				var nonces [][]byte
				for k := range 16 {
					nonces = append(nonces, group(true, -1)...)
					nonces = append(nonces, group(true, k)...)
				}
				nonces = append(nonces, group(false, -1)...)
				nonces = append(nonces, group(true, -1)...)
				// Groups whose Ktop is the group before's (one window, as
				// the run kernels keep it), also after a group apart in
				// lane 1 (its first register's lanes differ) or in lane 5
				// (they do not).
				for _, k := range []int{1, 5} {
					base := window()
					for _, k := range []int{-1, -1, k, -1} {
						nonces = append(nonces, groupOf(base, true, k)...)
					}
				}
				checkKtopGroups(t, a, what+", run", nonces, len(nonces)/16)
			}
		}
	}
}

// checkKtopGroups seals and opens messages under nonces (of 0 to 84
// bytes), as one lane group or, with runs > 0, a run of runs groups of 16,
// against Seal and Open; then it opens them with the tag of message 3
// changed.
func checkKtopGroups(t *testing.T, a *AEAD, what string, nonces [][]byte, runs int) {
	t.Helper()
	n := len(nonces)
	var g batchutil.LaneGroup
	for i := range min(n, len(g.Idx)) {
		g.Idx[i] = i
	}
	g.N, g.Runs = min(n, len(g.Idx)), runs
	msgs := make([]batch.Message, n)
	pts, cts := make([][]byte, n), make([][]byte, n)
	for i := range msgs {
		pts[i] = make([]byte, 84-i%7*14)
		for j := range pts[i] {
			pts[i][j] = byte(i + 3*j)
		}
		cts[i] = a.Seal(nil, nonces[i], pts[i], nil)
		msgs[i] = batch.Message{Nonce: nonces[i], In: pts[i], Out: make([]byte, len(cts[i]))}
	}
	a.runLaneGroup(false, msgs, &g)
	for i, m := range msgs {
		if !bytes.Equal(m.Out, cts[i]) {
			t.Fatalf("%s: message %d (nonce %x): sealed differs from Seal", what, i, nonces[i])
		}
	}
	for _, bad := range []int{-1, 3} {
		for i := range msgs {
			in := bytes.Clone(cts[i])
			if i == bad {
				in[len(in)-1] ^= 1
			}
			msgs[i] = batch.Message{Nonce: nonces[i], In: in, Out: make([]byte, len(pts[i]))}
		}
		a.runLaneGroup(true, msgs, &g)
		for i, m := range msgs {
			want := pts[i]
			if i == bad {
				want = make([]byte, len(want))
			}
			if m.OK != (i != bad) || !bytes.Equal(m.Out, want) {
				t.Fatalf("%s, tag %d changed: message %d (nonce %x): OK %v, opened differs from Open", what, bad, i, nonces[i], m.OK)
			}
		}
	}
}
