package bench

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// addsPerIteration is the length of the chain of dependent one-cycle
// instructions that one iteration of addChain runs, in every kernel; the
// amd64 generator in _asm unrolls the same number.
const addsPerIteration = 64

// addChainGeneric is addChain in Go, for builds without assembly: 4n
// iterations of 16 dependent operations on x. Adds alternate with xors
// because the compiler merges two adds of the same value into one LEA; it
// has no rule that merges an add with an xor, so each statement stays one
// single-cycle instruction on amd64 and arm64 (checked against the assembly
// by TestGenericChain). m depends only on the loop counter, so it is
// computed beside the chain, not in it.
func addChainGeneric(n uint64) uint64 {
	var x uint64
	for i := 4 * n; i > 0; i-- {
		m := i * 0x9e3779b97f4a7c15
		x += i
		x ^= m
		x += i
		x ^= m
		x += i
		x ^= m
		x += i
		x ^= m
		x += i
		x ^= m
		x += i
		x ^= m
		x += i
		x ^= m
		x += i
		x ^= m
	}
	return x
}

// A calibration is the core clock rate that calibrate found.
type calibration struct {
	GHz    float64 // core cycles per nanosecond: the median of the trials
	Spread float64 // (max-min)/median of the trials' rates
	Trials int
	Kernel string // the code timed: "amd64 assembly" or "generic Go"
}

// A chainTiming is one timed run of addChain: Adds dependent single-cycle
// instructions took D.
type chainTiming struct {
	Adds uint64
	D    time.Duration
}

// clockRate turns timings of the add chain into a clock rate. Trial i runs
// a short chain, short[i], and a long one, long[i]; its rate is the slope
// (long.Adds-short.Adds)/(long.D-short.D), in which the fixed cost of the
// call and of reading the clock cancels. The result is the median of the
// trials' rates, in GHz, so that a trial slowed by preemption moves it
// little; spread is (max-min)/median. A trial whose short chain was slowed
// so much that the long one took no longer has no rate and is dropped; if
// that leaves fewer than half the trials, clockRate fails.
func clockRate(short, long []chainTiming) (ghz, spread float64, err error) {
	if len(short) != len(long) || len(short) == 0 {
		return 0, 0, errors.New("bench: clock calibration needs pairs of timings")
	}
	var rates []float64
	for i := range short {
		da := float64(long[i].Adds) - float64(short[i].Adds)
		dt := float64(long[i].D - short[i].D)
		if da > 0 && dt > 0 {
			rates = append(rates, da/dt)
		}
	}
	if 2*len(rates) < len(short) {
		return 0, 0, fmt.Errorf("bench: clock calibration: in %d of %d trials a longer chain of adds did not take longer; is the machine very busy?",
			len(short)-len(rates), len(short))
	}
	ghz, spread = medianSpread(rates)
	return ghz, spread, nil
}

// calibrate measures the core clock: it times chains of dependent
// single-cycle adds against the monotonic clock, trials times, each long
// chain lasting about slice, and returns clockRate's answer. The time-stamp
// counter and /proc/cpuinfo are no use: on many machines, this one among
// them, they tick at a fixed rate that is not the core clock. The caller
// should be locked to its OS thread.
func calibrate(slice time.Duration, trials int) (calibration, error) {
	// Wake the core from any idle state first.
	for start := time.Now(); time.Since(start) < 20*time.Millisecond; {
		addChain(1 << 12)
	}
	n := uint64(1 << 10)
	for {
		d := timeChain(n)
		if d >= slice/2 || n >= 1<<40 {
			n = max(4, uint64(float64(n)*float64(slice)/float64(max(d, 1))))
			break
		}
		n *= 4
	}
	short := make([]chainTiming, trials)
	long := make([]chainTiming, trials)
	for i := range trials {
		short[i] = chainTiming{n / 4 * addsPerIteration, timeChain(n / 4)}
		long[i] = chainTiming{n * addsPerIteration, timeChain(n)}
	}
	ghz, spread, err := clockRate(short, long)
	if err != nil {
		return calibration{}, err
	}
	if ghz < 0.05 || ghz > 20 {
		return calibration{}, fmt.Errorf("bench: clock calibration found an implausible %.3g GHz", ghz)
	}
	return calibration{GHz: ghz, Spread: spread, Trials: trials, Kernel: chainKernel}, nil
}

// chainSink keeps the chains' results alive, so that the compiler cannot
// drop the portable one.
//
//lint:ignore U1000 written to keep a result alive, never read
var chainSink uint64

func timeChain(n uint64) time.Duration {
	start := time.Now()
	chainSink += addChain(n)
	return time.Since(start)
}

// medianSpread returns the median of xs and their spread, (max-min)/median;
// xs must not be empty. An even count takes the mean of the middle two.
func medianSpread(xs []float64) (median, spread float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	median = s[n/2]
	if n%2 == 0 {
		median = (s[n/2-1] + s[n/2]) / 2
	}
	if median > 0 {
		spread = (s[n-1] - s[0]) / median
	}
	return median, spread
}

// cyclesPerByte converts the time of one operation on a message of the
// given length to cycles per byte at a clock of ghz.
func cyclesPerByte(nsPerOp, ghz float64, bytes int) float64 {
	return nsPerOp * ghz / float64(bytes)
}

// gigabytesPerSecond converts the time of one operation on a message of the
// given length to 10⁹ bytes per second, which is bytes per nanosecond.
func gigabytesPerSecond(nsPerOp float64, bytes int) float64 {
	return float64(bytes) / nsPerOp
}
