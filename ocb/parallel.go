package ocb

import (
	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/par"
	"github.com/faelabs/fae/internal/words"
)

// ParallelThreshold is the smallest message (or associated data) that
// WithParallelism splits: below it, starting goroutines costs more than it
// saves.
const ParallelThreshold = par.Threshold

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
	b.serial = a.serialAEAD()
	if a.aes == &a.block {
		b.aes = &b.block
	}
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

// blocksParallel is blocks from the start of a message or of the AD, with
// its work spread over up to a.parallelism goroutines (internal/par). Each
// goroutine sums on its own stack and stores its sum once: sums side by
// side in one cache line, updated after every claim, would bounce the line
// between the cores.
func (a *AEAD) blocksParallel(d direction, dst, src []byte, off, sum *words.Block) {
	n := par.Goroutines(a.parallelism, len(src))
	if n < 2 {
		a.blocks(d, dst, src, off, sum, 0)
		return
	}
	claims := par.NewClaims(len(src), maxKernelBlocks*blockSize)
	off0 := *off
	sums := par.Run(n, func(sum *words.Block) {
		var s words.Block
		for lo, hi, ok := claims.Next(); ok; lo, hi, ok = claims.Next() {
			var out []byte
			if d != hash {
				out = dst[lo:hi]
			}
			first := uint64(lo / blockSize)
			o := ocbmode.OffsetAt(&a.l, off0, first)
			a.blocks(d, out, src[lo:hi], &o, &s, first)
		}
		*sum = s
	})
	for _, s := range sums {
		*sum = sum.Xor(s)
	}
	*off = ocbmode.OffsetAt(&a.l, off0, uint64(len(src)/blockSize))
}
