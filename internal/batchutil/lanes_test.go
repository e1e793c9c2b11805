package batchutil

import (
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
		if want := min(max(maxRuns, 1), 3); runs != want {
			t.Errorf("MaxRuns %d: longest run %d groups, want %d", maxRuns, runs, want)
		}
	}
}
