package batchutil

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/alias"
)

// TestMisplaced checks misplaced against alias's checks, which it stands in
// for, over every placement of Out, In and AD in one small buffer and in
// separate ones.
func TestMisplaced(t *testing.T) {
	const n = 12
	var buf, other [n]byte
	ranges := [][]byte{nil, other[:0], other[3:7]}
	for i := 0; i <= n; i++ {
		for j := i; j <= n; j++ {
			ranges = append(ranges, buf[i:j])
		}
	}
	for _, out := range ranges {
		if len(out) == 0 {
			continue
		}
		for _, in := range ranges {
			for _, ad := range ranges {
				m := &batch.Message{Out: out, In: in, AD: ad}
				want := alias.InexactOverlap(out, in) || alias.AnyOverlap(out, ad)
				if got := misplaced(m); got != want {
					t.Fatalf("misplaced(Out %p+%d, In %p+%d, AD %p+%d) = %v, want %v",
						out, len(out), in, len(in), ad, len(ad), got, want)
				}
			}
		}
	}
}

// TestAddLongest adds texts of up to 4095 bytes, the most add takes.
func TestAddLongest(t *testing.T) {
	msgs := make([]batch.Message, 16)
	for i := range msgs {
		msgs[i].In = make([]byte, 4095-i%8)
	}
	var l LaneGroups
	for i := range msgs {
		full := l.add(i, len(msgs[i].In))
		if (full != nil) != (i == 15) {
			t.Fatalf("add(%d) = %v", i, full)
		}
		if full != nil && full.N != 16 {
			t.Fatalf("full group: N %d", full.N)
		}
	}
	if g := l.Rest(); g != nil {
		t.Fatalf("Rest = %v after a full group", g)
	}
}

// TestCheckSealFirst checks that CheckSeal names the first bad message when
// a later one fails the first loop's checks and an earlier one only the
// bounds of the second (Fits, MaxText, MaxAD).
func TestCheckSealFirst(t *testing.T) {
	for _, s := range []Spec{
		{Pkg: "p", NonceSize: 1, TagSize: 4, MaxText: 8},
		{Pkg: "p", NonceSize: 1, TagSize: 4, MaxText: 8, MaxAD: 100},
		{Pkg: "p", NonceSize: 1, TagSize: 4, Fits: func(n, _ int) bool { return n <= 8 }},
	} {
		msgs := make([]batch.Message, 4)
		for i := range msgs {
			n := 2
			if i == 1 {
				n = 9 // too long
			}
			msgs[i] = batch.Message{Nonce: make([]byte, 1), In: make([]byte, n), Out: make([]byte, n+4)}
		}
		msgs[2].Out = msgs[2].Out[:1] // wrong length
		func() {
			defer func() {
				want := "p: batch message 1: message or additional data too large"
				if r := recover(); r != want {
					t.Errorf("panic %v, want %q", r, want)
				}
			}()
			s.CheckSeal(msgs)
		}()
		s.CheckSeal(msgs[2:2]) // no messages, no panic
		msgs[1].In, msgs[1].Out = msgs[1].In[:2], msgs[1].Out[:6]
		msgs[2].Out = msgs[2].Out[:6]
		msgs[0].AD = make([]byte, 50) // over MaxText, not MaxAD
		s.CheckSeal(msgs)
	}
}

// TestRunLanesRuns checks the groups RunLanes gives run for batches of like
// messages: runs of full groups of 16 in a row, up to maxRuns a group, and
// a part-filled group last (Runs 0).
func TestRunLanesRuns(t *testing.T) {
	for _, c := range []struct {
		n, maxRuns int
		want       [][2]int // each group's first message and Runs
	}{
		{90, math.MaxInt, [][2]int{{0, 5}, {80, 0}}},
		{90, 2, [][2]int{{0, 2}, {32, 2}, {64, 1}, {80, 0}}},
		{48, 1, [][2]int{{0, 1}, {16, 1}, {32, 1}}},
		{15, math.MaxInt, [][2]int{{0, 0}}},
	} {
		msgs := make([]batch.Message, c.n)
		for i := range msgs {
			msgs[i].In = make([]byte, 64)
		}
		var got [][2]int
		plan := NewPlan(msgs, spansOf(msgs), false, 16, 1024, math.MaxInt)
		RunLanes(msgs, &plan, c.maxRuns, func(g LaneGroup) {
			for k := range g.N {
				if g.Idx[k] != g.Idx[0]+k {
					t.Fatalf("%d messages, maxRuns %d: group %v", c.n, c.maxRuns, g.Idx[:g.N])
				}
			}
			if g.Runs > 0 && g.N != 16 {
				t.Fatalf("%d messages, maxRuns %d: %d messages with Runs %d", c.n, c.maxRuns, g.N, g.Runs)
			}
			got = append(got, [2]int{g.Idx[0], g.Runs})
		}, func(i int) { t.Fatalf("message %d alone", i) })
		if !slices.Equal(got, c.want) {
			t.Errorf("%d messages, maxRuns %d: groups (first, runs) %v, want %v", c.n, c.maxRuns, got, c.want)
		}
	}
}

