// Package batchutil is what the AEAD packages' SealBatch and OpenBatch share
// (package batch): the check of a whole batch before any output is written,
// with the panics Seal and Open would raise, and the loop over single
// messages that serves wherever no kernel takes many messages at once.
package batchutil

import (
	"crypto/cipher"
	"math"
	"math/bits"
	"strconv"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/words"
)

// A Spec is what the checks need to know of an AEAD.
type Spec struct {
	Pkg       string // the package, which names the panics: "ocb"
	NonceSize int
	TagSize   int
	// Fits, when not nil, reports whether Seal takes a plaintext and
	// associated data of these lengths; Seal panics on others. Open fails
	// on them instead, which the loop leaves to it.
	Fits func(textLen, adLen int) bool
	// MaxText and MaxAD, when not zero, are the most bytes of plaintext
	// and of associated data Seal takes: the same checks as a Fits, without
	// a call per message. With a Fits, they are instead the lengths up to
	// which Fits takes every plaintext and associated data, and CheckSeal
	// asks Fits only of batches with a longer one.
	MaxText, MaxAD uint64
}

// Spans are the shortest and the longest In of a batch and its longest AD,
// which CheckSeal and CheckOpen find in their pass over the messages, for
// RunLanes.
type Spans struct{ MinIn, MaxIn, MaxAD int }

// CheckSeal panics, naming the first bad message, unless every message of
// msgs is one SealBatch can seal: a nonce of s.NonceSize, an Out of exactly
// len(In)+s.TagSize bytes that overlaps In only exactly and AD not at all,
// and lengths that s.Fits, s.MaxText and s.MaxAD allow. It returns msgs'
// Spans.
func (s *Spec) CheckSeal(msgs []batch.Message) Spans {
	// The bounds only some packages have in a second loop, which MaxText
	// and MaxAD need only where the longest text or AD passes them; the
	// first bad message either finds is the batch's first.
	bad, sp := firstBadSeal(msgs, s.TagSize, s.NonceSize)
	fits, maxText, maxAD := s.Fits, s.MaxText, s.MaxAD
	past := maxText > 0 && uint64(sp.MaxIn) > maxText || maxAD > 0 && uint64(sp.MaxAD) > maxAD
	if past || fits != nil && maxText == 0 && maxAD == 0 {
		for i := range msgs[:bad] {
			m := &msgs[i]
			if fits != nil && !fits(len(m.In), len(m.AD)) ||
				fits == nil && (maxText > 0 && uint64(len(m.In)) > maxText || maxAD > 0 && uint64(len(m.AD)) > maxAD) {
				bad = i
				break
			}
		}
	}
	if bad < len(msgs) {
		s.failSeal(bad, &msgs[bad])
	}
	return sp
}

// firstBadSeal returns the index of the first message of msgs whose Out or
// nonce length or placement CheckSeal rejects, or len(msgs), and the Spans
// of the messages before it: a check kernel's (checkEights) where there is
// one, then sealFrom's.
func firstBadSeal(msgs []batch.Message, tagSize, nonceSize int) (int, Spans) {
	i, sp := checkEights(msgs, false, tagSize, nonceSize)
	return sealFrom(msgs, i, sp, tagSize, nonceSize)
}

// sealFrom is firstBadSeal in Go, from msgs[i] on, with sp the Spans of
// the messages before it: a function of its own, whose loop keeps its few
// values in registers (measured: a fifth to a quarter less time than
// inside CheckSeal, whose panics' code spilled them), each message's
// lengths in one test (misplaced needs an Out that is not empty, as one of
// len(In)+tagSize bytes is: tagSize > 0).
func sealFrom(msgs []batch.Message, i int, sp Spans, tagSize, nonceSize int) (int, Spans) {
	for ; i < len(msgs); i++ {
		m := &msgs[i]
		if (len(m.Out)-len(m.In)-tagSize)|(len(m.Nonce)-nonceSize) != 0 || misplaced(m) {
			return i, sp
		}
		sp = sp.add(m)
	}
	return len(msgs), sp
}

