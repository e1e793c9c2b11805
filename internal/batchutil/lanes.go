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

// A Group is up to MaxLanes messages of one shape, and where Runs > 1 the
// Runs-1 full groups of messages that follow them in the batch, each of
// the lengths of the first message: the r-th's lane l is message
// Msgs[l]+r*N.
type Group struct {
	Shape Shape
	Msgs  [MaxLanes]int // indexes in the batch
	N     int
	Runs  int
}

// Idx returns the indexes of g's messages for a kernel of lanes lanes, the
// lanes past them repeating its last: they read the same input and write
// the same output, byte for byte, in the same steps.
func (g *Group) Idx(lanes int) [MaxLanes]int {
	idx := g.Msgs
	for l := g.N; l < lanes; l++ {
		idx[l] = g.Msgs[g.N-1]
	}
	return idx
}

// ClearFailed zeroes the Out of each message of g and its runs whose OK a
// kernel cleared, and reports whether none was.
func (g *Group) ClearFailed(msgs []batch.Message) (allOK bool) {
	allOK = true
	for r := range g.Runs {
		for l := range g.N {
			if m := &msgs[g.Msgs[l]+r*g.N]; !m.OK {
				clear(m.Out)
				allOK = false
			}
		}
	}
	return allOK
}

// maxGroups bounds the shapes that wait at once: a batch of one size uses
// one group, a mix of sizes several.
const maxGroups = 8

// Lanes groups a checked batch by shape, with blocks of 1<<shift bytes,
// into groups of up to lanes messages, for a lane kernel: Next returns each
// group to run when it fills, when a new shape finds every group taken (the
// first then runs), and at the end; with MaxRuns > 1, a group of
// consecutive like messages stands for up to MaxRuns of them, for a kernel
// that runs them one after the other without a return. To open, a message is In less the tag,
// and messages shorter than the tag fail on the way (their Out is empty;
// Failed says so). The groups stay in the Lanes, so that the caller runs
// them without copying them or moving them to the heap.
type Lanes struct {
	msgs                  []batch.Message
	lanes, shift, tagSize int
	open                  bool
	Failed                bool
	MaxRuns               int // the most groups one group may stand for
	gs                    [maxGroups]Group
	ng                    int
	next                  int   // the next message to place
	ran                   int   // the group Next returned last, freed by the next call; -1 if none
	run                   Group // take's
}

// Init starts q on msgs.
func (q *Lanes) Init(msgs []batch.Message, lanes, shift, tagSize int, open bool) {
	q.msgs, q.lanes, q.shift, q.tagSize, q.open = msgs, lanes, shift, tagSize, open
	q.ran = -1
}

// Next returns the next group to run, or nil when all have run.
func (q *Lanes) Next() *Group {
	if q.ran >= 0 {
		q.ng--
		q.gs[q.ran] = q.gs[q.ng]
		q.ran = -1
	}
	if g := q.take(); g != nil {
		return g
	}
	for ; q.next < len(q.msgs); q.next++ {
		m := &q.msgs[q.next]
		n := len(m.In)
		if q.open {
			if n < q.tagSize {
				m.OK, q.Failed = false, true
				continue
			}
			n -= q.tagSize
		}
		sh := q.shape(len(m.AD), n)
		g := 0
		for g < q.ng && q.gs[g].Shape != sh {
			g++
		}
		if g == q.ng {
			if q.ng == maxGroups {
				// The message waits for the first group to run.
				q.ran = 0
				return &q.gs[0]
			}
			q.ng++
			q.gs[g] = Group{Shape: sh, Runs: 1}
		}
		gr := &q.gs[g]
		gr.Msgs[gr.N] = q.next
		if gr.N++; gr.N == q.lanes {
			q.next++
			q.ran = g
			return gr
		}
	}
	if q.ng == 0 {
		return nil
	}
	q.ran = q.ng - 1
	return &q.gs[q.ran]
}

// take returns the next q.lanes messages as one group where they have one
// shape, the common case of a batch of like messages, in one pass and
// without the waiting groups; otherwise nil, for Next to place them one by
// one.
func (q *Lanes) take() *Group {
	i := q.next
	if len(q.msgs)-i < q.lanes {
		return nil
	}
	ms := q.msgs[i : i+q.lanes]
	sub := 0
	if q.open {
		sub = q.tagSize
	}
	ad, in := len(ms[0].AD), len(ms[0].In)
	sh := q.shape(ad, in-sub)
	like := in >= sub
	for k := range ms {
		// Equal lengths, the common case, have equal shapes; a message to
		// open shorter than a tag is Next's to fail.
		m := &ms[k]
		if len(m.AD) != ad || len(m.In) != in || in < sub {
			if n := len(m.In) - sub; n < 0 || q.shape(len(m.AD), n) != sh {
				return nil
			}
			like = false
		}
		q.run.Msgs[k] = i + k
	}
	// The run of messages of the first one's lengths, in whole groups.
	end := i + q.lanes
	if like {
		for lim := i + q.lanes*min(q.MaxRuns, (len(q.msgs)-i)/q.lanes); end < lim; end++ {
			if m := &q.msgs[end]; len(m.AD) != ad || len(m.In) != in {
				break
			}
		}
	}
	q.run.Shape, q.run.N, q.run.Runs = sh, q.lanes, (end-i)/q.lanes
	q.next += q.lanes * q.run.Runs
	return &q.run
}

// shape is the Shape of a message with adLen bytes of associated data and
// n of text.
func (q *Lanes) shape(adLen, n int) Shape {
	mask := 1<<q.shift - 1
	return Shape{adLen >> q.shift, n >> q.shift, adLen&mask != 0, n&mask != 0}
}

// RunOne seals (or opens) message i of msgs alone with a, and reports
// whether it authenticated: a group of one.
func RunOne(a cipher.AEAD, msgs []batch.Message, i int, open bool) bool {
	m := &msgs[i]
	if !open {
		a.Seal(m.Out[:0], m.Nonce, m.In, m.AD)
		return true
	}
	_, err := a.Open(m.Out[:0], m.Nonce, m.In, m.AD)
	m.OK = err == nil
	return m.OK
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
