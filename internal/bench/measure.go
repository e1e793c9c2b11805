package bench

import (
	"runtime"
	"time"
)

// A sample is the time of one operation: the median over trials and the
// trials' spread, (max-min)/median.
type sample struct {
	ns     float64
	spread float64
}

// measure times loop, which must perform its operation n times when called
// with n. It first finds the n that fills slice, which also warms caches
// and branch predictors, then times trials runs of that n and returns the
// median time per operation. If collect is set it runs the garbage
// collector before every trial, outside the timing, for operations that
// allocate (the caller has turned automatic collection off).
func measure(loop func(n int), slice time.Duration, trials int, collect bool) sample {
	n := 1
	for {
		d := timeLoop(loop, n)
		if d >= slice/4 || n >= maxN {
			n = predict(n, d, slice)
			break
		}
		n = predict(n, d, slice/2)
	}
	ns := make([]float64, trials)
	for i := range ns {
		if collect {
			runtime.GC()
		}
		ns[i] = float64(timeLoop(loop, n)) / float64(n)
	}
	median, spread := medianSpread(ns)
	return sample{median, spread}
}

// predict returns how many operations fill target, given that n took d:
// at least n+1 when d is short of target, at most a hundred times n, as
// testing.B does, so that a first run dominated by warming up does not
// over-shoot, and at most maxN.
func predict(n int, d, target time.Duration) int {
	next := min(float64(n)*float64(target)/float64(max(d, 1)), 100*float64(n), maxN)
	switch {
	case d < target && int(next) <= n:
		return min(n+1, maxN)
	case next < 1:
		return 1
	}
	return int(next)
}

// maxN bounds the iteration count of a timed loop.
const maxN = 1 << 30

func timeLoop(loop func(n int), n int) time.Duration {
	start := time.Now()
	loop(n)
	return time.Since(start)
}
