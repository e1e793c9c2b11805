package batchutil

import (
	"math/bits"

	"github.com/faelabs/fae/batch"
)

// The batch kernels of AEGIS and ROCCA-S run several messages side by side,
// one per 128-bit lane of a register, each with its own nonce, associated
// data, message and tag, block by block in lockstep: the messages of one
// kernel call must have the same shape, or for a kernel whose lanes each
// end at their own block (ragged lanes), that of their associated data.

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
// Msgs[l]+r*N. Grouped for a kernel that takes ragged lanes
// (Lanes.Ragged), the messages share the shape of their associated data
// only: Shape is the shortest text's, and if Ragged, the longest one's
// differs, its text ending in block End (a partial block counted).
type Group struct {
	Shape  Shape
	Msgs   [MaxLanes]int // indexes in the batch
	N      int
	Runs   int
	Ragged bool
	End    int
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

// Lanes groups a checked batch by shape, with blocks of 1<<shift bytes,
// into groups of up to lanes messages, for a lane kernel. Runs of like
// messages (take) go as they come, with MaxRuns > 1 a group of consecutive
// like messages standing for up to MaxRuns of them, for a kernel that runs
// them one after the other without a return. The messages between runs
// are grouped by shape over a window of up to windowMsgs of them (see
// window), however their shapes are ordered: a batch of mixed sizes pairs
// whichever messages share a shape. To open, a message is In less the tag,
// and messages shorter than the tag fail on the way (their Out is empty;
// Failed says so). With Ragged, for a kernel whose lanes' texts may
// differ in length, the window groups messages by the shape of their
// associated data, and those of one such shape in order of text length
// (sortKey), so that a group's lanes end a few blocks apart (at most
// raggedSpan). The groups stay in the Lanes, so that the caller runs them
// without copying them or moving them to the heap.
type Lanes struct {
	msgs                  []batch.Message
	lanes, shift, tagSize int
	open                  bool
	Failed                bool
	MaxRuns               int // the most groups one group may stand for
	Ragged                bool
	next                  int // the next message to place
	w                     window
	run                   Group // the group Next returns
}

// raggedSpan is the most blocks the texts of a ragged group differ by. A
// lane kernel's steps past its shortest lane's whole blocks, with per-lane
// masks, cost two to three plain ones (llvm-mca, Zen 4 and Sapphire
// Rapids): a group whose lanes end further apart runs slower than its
// longer messages would in a group of their own (a group's set-up and
// Finalize cost about 17 plain steps).
const raggedSpan = 8

// The window's bounds: its messages, and the slots of its table of shapes,
// a power of two, twice as many.
const (
	windowMsgs  = 64
	windowSlots = 2 * windowMsgs
)

// A window is messages of the batch from start on chained by shape: the
// messages of a shape in batch order, the shapes in the order of their
// first message, found through a table of shapes hashed by open addressing.
type window struct {
	start      int
	used       [windowSlots]bool
	shapes     [windowSlots]Shape
	head, tail [windowSlots]int8 // the slot's first and last message, from start
	link       [windowMsgs]int8  // a message's next of its shape, -1 at the end
	lens       [windowMsgs]int   // with Ragged, a message's text length; else 0
	order      [windowMsgs]uint8 // the slots in the order of their first message
	n, at      int               // shapes in order, and the next to hand out
}

// Init starts q on msgs.
func (q *Lanes) Init(msgs []batch.Message, lanes, shift, tagSize int, open bool) {
	q.msgs, q.lanes, q.shift, q.tagSize, q.open = msgs, lanes, shift, tagSize, open
}

// Next returns the next group to run, or nil when all have run.
func (q *Lanes) Next() *Group {
	for {
		if g := q.w.group(q.lanes, q.shift, q.Ragged, &q.run); g != nil {
			return g
		}
		if q.next == len(q.msgs) {
			return nil
		}
		if g := q.take(); g != nil {
			return g
		}
		q.fill()
	}
}

// fill makes the window of the messages from q.next up to the first long
// run of like ones (windowEnd), which it leaves for take, or up to
// windowMsgs: at least one message.
func (q *Lanes) fill() {
	w := &q.w
	clear(w.used[:])
	w.start, w.n, w.at = q.next, 0, 0
	end := q.windowEnd()
	var (
		// With Ragged: the window's messages and their sort keys, and how
		// many have each key.
		order   [windowMsgs]int8
		keys    [windowMsgs]uint8
		count   [sortKeys]uint8
		present [sortKeys / 64]uint64 // the keys in use
		k       int
		ad      Shape // the first message's shape of associated data
		oneAD   = true
	)
	for i := q.next; i < end; i++ {
		m := &q.msgs[i]
		n := len(m.In)
		if q.open {
			if n < q.tagSize {
				m.OK, q.Failed = false, true
				continue
			}
			n -= q.tagSize
		}
		x := i - w.start
		if !q.Ragged {
			w.add(x, q.shape(len(m.AD), n))
			continue
		}
		w.lens[x] = n
		if sh := q.shape(len(m.AD), 0); k == 0 {
			ad = sh
		} else if sh != ad {
			oneAD = false
		}
		key := q.sortKey(n)
		order[k], keys[k] = int8(x), key
		count[key]++
		present[key/64] |= 1 << (key % 64)
		k++
	}
	if q.Ragged {
		// A counting sort, stable and without a comparison sort's branches
		// on random lengths.
		sum := uint8(0) // in a register, not a chain through memory
		for i, p := range present {
			for ; p != 0; p &= p - 1 {
				key := 64*i + bits.TrailingZeros64(p)
				count[key], sum = sum, sum+count[key]
			}
		}
		var sorted [windowMsgs]int8
		for i, key := range keys[:k] {
			sorted[count[key]] = order[i]
			count[key]++
		}
		if !oneAD {
			for _, x := range sorted[:k] {
				w.add(int(x), q.shape(len(q.msgs[w.start+int(x)].AD), 0))
			}
		} else if k > 0 {
			// The common case, one shape of associated data, chained
			// without add's table and its chain of loads through tail.
			w.used[0], w.shapes[0], w.head[0], w.order[0], w.n = true, ad, sorted[0], 0, 1
			for i, x := range sorted[:k-1] {
				w.link[x] = sorted[i+1]
			}
			w.link[sorted[k-1]] = -1
		}
	}
	q.next = end
}

// sortKeys is the number of keys a ragged window sorts its texts by.
const sortKeys = 256

// sortKey is a text of n bytes' key in a ragged window: its whole blocks,
// then whether it has a partial one, the longest texts (from 127 blocks)
// together.
func (q *Lanes) sortKey(n int) uint8 {
	key := n >> q.shift << 1
	if n&(1<<q.shift-1) != 0 {
		key++
	}
	return uint8(min(key, sortKeys-1))
}

// windowEnd returns the end of the window from q.next: the start of the
// first run of runGroups*q.lanes messages of equal lengths after q.next,
// which take groups, or windowMsgs on. Shorter runs stay in the window,
// which groups them as well: cut at every run of q.lanes, a shuffled batch
// of a few lengths (the IPI's) fell into windows of a few messages, whose
// leftovers of each length ran in part-filled groups or alone.
func (q *Lanes) windowEnd() int {
	end := min(len(q.msgs), q.next+windowMsgs)
	run := runGroups * q.lanes
	same := 0 // messages before i of i's lengths
	for i := q.next + 1; i < end; i++ {
		m, p := &q.msgs[i], &q.msgs[i-1]
		if len(m.In) != len(p.In) || len(m.AD) != len(p.AD) {
			same = 0
		} else if same++; same == run-1 && i+1-run > q.next {
			return i + 1 - run
		}
	}
	return end
}

// runGroups is how many groups' worth of like messages in a row end a
// window, for take.
const runGroups = 4

// add chains message x of the window (its position from start) to the
// messages of shape sh.
func (w *window) add(x int, sh Shape) {
	h := uint64(sh.ADBlocks)<<33 ^ uint64(sh.Blocks)<<2
	if sh.ADPart {
		h |= 2
	}
	if sh.Part {
		h |= 1
	}
	s := int(h*0x9e3779b97f4a7c15>>57) & (windowSlots - 1)
	for w.used[s] && w.shapes[s] != sh {
		s = (s + 1) & (windowSlots - 1)
	}
	w.link[x] = -1
	if !w.used[s] {
		w.used[s], w.shapes[s], w.head[s] = true, sh, int8(x)
		w.order[w.n] = uint8(s)
		w.n++
	} else {
		w.link[w.tail[s]] = int8(x)
	}
	w.tail[s] = int8(x)
}

// group returns the next group of the window, of up to lanes messages of
// one shape, in g, or nil when the window has handed out all its messages.
// A ragged window's groups' texts differ by at most raggedSpan blocks of
// 1<<shift bytes; their Shape takes its text's part from the shortest, and
// Ragged and End from the longest.
func (w *window) group(lanes, shift int, ragged bool, g *Group) *Group {
	for w.at < w.n {
		s := w.order[w.at]
		x := w.head[s]
		if x < 0 {
			w.at++
			continue
		}
		g.Shape, g.N, g.Runs, g.Ragged = w.shapes[s], 0, 1, false
		lo, hi := w.lens[x], w.lens[x]
		for ; x >= 0 && g.N < lanes; x = w.link[x] {
			n := w.lens[x]
			if max(hi, n)-min(lo, n) > raggedSpan<<shift {
				break
			}
			lo, hi = min(lo, n), max(hi, n)
			g.Msgs[g.N] = w.start + int(x)
			g.N++
		}
		w.head[s] = x
		if ragged {
			mask := 1<<shift - 1
			g.Shape.Blocks, g.Shape.Part = lo>>shift, lo&mask != 0
			g.End = (hi + mask) >> shift
			g.Ragged = hi>>shift != g.Shape.Blocks || hi&mask != 0 != g.Shape.Part
		}
		return g
	}
	return nil
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
	q.run.Shape, q.run.N, q.run.Runs, q.run.Ragged = sh, q.lanes, (end-i)/q.lanes, false
	q.next += q.lanes * q.run.Runs
	return &q.run
}

// shape is the Shape of a message with adLen bytes of associated data and
// n of text.
func (q *Lanes) shape(adLen, n int) Shape {
	mask := 1<<q.shift - 1
	return Shape{adLen >> q.shift, n >> q.shift, adLen&mask != 0, n&mask != 0}
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
