package bench

import (
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
