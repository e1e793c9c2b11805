package gcm

import (
	"github.com/faelabs/fae/internal/par"
	"github.com/faelabs/fae/internal/words"
)

// ParallelThreshold is the smallest message (or associated data) that
// WithParallelism splits: below it, starting goroutines costs more than it
// saves.
const ParallelThreshold = par.Threshold

// WithParallelism returns a copy of a that spreads Seal and Open of a message
// (and the hashing of associated data) of ParallelThreshold bytes or more
// over n goroutines. Counter blocks follow from a block's index, and GHASH is
// a polynomial in H: each range of blocks is hashed on its own from zero and
// the results are combined by Horner's rule, each multiplied by H to the
// power of the blocks that follow it, so the output is identical to the
// serial result. The goroutines are started per call and have all ended when
// Seal or Open returns. n < 1 counts as 1; a itself is returned when it
// already has n.
func (a *AEAD) WithParallelism(n int) *AEAD {
	if max(n, 1) == a.parallelism {
		return a
	}
	b := *a
	b.serial = a.serialAEAD()
	b.parallelism = max(n, 1)
	return &b
}

// serialAEAD returns a with parallelism 1, for batches, which run on the
// caller's goroutine: a itself when a constructor made it, otherwise the
// AEAD that WithParallelism made it from.
func (a *AEAD) serialAEAD() *AEAD {
	if a.serial != nil {
		return a.serial
	}
	return a
}

// runParallel is runSerial spread over up to a.parallelism goroutines
// (internal/par), in ranges of one kernel call. Each range's GHASH starts
// from zero; y then absorbs them in order, y = y·H^len(range) ^ GHASH(range).
func (a *AEAD) runParallel(o op, dst, src []byte, j counter, c uint32, y *words.Block) {
	n := par.Goroutines(a.parallelism, len(src))
	if n < 2 {
		a.runSerial(o, dst, src, j, c, y)
		return
	}
	// The goroutines use a copy: a itself may live on its caller's stack
	// (XAES-256-GCM's per-message AEAD) and must not escape to the heap.
	g := *a
	const size = maxKernelBlocks * blockSize
	claims := par.NewClaims(len(src), size)
	sums := make([]words.Block, (len(src)+size-1)/size)
	par.Run(n, func(*struct{}) {
		for lo, hi, ok := claims.Next(); ok; lo, hi, ok = claims.Next() {
			var out []byte
			if o != hashOp {
				out = dst[lo:hi]
			}
			var s words.Block // on this goroutine's stack: neighbours in sums share cache lines
			g.runSerial(o, out, src[lo:hi], j, c+uint32(lo/blockSize), &s)
			sums[lo/size] = s
		}
	})
	hFull := power(a.h.block(), maxKernelBlocks)
	hLast := power(a.h.block(), uint64(len(src)-(len(sums)-1)*size)/blockSize)
	for i, s := range sums {
		hp := hFull
		if i == len(sums)-1 {
			hp = hLast
		}
		*y = mulBlocks(*y, hp).Xor(s)
	}
}