// add returns sp with m's lengths.
func (sp Spans) add(m *batch.Message) Spans {
	return Spans{min(sp.MinIn, len(m.In)), max(sp.MaxIn, len(m.In)), max(sp.MaxAD, len(m.AD))}
}

// CheckOpen is CheckSeal for OpenBatch: the Out of each message is
// len(In)-s.TagSize bytes long, or empty when In is shorter than the tag.
func (s *Spec) CheckOpen(msgs []batch.Message) Spans {
	bad, sp := firstBadOpen(msgs, s.TagSize, s.NonceSize)
	if bad < len(msgs) {
		s.failOpen(bad, &msgs[bad])
	}
	return sp
}

// firstBadOpen is firstBadSeal for CheckOpen.
func firstBadOpen(msgs []batch.Message, tagSize, nonceSize int) (int, Spans) {
	i, sp := checkEights(msgs, true, tagSize, nonceSize)
	return openFrom(msgs, i, sp, tagSize, nonceSize)
}

// openFrom is sealFrom for firstBadOpen.
func openFrom(msgs []batch.Message, i int, sp Spans, tagSize, nonceSize int) (int, Spans) {
	for ; i < len(msgs); i++ {
		m := &msgs[i]
		if (len(m.Out)-max(len(m.In)-tagSize, 0))|(len(m.Nonce)-nonceSize) != 0 || len(m.Out) != 0 && misplaced(m) {
			return i, sp
		}
		sp = sp.add(m)
	}
	return len(msgs), sp
}

// misplaced reports whether m's Out, not empty, overlaps its In other than
// exactly (alias.InexactOverlap) or overlaps its AD (alias.AnyOverlap), in
// one expression the checks' loops inline: non-empty ranges [a, a+la) and
// [b, b+lb) of memory meet where a-b+la-1 < la+lb-1, unsigned (a-b between
// -la and lb, exclusive), one comparison a pair (lo is len(Out)-1).
func misplaced(m *batch.Message) bool {
	o, lo := uintptr(unsafe.Pointer(unsafe.SliceData(m.Out))), uintptr(len(m.Out))-1
	p, lp := uintptr(unsafe.Pointer(unsafe.SliceData(m.In)))-o, uintptr(len(m.In))
	q, lq := uintptr(unsafe.Pointer(unsafe.SliceData(m.AD)))-o, uintptr(len(m.AD))
	return lp != 0 && p != 0 && p+lp-1 < lp+lo || lq != 0 && q+lq-1 < lq+lo
}

// failSeal and failOpen panic with what is wrong with m, the i-th message,
// which CheckSeal or CheckOpen found bad.
func (s *Spec) failSeal(i int, m *batch.Message) {
	if want := len(m.In) + s.TagSize; len(m.Out) != want {
		s.fail(i, "output is "+strconv.Itoa(len(m.Out))+" bytes, want "+strconv.Itoa(want))
	}
	s.check(i, m)
	s.fail(i, "message or additional data too large")
}

func (s *Spec) failOpen(i int, m *batch.Message) {
	if want := max(len(m.In)-s.TagSize, 0); len(m.Out) != want {
		s.fail(i, "output is "+strconv.Itoa(len(m.Out))+" bytes, want "+strconv.Itoa(want))
	}
	s.check(i, m)
}

func (s *Spec) check(i int, m *batch.Message) {
	switch {
	case len(m.Nonce) != s.NonceSize:
		s.fail(i, "incorrect nonce length "+strconv.Itoa(len(m.Nonce))+", want "+strconv.Itoa(s.NonceSize))
	case alias.InexactOverlap(m.Out, m.In):
		s.fail(i, "invalid buffer overlap of output and input")
	case alias.AnyOverlap(m.Out, m.AD):
		s.fail(i, "invalid buffer overlap of output and additional data")
	}
}

func (s *Spec) fail(i int, what string) {
	panic(s.Pkg + ": batch message " + strconv.Itoa(i) + ": " + what)
}

// Seal checks msgs (CheckSeal) and seals each message with a.Seal, which
// must run on the caller's goroutine: the SealBatch of an AEAD without a
// kernel for batches.
func Seal(a cipher.AEAD, s Spec, msgs []batch.Message) {
	s.CheckSeal(msgs)
	for i := range msgs {
		m := &msgs[i]
		a.Seal(m.Out[:0], m.Nonce, m.In, m.AD)
	}
}

