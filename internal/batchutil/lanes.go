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
// fill), however their shapes are ordered: a batch of mixed sizes pairs
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

// windowMsgs is the most messages a window holds: one bit each of a word.
const windowMsgs = 64

// A window is messages of the batch from start on, in the order they are
// grouped in: by the shape of their associated data, then by text length
// (sortKey), the messages of a key in batch order. Each group is the
// longest stretch of this order from at that a lane kernel takes (group).
type window struct {
	start int
	order [windowMsgs]uint8 // the messages, from start
	lens  [windowMsgs]int   // their text lengths
	ads   [windowMsgs]uint8 // their shapes of associated data, as indexes in adKeys
	// The shapes of associated data (adKey) of the window; with just one,
	// ads is not set.
	adKeys [windowMsgs]int
	oneAD  bool
	n, at  int // messages in order, and the next to hand out
	// byKey holds, during fill, the set of the messages of each sort key,
	// bit x for message start+x; zero between fills.
	byKey [sortKeys]uint64
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

// fill orders the window of the messages from q.next up to the first run
// of runGroups*q.lanes messages of equal lengths after q.next, which it
// leaves for take, or up to windowMsgs: at least one message. Shorter runs
// stay in the window, which groups them as well: cut at every run of
// q.lanes, a shuffled batch of a few lengths (the IPI's) fell into windows
// of a few messages, whose leftovers of each length ran in part-filled
// groups or alone. One pass over the messages finds the runs and sets
// each message's bit in the set of its sort key (a bucket sort, without a
// comparison sort's branches on random lengths or a counting sort's
// chains of increments through memory); the sets, read in order of key,
// give the order.
func (q *Lanes) fill() {
	w := &q.w
	start, end := q.next, min(len(q.msgs), q.next+windowMsgs)
	sub := 0
	if q.open {
		sub = q.tagSize
	}
	var lens [windowMsgs]int
	shift, mask := uint(q.shift)&63, 1<<q.shift-1
	run := runGroups * q.lanes
	same, prevIn, prevAD := 0, -1, -1 // like messages before x, and x-1's lengths
	lo, hi := sortKeys, 0             // the range of keys in use
	ad0, oneAD := -1, true            // the first message's shape of associated data
	msgs := q.msgs[start:end]
	for x := range msgs {
		m := &msgs[x]
		in, ad := len(m.In), len(m.AD)
		if in != prevIn || ad != prevAD {
			same, prevIn, prevAD = 0, in, ad
		} else if same++; same == run-1 && x+1 > run && in >= sub {
			// The run from end on is take's: its messages before x out.
			end = start + x + 1 - run
			w.byKey[sortKey(in-sub, shift, mask)] &^= (1<<(run-1) - 1) << (x + 1 - run)
			break
		}
		n := in - sub
		if n < 0 {
			m.OK, q.Failed = false, true
			continue
		}
		key := sortKey(n, shift, mask)
		lens[x] = n
		w.byKey[key] |= 1 << x
		lo, hi = min(lo, key), max(hi, key)
		if a := ad>>shift + (ad+mask)>>shift; a != ad0 { // adKey
			if ad0 >= 0 {
				oneAD = false
			}
			ad0 = a
		}
	}
	long := bits.OnesCount64(w.byKey[sortKeys-1])
	k := 0
	for key := lo; key <= hi; key++ {
		set := w.byKey[key]
		w.byKey[key] = 0
		for ; set != 0; set &= set - 1 {
			x := bits.TrailingZeros64(set)
			w.order[k], w.lens[k] = uint8(x), lens[x]
			k++
		}
	}
	if long > 1 {
		// The texts that share the last key, in order of length: a
		// window of them is rare, and its texts long.
		sortLens(w.order[k-long:k], w.lens[k-long:k])
	}
	w.start, w.n, w.at, w.oneAD, w.adKeys[0] = start, k, 0, oneAD, ad0
	if !oneAD {
		q.byAD()
	}
	q.next = end
}

// byAD orders the window by the shape of associated data, stably: the
// shapes in the order of their first message in it. It sets ads and
// adKeys.
func (q *Lanes) byAD() {
	w := &q.w
	var sets [windowMsgs]uint64 // each shape's messages, by place in order
	shapes := 0
	for k, x := range w.order[:w.n] {
		a := q.adKey(len(q.msgs[w.start+int(x)].AD))
		s := 0
		for s < shapes && w.adKeys[s] != a {
			s++
		}
		if s == shapes {
			w.adKeys[s] = a
			shapes++
		}
		sets[s] |= 1 << k
	}
	order, lens := w.order, w.lens
	k := 0
	for s, set := range sets[:shapes] {
		for ; set != 0; set &= set - 1 {
			x := bits.TrailingZeros64(set)
			w.order[k], w.lens[k], w.ads[k] = order[x], lens[x], uint8(s)
			k++
		}
	}
}

// sortLens sorts lens and order with it by length, stably: an insertion
// sort.
func sortLens(order []uint8, lens []int) {
	for i := 1; i < len(lens); i++ {
		x, n := order[i], lens[i]
		j := i
		for ; j > 0 && lens[j-1] > n; j-- {
			order[j], lens[j] = order[j-1], lens[j-1]
		}
		order[j], lens[j] = x, n
	}
}

// sortKeys is the number of keys a window sorts its texts by.
const sortKeys = 256

// sortKey is a text of n bytes' key in a window, with blocks of 1<<shift
// (mask+1) bytes: its whole blocks, then whether it has a partial one (the
// whole blocks plus the blocks rounded up, without a branch), the longest
// texts (from 127 blocks) together.
func sortKey(n int, shift uint, mask int) int {
	return min(n>>shift+(n+mask)>>shift, sortKeys-1)
}

// adKey is the shape of adLen bytes of associated data as one number, as
// sortKey's but without a bound.
func (q *Lanes) adKey(adLen int) int {
	return adLen>>q.shift + (adLen+1<<q.shift-1)>>q.shift
}

// runGroups is how many groups' worth of like messages in a row end a
// window, for take.
const runGroups = 4

// group returns the next group of the window in g, or nil when the window
// has handed out all its messages: up to lanes messages of one shape of
// associated data, and for a ragged kernel texts at most raggedSpan blocks
// of 1<<shift bytes apart, else of one shape of text. A ragged group's
// Shape takes its text's part from the shortest, and Ragged and End from
// the longest.
func (w *window) group(lanes, shift int, ragged bool, g *Group) *Group {
	p := w.at
	if p == w.n {
		return nil
	}
	mask := 1<<shift - 1
	s := 0
	if !w.oneAD {
		s = int(w.ads[p])
	}
	lo, hi := w.lens[p], w.lens[p]
	end := min(w.n, p+lanes)
	for ; p < end; p++ {
		n := w.lens[p]
		if !w.oneAD && int(w.ads[p]) != s {
			break
		}
		if ragged {
			if max(hi, n)-min(lo, n) > raggedSpan<<shift {
				break
			}
			lo, hi = min(lo, n), max(hi, n)
		} else if n>>shift != lo>>shift || n&mask != 0 != (lo&mask != 0) {
			break
		}
		g.Msgs[p-w.at] = w.start + int(w.order[p])
	}
	a := w.adKeys[s]
	g.N, g.Runs, g.Ragged = p-w.at, 1, false
	g.Shape = Shape{a >> 1, lo >> shift, a&1 != 0, lo&mask != 0}
	w.at = p
	if ragged {
		g.End = (hi + mask) >> shift
		g.Ragged = hi>>shift != g.Shape.Blocks || hi&mask != 0 != g.Shape.Part
	}
	return g
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
