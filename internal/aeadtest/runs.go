package aeadtest

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/guard"
)

// TestBatchLongRuns is for the OCB modes' run kernels, which take a batch's
// full groups of 16 like messages in a row in one call
// (batchutil.LaneGroup.Runs) and stop after a group they leave to the
// caller. It compares batches with single calls, under AEADs from
// newWithSizes (keys of each size, nonces of 1, 12 and 15 bytes, tags of
// 16 and 12): runs of 1 to 5 groups and a part-filled one, of one length
// or ragged (lanes whose blocks end before others'), without associated
// data (one call for the run) and with it in one message (the kernel stops
// after that group and the next call goes on); then it opens them with
// tags changed in some groups (the kernel stops after each), which alone
// must fail, their outputs zeroed; every third message in place. At every
// other tag size from 8 bytes, one such run. Then runs of 16 and 32
// messages with every buffer against a guard page, in place and not. Texts
// run up to near maxLen, the longest the lanes take. With -short, fewer
// lengths and counts.
func TestBatchLongRuns[A batch.AEAD](t *testing.T, newWithSizes func(key []byte, nonceSize, tagSize int) (A, error), maxLen int) {
	key := make([]byte, 32)
	key[0] = 0x3c
	counts, adCases := []int{16, 33, 80, 87}, 3
	// The last two: near maxLen, and ragged in its class up to 1.6 times
	// the shortest (batchutil's closeEnough).
	near, ragged := [2]int{maxLen - maxLen/40, 0}, [2]int{maxLen * 19 / 32, maxLen / 20}
	lengths := [][2]int{{5, 0}, {9, 1}, {64, 0}, {64, 5}, {100, 0}, {49, 9}, near, ragged}
	guarded := []int{0, 15, 16, 44, 64, 100}
	if testing.Short() {
		counts, lengths, adCases, guarded = []int{33, 87}, [][2]int{{9, 1}, {64, 5}, ragged}, 2, []int{15, 64}
	}
	for _, s := range []struct{ key, nonce, tag int }{{16, 12, 16}, {16, 12, 12}, {24, 1, 16}, {32, 15, 16}} {
		a, err := newWithSizes(key[:s.key], s.nonce, s.tag)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range lengths {
			for _, n := range counts {
				for _, adAt := range []int{-1, 20, n - 1}[:adCases] {
					checkLongRun(t, a, fmt.Sprintf("key %d, nonce %d, tag %d, %d messages of %d to %d bytes, AD at %d", s.key, s.nonce, s.tag, n, l[0], l[0]+7*l[1], adAt), l[0], l[1], n, adAt)
				}
			}
		}
		if s.key == 16 {
			for _, n := range []int{16, 32} {
				testRunsGuard(t, a, n, guarded)
			}
		}
	}
	for tag := 8; tag < 16; tag++ {
		if tag == 12 {
			continue
		}
		a, err := newWithSizes(key[:16], 12, tag)
		if err != nil {
			t.Fatal(err)
		}
		checkLongRun(t, a, fmt.Sprintf("tag %d, 33 messages of 64 to 99 bytes, AD at 20", tag), 64, 5, 33, 20)
	}
}

