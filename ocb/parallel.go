package ocb

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
// over n goroutines. OCB3 computes the offset of any block directly from its
// index, and checksums combine by XOR, so the output is identical to the
// serial result. The goroutines are started per call and have all ended when
// Seal or Open returns. n < 1 counts as 1; a itself is returned when it
// already has n.
func (a *AEAD) WithParallelism(n int) *AEAD {
	if max(n, 1) == a.parallelism {
		return a
	}
	b := *a
	if a.aes == &a.block {
		b.aes = &b.block
	}
	b.parallelism = max(n, 1)
	return &b
}

// blocksParallel is blocks from the start of a message or of the AD, with
// its work spread over up to a.parallelism goroutines. They claim chunks of
// one kernel call each from a shared counter rather than fixed shares, so a
// goroutine that starts late (a sleeping core takes tens of microseconds to
// wake in some VMs) takes less work instead of delaying the result.
func (a *AEAD) blocksParallel(d direction, dst, src []byte, off, sum *block) {
	n := min(a.parallelism, len(src)/minShare)
	if n < 2 || len(src) < ParallelThreshold {
		a.blocks(d, dst, src, off, sum, 0)
		return
	}
	const chunk = maxKernelBlocks * blockSize
	chunks := int64((len(src) + chunk - 1) / chunk)
	var next atomic.Int64
	off0 := *off
	// Each goroutine sums on its own stack and stores its sum once: sums
	// side by side in one cache line, updated after every chunk, would
	// bounce the line between the cores.
	work := func(sum *block) {
		var s block
		for c := next.Add(1) - 1; c < chunks; c = next.Add(1) - 1 {
			lo := int(c) * chunk
			hi := min(lo+chunk, len(src))
			var out []byte
			if d != hash {
				out = dst[lo:hi]
			}
			first := uint64(lo / blockSize)
			o := a.offsetAt(off0, first)
			a.blocks(d, out, src[lo:hi], &o, &s, first)
		}
		*sum = s
	}
	sums := make([]block, n)
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
		*sum = sum.xor(s)
	}
	*off = a.offsetAt(off0, uint64(len(src)/blockSize))
}
