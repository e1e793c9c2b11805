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
	return measureTurns([]func(int){loop}, slice, trials, []bool{collect})[0]
}

// measureTurns measures each of loops as measure does, collect[i] for
// loops[i], but takes their trials in turns: trial t of every loop before
// trial t+1 of any. The machine's speed moves with other virtual machines'
// load, for seconds at a time; in turns, a change falls on every loop
// alike, and their ratios (a batch of messages against single calls) hold
// where figures taken one after the other would not.
func measureTurns(loops []func(n int), slice time.Duration, trials int, collect []bool) []sample {
	ns := make([]int, len(loops))
	for i, loop := range loops {
		n := 1
		for {
			d := timeLoop(loop, n)
			if d >= slice/4 || n >= maxN {
				n = predict(n, d, slice)
				break
			}
			n = predict(n, d, slice/2)
		}
		ns[i] = n
	}
	times := make([][]float64, len(loops))
	for i := range times {
		times[i] = make([]float64, trials)
	}
	for t := range trials {
		for i, loop := range loops {
			if collect[i] {
				runtime.GC()
			}
			times[i][t] = float64(timeLoop(loop, ns[i])) / float64(ns[i])
		}
	}
	out := make([]sample, len(loops))
	for i := range out {
		out[i].ns, out[i].spread = medianSpread(times[i])
	}
	return out
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