// checkLongRun seals and opens n messages of l+(i+i/16)%8*step bytes
// (message i: each group of 16's lanes take other lengths than the group's
// before, which a run kernel must not carry over), message adAt (if any)
// with associated data, every third in place, and opens them again with
// some tags changed.
func checkLongRun(t *testing.T, a batch.AEAD, what string, l, step, n, adAt int) {
	t.Helper()
	ms := make([]batch.Message, n)
	pts, want := make([][]byte, n), make([][]byte, n)
	for i := range ms {
		m := &ms[i]
		m.Nonce = make([]byte, a.NonceSize())
		m.Nonce[0], m.Nonce[len(m.Nonce)-1] = byte(i), byte(i*7+l)
		m.In = make([]byte, l+(i+i/16)%8*step)
		for j := range m.In {
			m.In[j] = byte(i*13 + j)
		}
		if i == adAt {
			m.AD = []byte("associated")
		}
		pts[i], want[i] = m.In, a.Seal(nil, m.Nonce, m.In, m.AD)
		m.Out = make([]byte, len(m.In)+a.Overhead())
		if i%3 == 0 {
			m.In = m.Out[:copy(m.Out, m.In)]
		}
	}
	a.SealBatch(ms)
	for i := range ms {
		if !bytes.Equal(ms[i].Out, want[i]) {
			t.Fatalf("%s: message %d: SealBatch differs from Seal", what, i)
		}
	}
	for _, bad := range [][]int{nil, {3}, {17, 18, 40, n - 1}, {n - 1}} {
		opened := make([]batch.Message, n)
		isBad := make([]bool, n)
		for _, i := range bad {
			isBad[i%n] = true
		}
		for i, m := range ms {
			in := slices.Clone(m.Out)
			if isBad[i] {
				in[len(in)-1] ^= 0x40
			}
			out := make([]byte, len(pts[i]))
			if i%3 == 0 {
				out = in[:len(pts[i])]
			}
			opened[i] = batch.Message{Nonce: m.Nonce, AD: m.AD, In: in, Out: out}
		}
		if got := a.OpenBatch(opened); got != !slices.Contains(isBad, true) {
			t.Fatalf("%s, tags changed at %v: OpenBatch returned %v", what, bad, got)
		}
		for i, m := range opened {
			if m.OK == isBad[i] || isBad[i] && !bytes.Equal(m.Out, make([]byte, len(m.Out))) || !isBad[i] && !bytes.Equal(m.Out, pts[i]) {
				t.Fatalf("%s, tags changed at %v: message %d: OK %v, output wrong", what, bad, i, m.OK)
			}
		}
	}
}

// testRunsGuard seals and opens batches of n messages of each of lengths
// whose every buffer touches a guard page, at one side and then the other,
// in place and not; opening, with the last message's tag changed. The
// messages themselves end at a guard page too: a run kernel, which reads a
// group's messages ahead of its work, must not read past the last.
func testRunsGuard(t *testing.T, a batch.AEAD, n int, lengths []int) {
	ov := a.Overhead()
	regions := make([]guardRegions, n)
	for i := range regions {
		regions[i] = newGuardRegions(t, a.NonceSize(), 1, slices.Max(lengths)+ov)
	}
	// (The messages' slices point into the regions, none into Go's heap,
	// which the collector does not look for here.)
	size := int(unsafe.Sizeof(batch.Message{}))
	b := unsafe.Slice((*batch.Message)(unsafe.Pointer(unsafe.SliceData(guard.New(t, n*size).Slice(n*size, guard.End)))), n)
	src := newRand()
	for _, l := range lengths {
		ms := make([]message, n)
		for i := range ms {
			m := &ms[i]
			m.nonce, m.pt = randBytes(src, a.NonceSize()), randBytes(src, l)
			m.ct = a.Seal(nil, m.nonce, m.pt, nil)
		}
		for _, side := range guard.Sides {
			for _, inPlace := range []bool{false, true} {
				err := guard.Fault(func() {
					for i, m := range ms {
						b[i] = regions[i].message(side, m.nonce, nil, m.pt, len(m.ct), inPlace)
					}
					a.SealBatch(b)
					for i, m := range ms {
						if !bytes.Equal(b[i].Out, m.ct) {
							t.Fatalf("%d messages of %d bytes, %v, in place %v: sealed message %d differs", n, l, side, inPlace, i)
						}
					}
					for i, m := range ms {
						b[i] = regions[i].message(side, m.nonce, nil, m.ct, len(m.pt), inPlace)
					}
					b[n-1].In[len(b[n-1].In)-1] ^= 1
					a.OpenBatch(b)
					for i, m := range ms {
						ok := i < n-1
						if b[i].OK != ok || ok && !bytes.Equal(b[i].Out, m.pt) || !ok && !bytes.Equal(b[i].Out, make([]byte, len(m.pt))) {
							t.Fatalf("%d messages of %d bytes, %v, in place %v: opened message %d: OK %v, want %v; output wrong", n, l, side, inPlace, i, b[i].OK, ok)
						}
					}
				})
				if err != nil {
					t.Fatalf("%d messages of %d bytes, %v, in place %v: %v", n, l, side, inPlace, err)
				}
			}
		}
	}
}
