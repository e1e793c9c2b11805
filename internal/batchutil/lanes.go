package batchutil

import (
	"crypto/cipher"

	"github.com/faelabs/fae/batch"
)

// The batch kernels of AEGIS and ROCCA-S run several messages side by side,
// one per 128-bit lane of a register, each with its own nonce, associated
// data, message and tag, block by block in lockstep: the messages of one
// kernel call must have the same shape.

// A Shape is what the messages of one lane kernel call share: whole blocks
// of associated data and of message, and whether each ends in a partial
// block.
type Shape struct {
	ADBlocks, Blocks int
	ADPart, Part     bool
}

// MaxLanes is the most messages a lane kernel runs at once.
const MaxLanes = 4

// A Group is up to MaxLanes messages of one shape.
type Group struct {
	Shape Shape
	Msgs  [MaxLanes]int // indexes in the batch
	N     int
}

// maxGroups bounds the shapes that wait at once: a batch of one size uses
// one group, a mix of sizes several.
const maxGroups = 8

// RunLanes seals (or opens) msgs, which have been checked, with a: it
// groups them by shape, with blocks of 1<<shift bytes, and runs each group
// of up to lanes messages when it fills, when a new shape finds every group
// taken (the first then runs), and at the end. A group of two or more goes
// to run, which reports whether its messages all authenticated and sets
// their OK; a lone message takes a.Seal (a.Open). To open, the message is
// In less the tag, and messages shorter than the tag fail on the way (their
// Out is empty). It reports whether every message authenticated.
func RunLanes(a cipher.AEAD, msgs []batch.Message, lanes, shift int, open bool, run func(g Group) bool) (allOK bool) {
	tagSize := a.Overhead()
	run1 := func(g Group) bool {
		if g.N > 1 {
			return run(g)
		}
		m := &msgs[g.Msgs[0]]
		if !open {
			a.Seal(m.Out[:0], m.Nonce, m.In, m.AD)
			return true
		}
		_, err := a.Open(m.Out[:0], m.Nonce, m.In, m.AD)
		m.OK = err == nil
		return m.OK
	}
	var gs [maxGroups]Group
	ng := 0
	mask := 1<<shift - 1
	allOK = true
	for i := range msgs {
		m := &msgs[i]
		n := len(m.In)
		if open {
			if n < tagSize {
				m.OK, allOK = false, false
				continue
			}
			n -= tagSize
		}
		sh := Shape{len(m.AD) >> shift, n >> shift, len(m.AD)&mask != 0, n&mask != 0}
		g := 0
		for g < ng && gs[g].Shape != sh {
			g++
		}
		if g == ng {
			if ng == maxGroups {
				allOK = run1(gs[0]) && allOK
				g = 0
			} else {
				ng++
			}
			gs[g] = Group{Shape: sh}
		}
		gs[g].Msgs[gs[g].N] = i
		if gs[g].N++; gs[g].N == lanes {
			allOK = run1(gs[g]) && allOK
			ng--
			gs[g] = gs[ng]
		}
	}
	for _, g := range gs[:ng] {
		allOK = run1(g) && allOK
	}
	return allOK
}

// First returns &b[0], or nil for an empty b: a lane kernel's pointer to a
// buffer it does not read.
func First(b []byte) *byte {
	if len(b) == 0 {
		return nil
	}
	return &b[0]
}

// LaneMasks returns the byte masks of the first n < 32 bytes of lane l's
// block in its 16-byte halves, at bits 16l to 16l+15 of each: the form lane
// kernels load partial blocks through.
func LaneMasks(l, n int) (m0, m1 uint64) {
	return (1<<min(n, 16) - 1) << (16 * l), (1<<max(n-16, 0) - 1) << (16 * l)
}
