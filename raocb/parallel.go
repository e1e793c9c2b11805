package raocb

import (
	"sync"
	"sync/atomic"
)

// ParallelThreshold is the smallest message (or associated data) that
// WithParallelism splits: below it, starting goroutines costs more than it
// saves.
const ParallelThreshold = 256 << 10

// minShare is the fewest bytes per goroutine worth starting one for.
const minShare = 64 << 10

// WithParallelism returns a copy of a that spreads Seal and Open of a message
// (and the hashing of associated data) of ParallelThreshold bytes or more
// over n goroutines. Every block of RAOCB is independent, and checksums
// combine by XOR, so the output is identical to the serial result. The
// goroutines are started per call and have all ended when Seal or Open
// returns. n < 1 counts as 1; a itself is returned when it already has n.
func (a *AEAD) WithParallelism(n int) *AEAD {
	if max(n, 1) == a.parallelism {
		return a
	}
	b := *a
	b.parallelism = max(n, 1)
	return &b
}

// blocksParallel is blocks with its work spread over up to a.parallelism
// goroutines. They claim chunks of one kernel call each from a shared
// counter rather than fixed shares, so a goroutine that starts late (a
// sleeping core takes tens of microseconds to wake in some VMs) takes less
// work instead of delaying the result.
func (a *AEAD) blocksParallel(d direction, dst, src []byte, x [blockSize]byte, sum *[blockSize]byte) {
	n := min(a.parallelism, len(src)/minShare)
	if n < 2 || len(src) < ParallelThreshold {
		a.blocks(d, dst, src, x, sum)
		return
	}
	chunks := int64((len(src) + kernelSpan - 1) / kernelSpan)
	var next atomic.Int64
	// Each goroutine sums on its own stack and stores its sum once: sums
	// side by side in one cache line, updated after every chunk, would
	// bounce the line between the cores.
	work := func(sum *[blockSize]byte) {
		var s [blockSize]byte
		for c := next.Add(1) - 1; c < chunks; c = next.Add(1) - 1 {
			lo := int(c) * kernelSpan
			hi := min(lo+kernelSpan, len(src))
			var out []byte
			if d != hash {
				out = dst[lo:hi]
			}
			a.blocks(d, out, src[lo:hi], addIndex(x, uint64(lo/blockSize)), &s)
		}
		*sum = s
	}
	sums := make([][blockSize]byte, n)
	// Every share runs on a goroutine of its own, the caller waiting: the
	// one started last takes the caller's P at once, and the others wait in
	// its run queue, where an idle P steals them as soon as it looks. A
	// goroutine started by a caller that keeps running would sit in the P's
	// runnext slot instead, which other Ps leave alone for several
	// microseconds of back-off; in a VM that often meant the whole share of
	// a 4 MiB message ran on one core.
	var wg sync.WaitGroup
	for k := range n {
		wg.Go(func() { work(&sums[k]) })
	}
	wg.Wait()
	for _, s := range sums {
		*sum = xor(*sum, s)
	}
}