// Open checks msgs (CheckOpen) and opens each message with a.Open, which
// must run on the caller's goroutine, and sets its OK: the OpenBatch of an
// AEAD without a kernel for batches. It zeroes the Out of each message that
// fails, which Open leaves unwritten where it fails before it starts (a
// message too short or too long).
func Open(a cipher.AEAD, s Spec, msgs []batch.Message) (allOK bool) {
	s.CheckOpen(msgs)
	allOK = true
	for i := range msgs {
		m := &msgs[i]
		_, err := a.Open(m.Out[:0], m.Nonce, m.In, m.AD)
		m.OK = err == nil
		if !m.OK {
			clear(m.Out)
			allOK = false
		}
	}
	return allOK
}

// A LaneGroup is up to 16 messages of a batch for one call to a lane kernel
// (ocb's and raocb's, which run them side by side, one per 128-bit lane),
// by their index in the batch (Idx[:N]; past N, indexes left from earlier
// groups, of the same batch, or 0): add stores no pointers (each of which
// would cost a write barrier's check); the kernel reads the messages
// (batch.Message, whose layout its generator takes as given) by these
// indexes when the group runs. Where Runs > 0 the group is 16 messages in
// a row, Idx[0] on, and stands for Runs such groups one after the other,
// for a kernel that takes them by place; add's groups have Runs 0.
type LaneGroup struct {
	Idx  [16]int
	N    int
	Runs int
}

// LaneGroups sorts the messages of a batch into lane groups, one per
// bits.Len of a text's blocks (rounded up): the messages of a group differ
// in length less than twice, so that few lanes idle while the longest
// finishes. Its owner keeps it on its stack (kernels take its groups).
type LaneGroups struct {
	gs    [10]LaneGroup
	taken LaneGroup // Take's
	next  int
}

// Take returns msgs[i:i+16] as one lane group, where add would put them
// all in the same group (the common case of a batch of like messages, in
// one pass), their associated data at most maxAD bytes long; otherwise nil,
// for the caller to place them one by one.
func (l *LaneGroups) Take(msgs []batch.Message, i int, open bool, tagSize, maxLen, maxAD int) *LaneGroup {
	g := &l.taken
	n := len(g.Idx)
	if len(msgs)-i < n {
		return nil
	}
	sub := 0
	if open {
		sub = tagSize
	}
	// The texts of the first message's group are lo to hi bytes long.
	lo, hi := 0, 0
	if n := len(msgs[i].In) - sub; n > 0 {
		c := bits.Len(uint(n+15) / 16)
		lo, hi = 16<<(c-1)-15, 16<<c-16
	}
	if hi = min(hi, maxLen); hi < lo {
		return nil
	}
	ms := msgs[i : i+n]
	for k := range ms {
		if uint(len(ms[k].In)-sub-lo) > uint(hi-lo) || len(ms[k].AD) > maxAD {
			return nil
		}
	}
	g.from(i, n)
	return g
}

// from makes g the n messages from i on, one run of them when n is 16.
func (g *LaneGroup) from(i, n int) {
	for k := range g.Idx[:n] {
		g.Idx[k] = i + k
	}
	g.N, g.Runs = n, n/len(g.Idx)
}

// A Plan is how RunLanes takes a checked batch: each message alone, its
// like messages 16 at a time, or its mixed ones in add's groups.
type Plan struct {
	open                        bool
	tagSize, maxLen, maxAD, sub int
	class                       int // like: add's class of all the texts
	way                         int
}

// The ways of a Plan.
const (
	alone = iota
	like
	mixed
)

