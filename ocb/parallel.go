package ocb

import "sync"

// ParallelThreshold is the smallest message (or associated data) that
// WithParallelism splits: below it, starting goroutines costs more than it
// saves.
const ParallelThreshold = 256 << 10

// minShare is the fewest bytes one goroutine gets; a multiple of 32 blocks,
// so that every share starts where the fused kernels can.
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
// its work split over up to a.parallelism goroutines.
func (a *AEAD) blocksParallel(d direction, dst, src []byte, off, sum *block) {
	n := min(a.parallelism, len(src)/minShare)
	if n < 2 || len(src) < ParallelThreshold {
		a.blocks(d, dst, src, off, sum, 0)
		return
	}
	// Shares of whole 32-block groups; the last one takes the rest.
	share := len(src) / n &^ (32*blockSize - 1)
	sums := make([]block, n)
	off0 := *off
	var wg sync.WaitGroup
	for k := range n {
		lo, hi := k*share, (k+1)*share
		if k == n-1 {
			hi = len(src)
		}
		var out []byte
		if d != hash {
			out = dst[lo:hi]
		}
		first := uint64(lo / blockSize)
		work := func(o *block) {
			*o = a.offsetAt(off0, first)
			a.blocks(d, out, src[lo:hi], o, &sums[k], first)
		}
		if k == n-1 {
			work(off) // the last share leaves the final offset in *off
			continue
		}
		wg.Go(func() {
			var o block
			work(&o)
		})
	}
	wg.Wait()
	for k := range sums {
		*sum = sum.xor(sums[k])
	}
}
