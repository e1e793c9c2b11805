//go:build !purego

package batchutil

import (
	"math"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/cpu"
)

// The check kernels (check_amd64.s, see _asm/check.go) run firstBadSeal's
// and firstBadOpen's tests on msgs[:n&^7], eight messages at a time, and
// stop before the first eight with a bad message: they return how many
// messages passed and those messages' Spans. Measured (BenchmarkCheck, 64
// messages, alternating runs): about half the Go loop's time (76-103 ns
// against 140-186 at best); since the steps without AD skip it, 60-63 ns
// at best without AD, and as before with it.

//go:noescape
func checkSealAVX512(msgs *batch.Message, n, tagSize, nonceSize int) (done, minIn, maxIn, maxAD int)

//go:noescape
func checkOpenAVX512(msgs *batch.Message, n, tagSize, nonceSize int) (done, minIn, maxIn, maxAD int)

var useAVX512 = cpu.X86HasAVX2 && cpu.X86HasAVX512 // the kernels' Requires line

// checkEights returns how many messages from the first the check kernel
// (of CheckOpen, open) passed, a multiple of 8, and their Spans, for the
// Go loop to go on from.
func checkEights(msgs []batch.Message, open bool, tagSize, nonceSize int) (int, Spans) {
	if !useAVX512 || len(msgs) < 8 {
		return 0, Spans{MinIn: math.MaxInt}
	}
	// (Called directly, not through a func value: an indirect call.)
	if open {
		n, lo, hi, ad := checkOpenAVX512(unsafe.SliceData(msgs), len(msgs), tagSize, nonceSize)
		return n, Spans{lo, hi, ad}
	}
	n, lo, hi, ad := checkSealAVX512(unsafe.SliceData(msgs), len(msgs), tagSize, nonceSize)
	return n, Spans{lo, hi, ad}
}
