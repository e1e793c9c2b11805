package bench

import (
	"slices"
	"testing"
	"time"
)

func TestPredict(t *testing.T) {
	for _, tc := range []struct {
		n         int
		d, target time.Duration
		want      int
	}{
		{1, time.Microsecond, time.Millisecond, 100},         // growth capped at 100x
		{100, time.Millisecond, 10 * time.Millisecond, 1000}, // proportional
		{10, 999 * time.Microsecond, time.Millisecond, 11},   // at least one more
		{1, 5 * time.Millisecond, time.Millisecond, 1},       // never below one
		{1000, 0, time.Millisecond, 100000},                  // a zero duration
		{4, 2 * time.Millisecond, 10 * time.Millisecond, 20}, // slice from a quarter
		{8, 10 * time.Millisecond, 10 * time.Millisecond, 8}, // done
	} {
		if got := predict(tc.n, tc.d, tc.target); got != tc.want {
			t.Errorf("predict(%d, %v, %v) = %d, want %d", tc.n, tc.d, tc.target, got, tc.want)
		}
	}
}

// TestMeasure times an operation that waits 20µs and expects about that,
// allowing for a busy machine.
func TestMeasure(t *testing.T) {
	const op = 20 * time.Microsecond
	calls := 0
	loop := func(n int) {
		calls += n
		for range n {
			for start := time.Now(); time.Since(start) < op; {
			}
		}
	}
	s := measure(loop, 2*time.Millisecond, 5, false)
	t.Logf("%.0f ns, spread %.2f, %d calls", s.ns, s.spread, calls)
	if s.ns < float64(op) || s.ns > 10*float64(op) {
		t.Errorf("measured %v ns for a %v operation", s.ns, op)
	}
	if calls < 5 {
		t.Errorf("%d calls for 5 trials", calls)
	}
}

// TestMeasureTurns checks that measureTurns takes its loops' trials in
// turns, after each loop's own warm-up, and that each figure is its own.
func TestMeasureTurns(t *testing.T) {
	var order []int
	spin := func(id int, op time.Duration) func(int) {
		return func(n int) {
			order = append(order, id)
			for range n {
				for start := time.Now(); time.Since(start) < op; {
				}
			}
		}
	}
	const trials = 5
	s := measureTurns([]func(int){spin(0, 10*time.Microsecond), spin(1, 40*time.Microsecond)}, time.Millisecond, trials, []bool{false, true})
	if ratio := s[1].ns / s[0].ns; ratio < 2 || ratio > 8 {
		t.Errorf("measured %.0f and %.0f ns for operations of 10 and 40 µs", s[0].ns, s[1].ns)
	}
	tail := order[len(order)-2*trials:]
	for i, id := range tail {
		if id != i%2 {
			t.Fatalf("trials in the order %v, not in turns", tail)
		}
	}
	if !slices.Contains(order[:len(order)-2*trials], 1) || order[0] != 0 {
		t.Errorf("warm-ups in the order %v", order[:len(order)-2*trials])
	}
}