// NewPlan returns the Plan for msgs, with sp their Spans (CheckSeal's,
// CheckOpen's), sealed or opened (open) with tags of tagSize bytes, in lane
// kernels that take texts of up to maxLen bytes with associated data up to
// maxAD.
func NewPlan(msgs []batch.Message, sp Spans, open bool, tagSize, maxLen, maxAD int) Plan {
	p := Plan{open: open, tagSize: tagSize, maxLen: maxLen, maxAD: maxAD, way: mixed}
	if open {
		p.sub = tagSize // the bytes of In past the text
	}
	// Where every text is past the lanes, or all in one group's range
	// (add's) with their AD in bounds, the messages go without a look at
	// each, nor LaneGroups to clear: each alone, or 16 at a time and the
	// rest in one group. The checks' pass over the lengths tells.
	lo, hi := sp.MinIn-p.sub, sp.MaxIn-p.sub
	switch p.class = bits.Len(uint(hi+15) / 16); {
	case lo > maxLen:
		p.way = alone
	case lo >= 0 && hi <= maxLen && sp.MaxAD <= maxAD && bits.Len(uint(lo+15)/16) == p.class && closeEnough(lo, hi):
		p.way = like
	case !anyPays(msgs, p.sub, maxLen, maxAD):
		p.way = alone
	}
	return p
}

// Alone reports whether p sends every message alone: its owner then seals
// or opens each by its own code (RunLanes's one, which must fail a text to
// open shorter than a tag), not by RunLanes, from a frame without the lane
// kernels' outputs (measured, raocb, when its kernels' output took 2.4 KiB
// of the caller's stack: a random batch's single messages opened below it
// took 2-4% longer).
func (p *Plan) Alone() bool { return p.way == alone }

// RunLanes seals (or opens, setting OK) the messages of msgs, checked, as
// p plans, in lane groups (LaneGroups): run takes each group as it fills
// and the part-filled ones at the end, by value (a pointer to a group would
// move the groups to the heap); one takes each message that goes alone
// (RunLanes leaves it single), msgs[i], and seals (or opens, setting OK) it,
// by the AEAD's own code below Seal and Open, whose checks CheckSeal and
// CheckOpen have done. A group run takes may stand for up to maxRuns groups
// of 16 (LaneGroup.Runs). Where p is Alone its owner takes every message
// itself; here such a plan places them all, each going alone.
func RunLanes(msgs []batch.Message, p *Plan, maxRuns int, run func(LaneGroup), one func(i int)) {
	if p.way == like {
		var g LaneGroup
		for i := 0; i < len(msgs); i += len(g.Idx) * max(g.Runs, 1) {
			if g.from(i, min(len(msgs)-i, len(g.Idx))); g.Runs == 0 {
				runOrOne(&g, p.class, run, one) // the rest, part-filled
				continue
			}
			g.Runs = min(maxRuns, (len(msgs)-i)/len(g.Idx))
			run(g) // full groups pay (lanesPay)
		}
		return
	}
	var l LaneGroups
	open, tagSize, maxLen, maxAD := p.open, p.tagSize, p.maxLen, p.maxAD
	for i := 0; i < len(msgs); {
		if g := l.Take(msgs, i, open, tagSize, maxLen, maxAD); g != nil {
			runFull(msgs, g, p.sub, run, one)
			i += len(g.Idx)
			continue
		}
		// Each message to its class's group (add), alone, or failed.
		for end := min(i+len(l.taken.Idx), len(msgs)); i < end; i++ {
			m := &msgs[i]
			switch n := len(m.In) - p.sub; {
			case n < 0:
				m.OK = false
			case n > maxLen || len(m.AD) > maxAD:
				one(i)
			default:
				if g := l.add(i, n); g != nil {
					runFull(msgs, g, p.sub, run, one)
				}
			}
		}
	}
	for g := l.Rest(); g != nil; g = l.Rest() {
		runOrOne(g, l.next-1, run, one)
	}
}

