//go:build !purego

package bench

import (
	"math"
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

// TestGenericChain checks that the Go chain runs at one operation a cycle,
// as the assembly does: the two find the same clock.
func TestGenericChain(t *testing.T) {
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
			t.Fatal(err)
		}
		return ghz
	}
	asm, generic := rate(addChain), rate(addChainGeneric)
	t.Logf("assembly %.3f GHz, generic %.3f GHz", asm, generic)
	if math.Abs(generic/asm-1) > 0.2 {
		t.Errorf("the generic chain finds %.3f GHz, the assembly %.3f GHz", generic, asm)
	}
}
