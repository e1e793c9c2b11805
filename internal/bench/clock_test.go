package bench

import (
	"math"
	"testing"
	"time"
)

// synthetic returns the timing of a chain of adds on a core at ghz, with a
// fixed overhead and extra time stolen from it.
func synthetic(adds uint64, ghz float64, overhead, stolen time.Duration) chainTiming {
	return chainTiming{adds, overhead + stolen + time.Duration(float64(adds)/ghz)}
}

func TestClockRate(t *testing.T) {
	const ghz = 3.6
	var short, long []chainTiming
	for i := range 7 {
		var stolen time.Duration
		if i == 2 {
			stolen = 3 * time.Millisecond // one trial preempted
		}
		short = append(short, synthetic(1<<24, ghz, 80*time.Nanosecond, 0))
		long = append(long, synthetic(1<<26, ghz, 80*time.Nanosecond, stolen))
	}
	got, spread, err := clockRate(short, long)
	if err != nil {
		t.Fatal(err)
	}
	// The overhead cancels; the preempted trial is outvoted. Durations are
	// whole nanoseconds, so allow for their rounding.
	if math.Abs(got-ghz) > 1e-6 {
		t.Errorf("clockRate = %v GHz, want %v", got, ghz)
	}
	// The preempted trial ran 3 ms longer over (1<<26 - 1<<24) adds.
	slow := float64(1<<26-1<<24) / (float64(1<<26-1<<24)/ghz + 3e6)
	if want := (ghz - slow) / ghz; math.Abs(spread-want) > 1e-6 {
		t.Errorf("spread = %v, want %v", spread, want)
	}

	if _, _, err := clockRate(short, long[:3]); err == nil {
		t.Error("clockRate accepted unpaired timings")
	}
	if _, _, err := clockRate(long, short); err == nil {
		t.Error("clockRate accepted long chains that took less time than short ones")
	}
	// One trial whose short chain was preempted for longer than the long
	// chain ran is dropped.
	short[4].D += 100 * time.Millisecond
	if got, _, err := clockRate(short, long); err != nil || math.Abs(got-ghz) > 1e-6 {
		t.Errorf("with one trial upside down: clockRate = %v, %v; want %v", got, err, ghz)
	}
}

func TestMedianSpread(t *testing.T) {
	for _, tc := range []struct {
		xs             []float64
		median, spread float64
	}{
		{[]float64{5}, 5, 0},
		{[]float64{3, 1, 2}, 2, 1},
		{[]float64{4, 1, 2, 3}, 2.5, 1.2},
		{[]float64{10, 10, 10, 10, 50}, 10, 4},
	} {
		m, s := medianSpread(tc.xs)
		if m != tc.median || math.Abs(s-tc.spread) > 1e-12 {
			t.Errorf("medianSpread(%v) = %v, %v; want %v, %v", tc.xs, m, s, tc.median, tc.spread)
		}
	}
}

func TestConversions(t *testing.T) {
	// 4096 bytes in 1000 ns at 3.6 GHz: 3600 cycles, 0.87890625 cycles per
	// byte, 4.096 GB/s.
	if got := cyclesPerByte(1000, 3.6, 4096); math.Abs(got-0.87890625) > 1e-12 {
		t.Errorf("cyclesPerByte = %v, want 0.87890625", got)
	}
	if got := gigabytesPerSecond(1000, 4096); got != 4.096 {
		t.Errorf("gigabytesPerSecond = %v, want 4.096", got)
	}
}

// TestAddChainGeneric checks the generic chain against the same
// operations written one at a time.
func TestAddChainGeneric(t *testing.T) {
	for _, n := range []uint64{0, 1, 3} {
		var want uint64
		for i := 4 * n; i > 0; i-- {
			m := i * 0x9e3779b97f4a7c15
			for range 8 {
				want = (want + i) ^ m
			}
		}
		if got := addChainGeneric(n); got != want {
			t.Errorf("addChainGeneric(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestCalibrate(t *testing.T) {
	c, err := calibrate(2*time.Millisecond, 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%.3f GHz, spread %.1f%%, %s", c.GHz, 100*c.Spread, c.Kernel)
	if c.GHz < 0.3 || c.GHz > 8 {
		t.Errorf("calibrate found %.3f GHz", c.GHz)
	}
}
