// Package batchutil is what the AEAD packages' SealBatch and OpenBatch share
// (package batch): the check of a whole batch before any output is written,
// with the panics Seal and Open would raise, and the loop over single
// messages that serves wherever no kernel takes many messages at once.
package batchutil

import (
	"crypto/cipher"
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
}

// CheckSeal panics, naming the first bad message, unless every message of
// msgs is one SealBatch can seal: a nonce of s.NonceSize, an Out of exactly
// len(In)+s.TagSize bytes that overlaps In only exactly and AD not at all,
// and lengths that s.Fits.
func (s *Spec) CheckSeal(msgs []batch.Message) {
	for i := range msgs {
		m := &msgs[i]
		if len(m.Out) != len(m.In)+s.TagSize {
			s.fail(i, "output is "+strconv.Itoa(len(m.Out))+" bytes, want "+strconv.Itoa(len(m.In)+s.TagSize))
		}
		s.check(i, m)
		if s.Fits != nil && !s.Fits(len(m.In), len(m.AD)) {
			s.fail(i, "message or additional data too large")
		}
	}
}

// CheckOpen is CheckSeal for OpenBatch: the Out of each message is
// len(In)-s.TagSize bytes long, or empty when In is shorter than the tag.
func (s *Spec) CheckOpen(msgs []batch.Message) {
	for i := range msgs {
		m := &msgs[i]
		if n := max(len(m.In)-s.TagSize, 0); len(m.Out) != n {
			s.fail(i, "output is "+strconv.Itoa(len(m.Out))+" bytes, want "+strconv.Itoa(n))
		}
		s.check(i, m)
	}
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

// Lanes is what a lane kernel reads (ocb's and raocb's, which run up to 16
// messages side by side, one per 128-bit lane): each message's input,
// output and nonce, and the length of its text. The kernels' generators
// have this layout.
type Lanes struct {
	Src, Dst, Nonce [16]*byte
	Len             [16]uint32
}

// A LaneGroup is up to 16 messages for one call to a lane kernel.
type LaneGroup struct {
	Lanes
	Msgs   [16]*batch.Message
	N      int
	Blocks int // the most whole blocks of a text
}

// LaneGroups sorts the messages of a batch into lane groups, one per
// bits.Len of a text's blocks (rounded up): the messages of a group differ
// in length less than twice, so that few lanes idle while the longest
// finishes. The caller owns it (on its stack: kernels take its groups).
type LaneGroups struct {
	gs   [9]LaneGroup
	next int
}

// Place adds m to its group where its text (In, or In less tagSize bytes
// when opening) is at most maxLen < 4096 bytes long (the kernels count
// whole blocks in bytes), and returns the group if that is now full, for
// the caller to run before the next Place; single reports a longer message,
// left to the caller. A message to open shorter than a tag fails (its OK
// false) and goes nowhere.
func (l *LaneGroups) Place(m *batch.Message, open bool, tagSize, maxLen int) (full *LaneGroup, single bool) {
	n := len(m.In)
	if open {
		n -= tagSize
		if n < 0 {
			m.OK = false
			return nil, false
		}
	}
	if n > maxLen {
		return nil, true
	}
	g := &l.gs[bits.Len(uint(n+15)/16)]
	if g.N == len(g.Msgs) {
		g.N, g.Blocks = 0, 0
	}
	k := g.N
	g.Msgs[k] = m
	g.Src[k] = unsafe.SliceData(m.In)
	g.Dst[k] = unsafe.SliceData(m.Out)
	g.Nonce[k] = &m.Nonce[0]
	g.Len[k] = uint32(n)
	g.Blocks = max(g.Blocks, n/16)
	if g.N = k + 1; g.N == len(g.Msgs) {
		return g, false
	}
	return nil, false
}

// Rest returns, once the batch's messages are added, the next group that
// holds messages not yet run, or nil: lanes past its N have no text and
// the nonce of lane 0.
func (l *LaneGroups) Rest() *LaneGroup {
	for ; l.next < len(l.gs); l.next++ {
		g := &l.gs[l.next]
		if g.N == 0 || g.N == len(g.Msgs) {
			continue
		}
		for k := g.N; k < len(g.Msgs); k++ {
			g.Len[k] = 0
			g.Nonce[k] = g.Nonce[0]
		}
		l.next++
		return g
	}
	return nil
}

// Finish completes the messages of g from the tags a lane kernel left,
// without HASH(A), which hash gives for non-empty associated data: it
// writes each tag (sealing), or compares it in constant time, sets OK and
// zeroes the output of each message that fails (opening).
func (g *LaneGroup) Finish(tags *[16][16]byte, open bool, tagSize int, hash func(ad []byte) words.Block) {
	for k, m := range g.Msgs[:g.N] {
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
