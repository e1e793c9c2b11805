package raocb

import "sync"

// ParallelThreshold is the smallest message (or associated data) that
// WithParallelism splits: below it, starting goroutines costs more than it
// saves.
const ParallelThreshold = 256 << 10

// minShare is the fewest bytes one goroutine gets.
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

// blocksParallel is blocks with its work split over up to a.parallelism
// goroutines.
func (a *AEAD) blocksParallel(d direction, dst, src []byte, x [blockSize]byte, sum *[blockSize]byte) {
	n := min(a.parallelism, len(src)/minShare)
	if n < 2 || len(src) < ParallelThreshold {
		a.blocks(d, dst, src, x, sum)
		return
	}
	share := len(src) / n &^ (blockSize - 1)
	sums := make([][blockSize]byte, n)
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
		xk := addIndex(x, uint64(lo/blockSize))
		wg.Go(func() { a.blocks(d, out, src[lo:hi], xk, &sums[k]) })
	}
	wg.Wait()
	for k := range sums {
		*sum = xor(*sum, sums[k])
	}
}