// anyPays reports whether some length class of msgs (add's, of texts In
// less sub bytes up to maxLen, associated data up to maxAD) holds messages
// enough for a group that runs in lanes: 16, in the classes past closeFrom
// with texts closeEnough (each 16 in the order add groups them), or as
// many as lanesPay takes in a part-filled one. Where none does (uniformly
// random lengths up to 1500 bytes: a third of them spread over six classes
// up to 512 bytes, and ocb's class of 512 to 1008 bytes, a third, too far
// apart), RunLanes sends every message alone without placing it (measured,
// ocb, 64 such messages, in-process alternating rounds under load: placing
// them, for no group in lanes, cost the batch 6% over single calls).
func anyPays(msgs []batch.Message, sub, maxLen, maxAD int) bool {
	const full = len(LaneGroup{}.Idx)
	var counts, los, his [len(LaneGroups{}.gs)]int // los, his: the texts of the group in the making
	for k := range msgs {
		m := &msgs[k]
		n := len(m.In) - sub
		if n < 0 || n > maxLen || len(m.AD) > maxAD {
			continue
		}
		c := bits.Len(uint(n+15) / 16)
		counts[c]++
		if n <= closeFrom {
			if lanesPay(c, counts[c]) {
				return true
			}
			continue
		}
		if counts[c]%full == 1 {
			los[c], his[c] = n, n
		}
		los[c], his[c] = min(los[c], n), max(his[c], n)
		if counts[c]%full == 0 && closeEnough(los[c], his[c]) {
			return true
		}
	}
	return false
}

// runFull runs g, a full group of one length class (texts In less sub
// bytes), in a lane kernel (run) or, where its texts are too far apart
// (closeEnough), each of its messages alone (one).
func runFull(msgs []batch.Message, g *LaneGroup, sub int, run func(LaneGroup), one func(i int)) {
	if len(msgs[g.Idx[0]].In)-sub > closeFrom { // the class's texts all are
		lo, hi := math.MaxInt, 0
		for _, i := range g.Idx[:g.N] {
			lo, hi = min(lo, len(msgs[i].In)), max(hi, len(msgs[i].In))
		}
		if !closeEnough(lo-sub, hi-sub) {
			for _, i := range g.Idx[:g.N] {
				one(i)
			}
			return
		}
	}
	run(*g)
}

// closeEnough reports whether texts of lo to hi bytes, of one length class,
// pay in a full lane group: past the shortest text the lanes step a block
// at a time, with masks, which in the classes from 6 on (over closeFrom
// bytes) costs more than single calls once the longest text is 1.6 times
// the shortest (measured, ocb, 16 lanes from 520 bytes, single calls' time
// over the lanes': 1.5 at one length, 1.14-1.19 at 1.2 to 1.6 times, 0.9 at
// 1.8; from 260 bytes still 1.3 at 1.8 times).
func closeEnough(lo, hi int) bool {
	return lo <= closeFrom || 5*hi <= 8*lo
}

// closeFrom is the longest text of add's class 5.
const closeFrom = 496

// runOrOne runs g, of add's length class c, in a lane kernel (run) or,
// where lanesPay says that costs more, each of its messages alone (one).
func runOrOne(g *LaneGroup, c int, run func(LaneGroup), one func(i int)) {
	if lanesPay(c, g.N) {
		run(*g)
		return
	}
	for _, i := range g.Idx[:g.N] {
		one(i)
	}
}

// lanesPay reports whether n messages of add's length class c (bits.Len
// of their blocks, the last one partial or whole; empty texts count as
// class 1) go faster in a lane kernel than each alone. The lanes past n
// repeat lane 0's blocks, so that a part-filled group costs about what a
// full one does, against single calls that cost what their lengths do; and
// the lanes run two blocks at a time only up to the shortest text's end,
// the rest of a class's ragged lengths a block at a time with masks.
// Measured by ocb's and raocb's BenchmarkSealLanes and BenchmarkOpenLanes
// (texts drawn uniformly from the class's lengths; under load, medians of
// 5), single calls' time over the lanes': at the n where lanesPay starts,
// class 1 (n = 4) 1.0-2.8, class 2 (6) 0.95-2.0, class 3 (8) 0.9-2.8,
// class 4 (12) 0.84-1.6; below it 0.3-1.2 but for raocb's class 1 (1.5-1.6
// at n = 2, whose single calls are slow); in classes 5 to 7, 0.8-1.6 at
// n = 14 (raocb 0.7-1.0 up to 14), and 0.6-2.1 full.
func lanesPay(c, n int) bool {
	switch {
	case n >= 16:
		return true
	case c <= 3:
		return n >= 2*max(c, 1)+2
	case c == 4:
		return n >= 12
	}
	return false
}

