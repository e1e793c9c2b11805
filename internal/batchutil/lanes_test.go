package batchutil

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/faelabs/fae/batch"
)

// TestLanesRuns checks the groups of Lanes with and without MaxRuns: every
// message in exactly one lane, a group's messages of one shape, and a run's
// groups full, consecutive and of the first message's lengths, stopping
// where a length changes within the shape (62 and 63 bytes: one block and
// a partial one), at a new shape and at MaxRuns.
func TestLanesRuns(t *testing.T) {
	var lengths []int
	for _, r := range []struct{ n, count int }{{62, 8}, {63, 4}, {62, 5}, {100, 3}, {64, 16}} {
		for range r.count {
			lengths = append(lengths, r.n)
		}
	}
	msgs := make([]batch.Message, len(lengths))
	for i, n := range lengths {
		msgs[i].In = make([]byte, n)
	}
	for _, maxRuns := range []int{0, 1, 2, len(msgs)} {
		var q Lanes
		q.Init(msgs, 4, 5, 16, false)
		q.MaxRuns = maxRuns
		seen := make([]int, len(msgs))
		runs := 0
		for g := q.Next(); g != nil; g = q.Next() {
			if g.Runs < 1 || g.Runs > max(maxRuns, 1) || g.Runs > 1 && g.N != 4 {
				t.Fatalf("MaxRuns %d: group of %d messages with Runs %d", maxRuns, g.N, g.Runs)
			}
			runs = max(runs, g.Runs)
			for r := range g.Runs {
				for l := range g.N {
					i := g.Msgs[l] + r*g.N
					seen[i]++
					if q.shape(0, lengths[i]) != g.Shape || g.Runs > 1 && (lengths[i] != lengths[g.Msgs[0]] || i != g.Msgs[0]+r*4+l) {
						t.Fatalf("MaxRuns %d: message %d (%d bytes) in lane %d of run %d of a group from message %d", maxRuns, i, lengths[i], l, r, g.Msgs[0])
					}
				}
			}
		}
		for i, n := range seen {
			if n != 1 {
				t.Fatalf("MaxRuns %d: message %d in %d lanes", maxRuns, i, n)
			}
		}
		if want := min(max(maxRuns, 1), 4); runs != want {
			t.Errorf("MaxRuns %d: longest run %d groups, want %d", maxRuns, runs, want)
		}
	}
}

// TestLanesWindow checks the groups of a batch of mixed sizes, which take
// leaves to the window: every message in exactly one lane, each group of
// one shape, and, within a window of messages without runs, as few groups
// as the shapes allow (the messages of a shape in groups of lanes, in batch
// order). Opening, messages shorter than the tag fail and go in no group.
func TestLanesWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	for _, c := range []struct {
		count, lanes int
		open         bool
	}{{64, 4, false}, {64, 2, false}, {50, 4, true}, {200, 4, false}, {130, 2, true}} {
		msgs := make([]batch.Message, c.count)
		for i := range msgs {
			msgs[i].In = make([]byte, r.IntN(200))
			msgs[i].AD = make([]byte, r.IntN(3)*r.IntN(40))
			msgs[i].OK = true
		}
		var q Lanes
		q.Init(msgs, c.lanes, 5, 16, c.open)
		seen := make([]int, len(msgs))
		groups := 0
		prev := -1
		for g := q.Next(); g != nil; g = q.Next() {
			groups++
			for l := range g.N {
				i := g.Msgs[l]
				seen[i]++
				n := len(msgs[i].In)
				if c.open {
					n -= 16
				}
				if sh := q.shape(len(msgs[i].AD), n); sh != g.Shape {
					t.Fatalf("%+v: message %d of shape %+v in a group of %+v", c, i, sh, g.Shape)
				}
				if l > 0 && i <= prev {
					t.Fatalf("%+v: group's messages out of batch order", c)
				}
				prev = i
			}
		}
		shapes := map[Shape]int{}
		failed := false
		for i, n := range seen {
			m := &msgs[i]
			if c.open && len(m.In) < 16 {
				failed = true
				if n != 0 || m.OK {
					t.Fatalf("%+v: message %d shorter than a tag in %d lanes, OK %v", c, i, n, m.OK)
				}
				continue
			}
			if n != 1 {
				t.Fatalf("%+v: message %d in %d lanes", c, i, n)
			}
			if i < windowMsgs {
				n := len(m.In)
				if c.open {
					n -= 16
				}
				shapes[q.shape(len(m.AD), n)]++
			}
		}
		if q.Failed != failed {
			t.Errorf("%+v: Failed %v, want %v", c, q.Failed, failed)
		}
		if c.count <= windowMsgs {
			want := 0
			for _, k := range shapes {
				want += (k + c.lanes - 1) / c.lanes
			}
			if groups != want {
				t.Errorf("%+v: %d groups, want %d", c, groups, want)
			}
		}
	}
}