// TestRunLanesSpread checks that full groups of texts over 496 bytes run in
// lanes only where the longest text is at most 1.6 times the shortest
// (closeEnough), whichever path forms them, sealing and opening, and that
// shorter texts run in lanes however far apart.
func TestRunLanesSpread(t *testing.T) {
	for _, c := range []struct {
		lo, hi int
		lanes  bool
	}{
		{520, 520, true}, {520, 832, true}, {520, 833, false}, {600, 1000, false},
		{260, 490, true}, {497, 795, true}, {497, 796, false},
	} {
		for _, open := range []bool{false, true} {
			for _, shuffled := range []bool{false, true} {
				// 32 messages of c.lo and c.hi bytes alternating, or the
				// lows first, then the highs (two runs for Take).
				sub := 0
				if open {
					sub = 16
				}
				msgs := make([]batch.Message, 32)
				for i := range msgs {
					n := c.lo
					if shuffled && i%2 == 1 || !shuffled && i >= 16 {
						n = c.hi
					}
					msgs[i].In = make([]byte, n+sub)
				}
				inLanes, alone := 0, 0
				plan := NewPlan(msgs, spansOf(msgs), open, 16, 1024, math.MaxInt)
				RunLanes(msgs, &plan, math.MaxInt, func(g LaneGroup) { inLanes += g.N * max(g.Runs, 1) }, func(int) { alone++ })
				want := 32
				if !c.lanes && shuffled {
					want = 0
				}
				if inLanes != want || inLanes+alone != 32 {
					t.Errorf("texts of %d and %d bytes, open %v, alternating %v: %d in lanes, %d alone; want %d in lanes", c.lo, c.hi, open, shuffled, inLanes, alone, want)
				}
			}
		}
	}
}

// TestCheckLengths checks that CheckSeal and CheckOpen reject every Out
// and nonce of a wrong length, alone or together (their loops test both
// lengths at once), and name the Out's first.
func TestCheckLengths(t *testing.T) {
	s := Spec{Pkg: "p", NonceSize: 12, TagSize: 16}
	for _, open := range []bool{false, true} {
		for outDelta := -20; outDelta <= 20; outDelta++ {
			for nonceLen := 0; nonceLen <= 20; nonceLen++ {
				in := make([]byte, 40)
				outLen := len(in) + s.TagSize
				if open {
					outLen = len(in) - s.TagSize
				}
				msgs := []batch.Message{{Nonce: make([]byte, nonceLen), In: in, Out: make([]byte, max(outLen+outDelta, 0))}}
				want := ""
				switch {
				case outLen+outDelta < 0:
					continue
				case outDelta != 0:
					want = "p: batch message 0: output is " + strconv.Itoa(outLen+outDelta) + " bytes, want " + strconv.Itoa(outLen)
				case nonceLen != s.NonceSize:
					want = "p: batch message 0: incorrect nonce length " + strconv.Itoa(nonceLen) + ", want 12"
				}
				func() {
					defer func() {
						if r := recover(); r != nil && r != want || r == nil && want != "" {
							t.Errorf("open %v, Out %+d bytes, nonce %d: panic %v, want %q", open, outDelta, nonceLen, r, want)
						}
					}()
					if open {
						s.CheckOpen(msgs)
					} else {
						s.CheckSeal(msgs)
					}
				}()
			}
		}
	}
}

// TestRunLanesNonePays checks that RunLanes, where no length class holds
// messages enough for a group that pays (anyPays: the Plan's Alone), sends
// each message alone, and fails those to open shorter than a tag, as placing does; and
// that one message more in a class, which makes its group pay, runs the
// group in lanes.
func TestRunLanesNonePays(t *testing.T) {
	// Texts of classes 0 to 5, as many of each as lanesPay does not take
	// yet, and texts past maxLen, shuffled.
	var lens []int
	for c, n := range []int{3, 3, 5, 7, 11, 15} {
		for range n {
			lens = append(lens, max(16<<c-16, 0))
		}
	}
	for range 20 {
		lens = append(lens, 600)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(lens), func(i, j int) { lens[i], lens[j] = lens[j], lens[i] })
	for _, open := range []bool{false, true} {
		for extra := -1; extra <= 5; extra++ {
			sub := 0
			if open {
				sub = 16
			}
			all := slices.Clone(lens)
			if extra >= 0 {
				all = append(all, max(16<<extra-16, 0)) // the class's group now pays
			}
			msgs := make([]batch.Message, len(all), len(all)+1)
			for i, n := range all {
				msgs[i].In = make([]byte, n+sub)
				msgs[i].OK = true
			}
			if open {
				msgs = append(msgs, batch.Message{In: make([]byte, sub/2), OK: true}) // shorter than a tag
			}
			inLanes, alone := make([]bool, len(msgs)), make([]bool, len(msgs))
			plan := NewPlan(msgs, spansOf(msgs), open, 16, 512, math.MaxInt)
			if plan.Alone() != (extra < 0) {
				t.Errorf("open %v, one more in class %d: Alone %v", open, extra, plan.Alone())
			}
			RunLanes(msgs, &plan, math.MaxInt, func(g LaneGroup) {
				for _, i := range g.Idx[:g.N] {
					inLanes[i] = true
				}
			}, func(i int) { alone[i] = true })
			for i, n := range all {
				want := extra >= 0 && n == max(16<<extra-16, 0)
				if inLanes[i] != want || alone[i] == want {
					t.Errorf("open %v, one more in class %d: message %d (%d bytes) in lanes %v, alone %v", open, extra, i, n, inLanes[i], alone[i])
				}
			}
			if last := len(all); open && (inLanes[last] || alone[last] || msgs[last].OK) {
				t.Errorf("one more in class %d: message of %d bytes to open in lanes %v, alone %v, OK %v", extra, sub/2, inLanes[last], alone[last], msgs[last].OK)
			}
		}
	}
}