// add adds message i, of a text of n bytes (0 to 4095), to the group of
// its length class and returns the group if that is now full, else nil
// (RunLanes's loop places the messages inline: measured, ocb, a shuffled IPI
// batch, a call per message with the bounds took 6% of its time).
func (l *LaneGroups) add(i, n int) *LaneGroup {
	g := &l.gs[bits.Len(uint(n+15)/16)]
	k := uint(g.N) % uint(len(g.Idx)) // 0 when g is new or ran full
	g.Idx[k], g.N = i, int(k)+1
	if g.N == len(g.Idx) {
		return g
	}
	return nil
}

// Rest returns, once the batch's messages are added, the next group that
// holds messages not yet run, or nil.
func (l *LaneGroups) Rest() *LaneGroup {
	for ; l.next < len(l.gs); l.next++ {
		if g := &l.gs[l.next]; g.N != 0 && g.N != len(g.Idx) {
			l.next++
			return g
		}
	}
	return nil
}

// Finish completes g's messages of msgs from the tags a lane kernel left,
// without HASH(A), which hash gives for non-empty associated data: it
// writes each tag (sealing), or compares it in constant time, sets OK and
// zeroes the output of each message that fails (opening). The lanes in done
// the kernel finished (16-byte tags, no associated data): opening, it set
// their messages' OK and, in fail, the lanes whose tags differ, whose
// outputs Finish zeroes.
func (g *LaneGroup) Finish(msgs []batch.Message, tags *[16][16]byte, done, fail uint32, open bool, tagSize int, hash func(ad []byte) words.Block) {
	// The lanes done are sealed or opened in full, but for the outputs of
	// those that failed.
	for lanes := (uint32(1)<<g.N-1)&^done | fail; lanes != 0; lanes &= lanes - 1 {
		k := bits.TrailingZeros32(lanes)
		m := &msgs[g.Idx[k]]
		if done>>k&1 != 0 {
			clear(m.Out)
			continue
		}
		t := words.Load(tags[k][:])
		if len(m.AD) > 0 {
			t = t.Xor(hash(m.AD))
		}
		if !open {
			t.Put(m.Out[len(m.In):])
			continue
		}
		m.OK = t.Matches(m.In[len(m.In)-tagSize:])
		if !m.OK {
			clear(m.Out)
		}
	}
}

// LaneKernels are an AEAD's lane kernels for LaneGroup.Run, which seal or
// open (open) a group of messages with tags of TagSize bytes, and where
// they leave the tags, less HASH(A) (Hash), and their lanes done and fail
// (Finish's).
type LaneKernels struct {
	Open    bool
	TagSize int
	// Lanes runs the group by its Idx; Run, for Runs groups of 16 in a row
	// from msgs[i] on, returns the groups it ran, having stopped after one
	// it leaves to Finish. Both finish the tags of the lanes of mark.
	Lanes      func(mark uint32)
	Run        func(i, runs int, mark uint32) int
	Tags       *[16][16]byte
	Done, Fail *uint32
	Hash       func(ad []byte) words.Block
}

// Run seals or opens g's messages of msgs in k's kernels and finishes them
// (Finish): the kernels finish the tags of all its lanes where they are 16
// bytes long.
func (g *LaneGroup) Run(msgs []batch.Message, k *LaneKernels) {
	var mark uint32
	if k.TagSize == 16 {
		mark = 1<<g.N - 1
	}
	if g.Runs == 0 {
		k.Lanes(mark)
		g.Finish(msgs, k.Tags, *k.Done, *k.Fail, k.Open, k.TagSize, k.Hash)
		return
	}
	// Each call runs groups up to the last or one it leaves to Finish,
	// which has nothing to do for the others, nor for that one where the
	// kernel finished all its lanes and none failed (no group to make).
	for i, runs := g.Idx[0], g.Runs; runs > 0; {
		n := k.Run(i, runs, mark)
		i, runs = i+len(g.Idx)*n, runs-n
		if *k.Done == 1<<len(g.Idx)-1 && *k.Fail == 0 {
			continue
		}
		var last LaneGroup
		last.from(i-len(g.Idx), len(g.Idx))
		last.Finish(msgs, k.Tags, *k.Done, *k.Fail, k.Open, k.TagSize, k.Hash)
	}
}