// TestLanesRagged checks the groups of Lanes with Ragged: every message in
// exactly one lane; a group's messages of one shape of associated data, in
// order of text length (their sortKey) and ending at most raggedSteps
// blocks past the shortest's whole blocks, its Shape the shortest's,
// Ragged and End the longest's; and,
// within a window, as few groups as the shapes of associated data and the
// span allow, each shape's messages in text order from group to group.
// Opening, messages shorter than the tag fail and go in no group.
func TestLanesRagged(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 2))
	for _, c := range []struct {
		count            int
		open, noAD, long bool
	}{{64, false, false, false}, {50, true, false, false}, {200, false, false, false}, {64, false, true, false}, {50, true, true, false}, {64, false, true, true}} {
		msgs := make([]batch.Message, c.count)
		for i := range msgs {
			// Some past the sort keys' range (127 blocks), which sorts
			// them together; with long, half of them, about 5000 and 7000
			// bytes in turn, which only sorted by length fill groups.
			n := r.IntN(300) + i%7/6*r.IntN(9000)
			if c.long && i%2 == 0 {
				n = 5000 + i/2%2*2000 + r.IntN(100)
			}
			msgs[i].In = make([]byte, n)
			if !c.noAD {
				msgs[i].AD = make([]byte, r.IntN(2)*r.IntN(40))
			}
			msgs[i].OK = true
		}
		sub := 0
		if c.open {
			sub = 16
		}
		var q Lanes
		q.Init(msgs, 4, 5, 16, c.open)
		q.Ragged = true
		seen := make([]int, len(msgs))
		groups := 0
		last := map[Shape]uint{} // the greatest sort key so far of an AD shape
		for g := q.Next(); g != nil; g = q.Next() {
			groups++
			ad := len(msgs[g.Msgs[0]].AD)
			adShape := q.shape(ad, 0)
			lo, hi, prev := len(msgs[g.Msgs[0]].In)-sub, 0, uint(0)
			for l := range g.N {
				i := g.Msgs[l]
				seen[i]++
				n := len(msgs[i].In) - sub
				if q.shape(len(msgs[i].AD), 0) != adShape || sortKey(n, 5) < prev {
					t.Fatalf("%+v: message %d (AD %d, text %d) in lane %d of a group of AD %d, after key %d", c, i, len(msgs[i].AD), n, l, ad, prev)
				}
				prev, lo, hi = sortKey(n, 5), min(lo, n), max(hi, n)
			}
			if (hi+31)>>5-lo>>5 > raggedSteps {
				t.Fatalf("%+v: group of texts %d to %d", c, lo, hi)
			}
			hiSh := q.shape(ad, hi)
			end := hiSh.Blocks
			if hiSh.Part {
				end++
			}
			if g.Shape != q.shape(ad, lo) || g.Ragged != (hiSh != g.Shape) || g.Ragged && g.End != end {
				t.Fatalf("%+v: group of texts %d to %d: Shape %+v, Ragged %v, End %d", c, lo, hi, g.Shape, g.Ragged, g.End)
			}
			if c.count <= windowMsgs {
				if k := sortKey(len(msgs[g.Msgs[0]].In)-sub, 5); k < last[adShape] {
					t.Fatalf("%+v: group from key %d after one to %d", c, k, last[adShape])
				}
				last[adShape] = prev
			}
		}
		texts := map[Shape][]int{}
		for i, n := range seen {
			if c.open && len(msgs[i].In) < 16 {
				if n != 0 || msgs[i].OK {
					t.Fatalf("%+v: message %d shorter than a tag in %d lanes, OK %v", c, i, n, msgs[i].OK)
				}
				continue
			}
			if n != 1 {
				t.Fatalf("%+v: message %d in %d lanes", c, i, n)
			}
			sh := q.shape(len(msgs[i].AD), 0)
			texts[sh] = append(texts[sh], len(msgs[i].In)-sub)
		}
		if c.count <= windowMsgs {
			// Each shape's texts in order of key, those of the last key
			// (the longest) in order of length, greedily four at a time
			// within raggedSteps.
			want := 0
			for _, ns := range texts {
				slices.SortStableFunc(ns, func(a, b int) int {
					if c := int(sortKey(a, 5)) - int(sortKey(b, 5)); c != 0 || sortKey(a, 5) < sortKeys-1 {
						return c
					}
					return a - b
				})
				for i := 0; i < len(ns); want++ {
					k, lo, hi := i+1, ns[i], ns[i]
					for ; k < len(ns) && k < i+4; k++ {
						if lo, hi = min(lo, ns[k]), max(hi, ns[k]); (hi+31)>>5-lo>>5 > raggedSteps {
							break
						}
					}
					i = k
				}
			}
			if groups != want {
				t.Errorf("%+v: %d groups, want %d", c, groups, want)
			}
		}
	}
}

