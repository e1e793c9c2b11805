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

// Flags returns 1 for each of the associated data and the text of shape s
// that ends in a partial block, else 0: a lane kernel's flags of them.
func (s Shape) Flags() (ad, text uint64) {
	if s.ADPart {
		ad = 1
	}
	if s.Part {
		text = 1
	}
	return ad, text
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
	Msgs   [MaxLanes]int // Msgs[:N]: the messages' indexes in the batch
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
// (sortKey), so that a group's lanes end a few blocks apart (see
// raggedSteps). The groups stay in the Lanes, so that the caller runs them
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

// raggedSteps is the most steps a ragged group's kernel runs past its
// shortest text's whole blocks to its longest text's end (End less
// Shape.Blocks): its texts end at most about 8 blocks apart. These steps,
// with per-lane masks, cost two to three plain ones (llvm-mca, Zen 4 and
// Sapphire Rapids): a group whose lanes end further apart runs slower than
// its longer messages would in a group of their own (a group's set-up and
// Finalize cost about 17 plain steps).
const raggedSteps = 9

// windowMsgs is the most messages a window holds: one bit each of a word.
const windowMsgs = 64

// A window is messages of the batch from start on, in the order they are
// grouped in: by the shape of their associated data, then by text length
// (sortKey), the messages of a key in batch order but those of the last
// key in order of length. Each group is the longest stretch of this order
// from at that a lane kernel takes (group).
type window struct {
	start int
	order [windowMsgs]uint8 // the messages, from start
	keys  [windowMsgs]uint8 // their texts' sort keys
	ads   [windowMsgs]uint8 // their shapes of associated data, as indexes in adKeys
	// The shapes of associated data (adKey) of the window; with just one,
	// ads is not set.
	adKeys [windowMsgs]int
	oneAD  bool
	n, at  int // messages in order, and the next to hand out
	// heads has bit p set where the p-th message of the order starts a
	// new sort key or shape of associated data.
	heads uint64
}

// keySets are fill's sets of the messages of each sort key and of those
// that fail (key failed), bit x for message start+x: on fill's stack, not
// the Lanes', which would zero them in every batch, of like messages too
// (which take groups without a window).
type keySets [sortKeys + 1]uint64

// Init starts q on msgs.
func (q *Lanes) Init(msgs []batch.Message, lanes, shift, tagSize int, open bool) {
	q.msgs, q.lanes, q.shift, q.tagSize, q.open = msgs, lanes, shift, tagSize, open
}

// Next returns the next group to run, or nil when all have run.
func (q *Lanes) Next() *Group {
	for {
		if q.w.at < q.w.n {
			return q.group()
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
// of like messages that take groups (runAt), or up to windowMsgs: at least
// one message. One pass over the messages sets each message's bit in the
// set of its sort key (a bucket sort, without a comparison sort's branches
// on random lengths or a counting sort's chains of increments through
// memory); the sets, read in order of key, give the order.
func (q *Lanes) fill() {
	w := &q.w
	start := q.next
	msgs := q.msgs[start:min(len(q.msgs), start+windowMsgs)]
	ad0 := len(msgs[0].AD)
	var sets keySets
	used, diff := sets.bucket(q.sub(), uint(q.shift), msgs, ad0)
	if n := q.runAt(msgs, &sets, used); n < len(msgs) {
		// The window ends where the run starts: the sets lose the
		// messages from there on (those failed stay failed, as the next
		// window would fail them).
		msgs = msgs[:n]
		for u := used; u != 0; u &= u - 1 {
			for i := range 4 {
				sets[4*bits.TrailingZeros64(u)+i] &= 1<<n - 1
			}
		}
		if diff != 0 {
			diff = 0
			for k := range msgs {
				diff |= len(msgs[k].AD) ^ ad0
			}
		}
	}
	q.Failed = q.Failed || sets[failed] != 0
	long := bits.OnesCount64(sets[sortKeys-1])
	k := w.sort(&sets, used)
	w.start, w.n, w.at = start, k, 0
	if long > 1 {
		q.sortLong(w.order[k-long : k])
	}
	w.oneAD, w.adKeys[0] = diff == 0, q.adKey(ad0)
	if diff != 0 {
		q.byAD()
	}
	q.next = start + len(msgs)
}

// runAt returns where the first run of runGroups*q.lanes messages of equal
// lengths starts in the window msgs after a message of other lengths, or
// len(msgs): the window ends there, for take. Shorter runs stay in the
// window, which groups them as well: cut at every run of q.lanes, a
// shuffled batch of a few lengths (the IPI's) fell into windows of a few
// messages, whose leftovers of each length ran in part-filled groups or
// alone. Messages of equal lengths have one sort key or all fail, so that
// a run starts where a set of bucket's has run bits in a row: runAt checks
// the messages only there (a pass over the window cost a ninth of the
// grouping of a shuffled IPI batch).
func (q *Lanes) runAt(msgs []batch.Message, sets *keySets, used uint64) int {
	run := runGroups * q.lanes
	// The bits from which run bits of a set are all set, in the few sets
	// with run bits at all.
	runs := func(set uint64) uint64 {
		if bits.OnesCount64(set) < run {
			return 0
		}
		for n := 1; n < run; {
			k := min(n, run-n)
			set &= set >> k
			n += k
		}
		return set
	}
	from := runs(sets[failed])
	for ; used != 0; used &= used - 1 {
		for _, set := range sets[4*bits.TrailingZeros64(used):][:4] {
			from |= runs(set)
		}
	}
	for from &^= 1; from != 0; from &= from - 1 {
		x := bits.TrailingZeros64(from)
		in, ad := len(msgs[x].In), len(msgs[x].AD)
		if len(msgs[x-1].In) == in && len(msgs[x-1].AD) == ad {
			continue // within a run from before x
		}
		k := x + 1
		for ; k < x+run && len(msgs[k].In) == in && len(msgs[k].AD) == ad; k++ {
		}
		if k == x+run {
			return x
		}
	}
	return len(msgs)
}

// bucket sets the bit of each message of msgs, the window's, in the set of
// its sort key, with texts In less sub bytes and blocks of 1<<shift bytes,
// and returns the keys in use, a bit for four, and the bits in which the
// lengths of associated data differ from ad0; it fails the messages shorter
// than sub, their bits in the set of key failed. A function of its own, as
// sort: their loops keep their values in registers, which fill's spilled
// and reloaded for every message (shift comes in the variable shifts'
// count register).
func (sets *keySets) bucket(sub int, shift uint, msgs []batch.Message, ad0 int) (used uint64, diff int) {
	shift &= 63
	// (bit, not 1<<x: the variable shifts take one count, shift.)
	for x, bit := 0, uint64(1); x < len(msgs); x, bit = x+1, bit<<1 {
		m := &msgs[x]
		n := len(m.In) - sub
		if n < 0 {
			m.OK = false
			sets[failed] |= bit
			continue
		}
		key := sortKey(n, shift)
		sets[key] |= bit
		used |= 1 << (key / 4)
		diff |= len(m.AD) ^ ad0
	}
	return used, diff
}

// sort puts the messages of the sets of the keys in used (bucket's) in
// order, and their keys, and returns how many there are.
func (w *window) sort(sets *keySets, used uint64) int {
	k := 0
	var heads uint64
	for ; used != 0; used &= used - 1 {
		for i, set := range sets[4*bits.TrailingZeros64(used):][:4] {
			heads |= 1 << (k & (windowMsgs - 1))
			for ; set != 0; set &= set - 1 {
				w.order[k&(windowMsgs-1)] = uint8(bits.TrailingZeros64(set))
				w.keys[k&(windowMsgs-1)] = uint8(4*bits.TrailingZeros64(used) + i)
				k++
			}
		}
	}
	w.heads = heads
	return k
}

// sub is the bytes of a message's In past its text: the tag, opening.
func (q *Lanes) sub() int {
	if q.open {
		return q.tagSize
	}
	return 0
}

// sortLong sorts order, window messages of the last sort key, by text
// length, stably: an insertion sort, as a window of them is rare and its
// texts long.
func (q *Lanes) sortLong(order []uint8) {
	var lens [windowMsgs]int
	for i, x := range order {
		lens[i] = len(q.msgs[q.w.start+int(x)].In)
	}
	for i := 1; i < len(order); i++ {
		x, n := order[i], lens[i]
		j := i
		for ; j > 0 && lens[j-1] > n; j-- {
			order[j], lens[j] = order[j-1], lens[j-1]
		}
		order[j], lens[j] = x, n
	}
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
	order, keys := w.order, w.keys
	k := 0
	w.heads = 0
	for s, set := range sets[:shapes] {
		for ; set != 0; set &= set - 1 {
			x := bits.TrailingZeros64(set)
			w.order[k], w.keys[k], w.ads[k] = order[x], keys[x], uint8(s)
			if k == 0 || w.keys[k] != w.keys[k-1] || w.ads[k] != w.ads[k-1] {
				w.heads |= 1 << k
			}
			k++
		}
	}
}

// sortKeys is the number of keys a window sorts its texts by.
const sortKeys = 256

// failed is fill's key of the messages to open shorter than a tag.
const failed = sortKeys

// sortKey is a text of n bytes' key in a window, with blocks of 1<<shift
// bytes: its whole blocks, then whether it has a partial one (the whole
// blocks plus those of n-1 bytes, plus one: the blocks rounded up), the
// longest texts (from 127 blocks) together.
func sortKey(n int, shift uint) uint {
	return min(uint(n>>shift+(n-1)>>shift+1), sortKeys-1)
}

// adKey is the shape of adLen bytes of associated data as one number, as
// sortKey's but without a bound.
func (q *Lanes) adKey(adLen int) int {
	return adLen>>q.shift + (adLen-1)>>q.shift + 1
}

// runGroups is how many groups' worth of like messages in a row end a
// window, for take.
const runGroups = 4

// group returns the window's next group, in q.run: up to q.lanes messages
// of one shape of associated data, and for a ragged kernel texts that end
// at most raggedSteps steps past the shortest one's whole blocks, else of
// one shape of text. A ragged group's Shape takes its text's part from the
// shortest, and Ragged and End from the longest. The sort keys tell them
// all but for texts of the last key, whose lengths group looks up.
func (q *Lanes) group() *Group {
	w, g := &q.w, &q.run
	p := w.at
	s := 0
	if !w.oneAD {
		s = int(w.ads[p])
	}
	k0 := uint(w.keys[p])
	if k0 == sortKeys-1 {
		return q.groupLong(s)
	}
	// The messages of p's key and shape (up to the next head), at most
	// q.lanes of them, without a branch per message; then for a ragged
	// kernel those of the next keys (of the same shape of associated
	// data) that end close enough.
	end := min(w.n, p+q.lanes)
	same := min(end, p+1+bits.TrailingZeros64(w.heads>>(p+1)))
	o, x := &w.order, w.start
	g.Msgs = [MaxLanes]int{x + int(o[p&(windowMsgs-1)]), x + int(o[(p+1)&(windowMsgs-1)]),
		x + int(o[(p+2)&(windowMsgs-1)]), x + int(o[(p+3)&(windowMsgs-1)])}
	hi := k0
	p = same
	for ; q.Ragged && p < end; p++ {
		k := uint(w.keys[p])
		if !w.oneAD && int(w.ads[p]) != s || q.blocksUp(p, k)-int(k0>>1) > raggedSteps {
			break
		}
		hi = k
	}
	a := w.adKeys[s]
	g.Shape = Shape{a >> 1, int(k0 >> 1), a&1 != 0, k0&1 != 0}
	g.N, g.Runs, g.Ragged, g.End = p-w.at, 1, hi != k0, q.blocksUp(p-1, hi)
	w.at = p
	return g
}

// blocksUp returns the blocks of the text of the p-th message of the
// window's order, of sort key k, rounded up.
func (q *Lanes) blocksUp(p int, k uint) int {
	if k < sortKeys-1 {
		return int(k+1) >> 1
	}
	return (q.text(p) + 1<<q.shift - 1) >> q.shift
}

// text returns the length of the text of the p-th message of the window's
// order.
func (q *Lanes) text(p int) int {
	return len(q.msgs[q.w.start+int(q.w.order[p])].In) - q.sub()
}

// groupLong is group for a group from a text of the last sort key, whose
// texts are in order of length.
func (q *Lanes) groupLong(s int) *Group {
	w, g := &q.w, &q.run
	shift, mask := q.shift, 1<<q.shift-1
	p := w.at
	lo, hi := q.text(p), 0
	for end := min(w.n, p+q.lanes); p < end; p++ {
		n := q.text(p)
		if !w.oneAD && int(w.ads[p]) != s || q.Ragged && (n+mask)>>shift-lo>>shift > raggedSteps ||
			!q.Ragged && (n>>shift != lo>>shift || n&mask != 0 != (lo&mask != 0)) {
			break
		}
		g.Msgs[p-w.at] = w.start + int(w.order[p])
		hi = n
	}
	a := w.adKeys[s]
	g.Shape = Shape{a >> 1, lo >> shift, a&1 != 0, lo&mask != 0}
	g.N, g.Runs, g.End = p-w.at, 1, (hi+mask)>>shift
	g.Ragged = hi>>shift != g.Shape.Blocks || hi&mask != 0 != g.Shape.Part
	w.at = p
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
