//go:build !purego

package bench

import (
	"testing"
	"time"
)

// TestAddChain checks what the assembly computes, the sum of 64 adds of n,
// n-1, ..., 1, which shows that it runs addsPerIteration adds an iteration.
func TestAddChain(t *testing.T) {
	for _, n := range []uint64{0, 1, 2, 1000} {
		if got, want := addChain(n), addsPerIteration*n*(n+1)/2; got != want {
			t.Errorf("addChain(%d) = %d, want %d", n, got, want)
		}
	}
}

// BenchmarkChains reports the clock that the assembly chain and the
// generic Go chain each find: they agree when the Go chain runs at one
// operation a cycle, as it should (a timing, so a benchmark, not a test).
func BenchmarkChains(b *testing.B) {
	rate := func(chain func(uint64) uint64) float64 {
		const n = 1 << 16
		var short, long []chainTiming
		for range 9 {
			start := time.Now()
			chainSink += chain(n / 4)
			short = append(short, chainTiming{n / 4 * addsPerIteration, time.Since(start)})
			start = time.Now()
			chainSink += chain(n)
			long = append(long, chainTiming{n * addsPerIteration, time.Since(start)})
		}
		ghz, _, err := clockRate(short, long)
		if err != nil {
			b.Fatal(err)
		}
		return ghz
	}
	var asm, generic float64
	for b.Loop() {
		asm, generic = rate(addChain), rate(addChainGeneric)
	}
	b.ReportMetric(asm, "asm-GHz")
	b.ReportMetric(generic, "generic-GHz")
}