// TestLanesShortRuns checks that runs of like messages shorter than
// runGroups groups stay in the window, which groups every shape's messages
// together (as few groups as the shapes allow), and that a longer run ends
// the window for take, with and without Ragged.
func TestLanesShortRuns(t *testing.T) {
	var lengths []int
	for _, r := range []struct{ n, count int }{{44, 3}, {552, 4}, {44, 5}, {1500, 4}, {552, 2}, {44, 4}, {1500, 1}, {576, 16}, {44, 2}} {
		for range r.count {
			lengths = append(lengths, r.n)
		}
	}
	msgs := make([]batch.Message, len(lengths))
	for i, n := range lengths {
		msgs[i].In = make([]byte, n)
	}
	for _, ragged := range []bool{false, true} {
		var q Lanes
		q.Init(msgs, 4, 5, 16, false)
		q.MaxRuns, q.Ragged = len(msgs), ragged
		var got [][2]int // each group's first message's length and its lanes
		for g := q.Next(); g != nil; g = q.Next() {
			got = append(got, [2]int{lengths[g.Msgs[0]], g.N * g.Runs})
		}
		// The 23 messages before the run of 576: 44 x 12, 552 x 6, 1500 x 5
		// in full groups but for one of each; the run; the last two 44s.
		want := [][2]int{{44, 4}, {44, 4}, {44, 4}, {552, 4}, {552, 2}, {1500, 4}, {1500, 1}, {576, 16}, {44, 2}}
		if !slices.Equal(got, want) {
			t.Errorf("Ragged %v: groups (first length, messages) %v, want %v", ragged, got, want)
		}
	}
}

// TestLanesWindowEnd checks where fill ends a window (runAt): at the first
// message, after the window's first, that starts a run of runGroups*lanes
// messages of equal lengths and follows one of other lengths; not within a
// longer run, nor at texts of one sort key but of other lengths, and with
// runs of messages too short to open.
func TestLanesWindowEnd(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 5))
	for i := range 4000 {
		msgs := make([]batch.Message, 1+r.IntN(windowMsgs))
		lens := []int{0, 10, 33, 40, 44, 552, 1500}
		for x := 0; x < len(msgs); {
			n, ad := lens[r.IntN(len(lens))], r.IntN(20)/19*3
			for k := x + r.IntN(30); x < len(msgs) && x <= k; x++ {
				msgs[x].In, msgs[x].AD = make([]byte, n), make([]byte, ad)
			}
		}
		lanes, open := 2+i%2*2, i%3 == 0
		run := runGroups * lanes
		want := len(msgs)
		for x := 1; x+run <= len(msgs) && want == len(msgs); x++ {
			like := func(k int) bool {
				return len(msgs[k].In) == len(msgs[x].In) && len(msgs[k].AD) == len(msgs[x].AD)
			}
			k := x
			for k < x+run && like(k) {
				k++
			}
			if k == x+run && !like(x-1) {
				want = x
			}
		}
		var q Lanes
		q.Init(msgs, lanes, 5, 16, open)
		var sets keySets
		used, _ := sets.bucket(q.sub(), 5, msgs, 0)
		if got := q.runAt(msgs, &sets, used); got != want {
			t.Fatalf("lanes %d, open %v, %d messages: window ends at %d, want %d", lanes, open, len(msgs), got, want)
		}
	}
}