// spansOf returns the Spans of msgs, for RunLanes.
func spansOf(msgs []batch.Message) Spans {
	sp := Spans{MinIn: math.MaxInt}
	for i := range msgs {
		sp = sp.add(&msgs[i])
	}
	return sp
}

// TestCheckSpans checks the Spans CheckSeal and CheckOpen return: the
// shortest and longest In and the longest AD, math.MaxInt and zeros for no
// messages.
func TestCheckSpans(t *testing.T) {
	s := Spec{Pkg: "p", NonceSize: 1, TagSize: 16}
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 40 {
		msgs := make([]batch.Message, n)
		want := Spans{MinIn: math.MaxInt}
		for i := range msgs {
			in, ad := 16+r.IntN(3000), r.IntN(200)
			want = Spans{min(want.MinIn, in), max(want.MaxIn, in), max(want.MaxAD, ad)}
			msgs[i] = batch.Message{Nonce: make([]byte, 1), In: make([]byte, in), AD: make([]byte, ad)}
		}
		for i := range msgs {
			msgs[i].Out = make([]byte, len(msgs[i].In)+16)
		}
		if got := s.CheckSeal(msgs); got != want {
			t.Errorf("%d messages: CheckSeal's Spans %+v, want %+v", n, got, want)
		}
		for i := range msgs {
			msgs[i].Out = msgs[i].Out[:len(msgs[i].In)-16]
		}
		if got := s.CheckOpen(msgs); got != want {
			t.Errorf("%d messages: CheckOpen's Spans %+v, want %+v", n, got, want)
		}
	}
}

// TestCheckSealFitsPast checks that CheckSeal, with a Fits and MaxText and
// MaxAD, asks Fits of no message where every length is within the bounds,
// and of the messages up to the first it rejects where one is past them.
func TestCheckSealFitsPast(t *testing.T) {
	calls := 0
	s := Spec{Pkg: "p", NonceSize: 1, TagSize: 4, MaxText: 100, MaxAD: 50, Fits: func(n, ad int) bool {
		calls++
		return n <= 200 && ad <= 60
	}}
	msgs := make([]batch.Message, 8)
	for i := range msgs {
		msgs[i] = batch.Message{Nonce: make([]byte, 1), In: make([]byte, 100), AD: make([]byte, 50), Out: make([]byte, 104)}
	}
	s.CheckSeal(msgs)
	if calls != 0 {
		t.Errorf("lengths within MaxText and MaxAD: %d calls to Fits, want 0", calls)
	}
	msgs[3].In, msgs[3].Out = make([]byte, 150), make([]byte, 154) // past MaxText, Fits takes it
	s.CheckSeal(msgs)
	if calls != len(msgs) {
		t.Errorf("a text past MaxText: %d calls to Fits, want %d", calls, len(msgs))
	}
	msgs[5].AD = make([]byte, 61)
	defer func() {
		if r, want := recover(), "p: batch message 5: message or additional data too large"; r != want {
			t.Errorf("panic %v, want %q", r, want)
		}
	}()
	s.CheckSeal(msgs)
}

// TestAnyPaysClose checks that anyPays counts a group of 16 texts past
// closeFrom only where they are closeEnough, 16 in the order add groups
// them: texts of 600 and 1000 bytes (one class) alternating pay in no
// group, 16 of each in a row do.
func TestAnyPaysClose(t *testing.T) {
	for _, c := range []struct {
		alternate bool
		want      bool
	}{{true, false}, {false, true}} {
		msgs := make([]batch.Message, 32)
		for i := range msgs {
			n := 600
			if c.alternate && i%2 == 1 || !c.alternate && i >= 16 {
				n = 1000
			}
			msgs[i].In = make([]byte, n)
		}
		if got := anyPays(msgs, 0, 1024, math.MaxInt); got != c.want {
			t.Errorf("alternating %v: anyPays %v, want %v", c.alternate, got, c.want)
		}
	}
}
