//go:build !purego

package ocb

import (
	"math/bits"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/words"
)

// The lane kernels (ocb_amd64.s, see _asm/batch.go) seal or open the 16
// messages of ln side by side, each in its own 128-bit lane, each shorter
// than 4096 bytes, blocks the most whole blocks of one; they leave each
// message's tag, less HASH(A), in out.tag. rk are the direction's round
// keys; the Open kernel also takes the encryption keys ek.

//go:noescape
func ocbSealLanesVAES512(nr int, rk *[240]byte, l *[32][16]byte, ends *[2][16]byte, bits *[16]byte, nonceLen int, ln *lanes, out *laneOut, blocks int)

//go:noescape
func ocbOpenLanesVAES512(nr int, rk, ek *[240]byte, l *[32][16]byte, ends *[2][16]byte, bits *[16]byte, nonceLen int, ln *lanes, out *laneOut, blocks int)

// useVAES512Lanes enables the lane kernels.
var useVAES512Lanes = cpu.X86HasVAES512

// lanes is what a lane kernel reads, and laneOut what it writes, one for
// all the groups of a batch; _asm/batch.go has their layout.
type lanes struct {
	src, dst, nonce [16]*byte
	len             [16]uint32
}

type laneOut struct {
	tag  [16][16]byte
	n, r [4][64]byte // the kernel's own
}

const (
	// laneMaxLen bounds the texts that go in lanes: the kernels count
	// whole blocks in bytes.
	laneMaxLen = 255 * blockSize
	// laneClasses is the number of lane groups a batch fills at once, one
	// per bits.Len of a text's blocks (rounded up): the messages of a group
	// differ in length less than twice, so that few lanes idle while the
	// longest finishes.
	laneClasses = 9
)

// A laneGroup is up to 16 messages for one call to a lane kernel.
type laneGroup struct {
	l      lanes
	msgs   [16]*batch.Message
	n      int
	blocks int // the most whole blocks of a text
}

// batchLanes checks msgs, seals or opens them in lane groups (setting OK
// when opening), and reports whether it did: where the lane kernels run,
// for AES.
func (a *AEAD) batchLanes(d direction, msgs []batch.Message) bool {
	if !useVAES512Lanes || a.aes == nil {
		return false
	}
	if spec := a.batchSpec(); d == encrypt {
		spec.CheckSeal(msgs)
	} else {
		spec.CheckOpen(msgs)
	}
	var gs [laneClasses]laneGroup
	var out laneOut
	for i := range msgs {
		m := &msgs[i]
		n := len(m.In)
		if d == decrypt {
			n -= a.tagSize
			if n < 0 {
				m.OK = false
				continue
			}
		}
		if n > laneMaxLen {
			if d == encrypt {
				a.Seal(m.Out[:0], m.Nonce, m.In, m.AD)
			} else {
				_, err := a.Open(m.Out[:0], m.Nonce, m.In, m.AD)
				m.OK = err == nil
			}
			continue
		}
		g := &gs[bits.Len(uint(n+blockSize-1)/blockSize)]
		k := g.n
		g.msgs[k] = m
		g.l.src[k] = unsafe.SliceData(m.In)
		g.l.dst[k] = unsafe.SliceData(m.Out)
		g.l.nonce[k] = &m.Nonce[0]
		g.l.len[k] = uint32(n)
		g.blocks = max(g.blocks, n/blockSize)
		if g.n = k + 1; g.n == len(g.msgs) {
			a.runLanes(d, g, &out)
		}
	}
	for i := range gs {
		if gs[i].n > 0 {
			a.runLanes(d, &gs[i], &out)
		}
	}
	return true
}

// runLanes seals or opens the messages of g (out the kernel's), sets OK for those it opens
// (zeroing those that fail), and empties g.
func (a *AEAD) runLanes(d direction, g *laneGroup, out *laneOut) {
	for k := g.n; k < len(g.msgs); k++ {
		// Lanes without a message take no text, and a nonce that exists.
		g.l.len[k] = 0
		g.l.nonce[k] = g.l.nonce[0]
	}
	nr, ek := a.aes.Rounds(), a.aes.EncKeys()
	if d == encrypt {
		ocbSealLanesVAES512(nr, ek, &a.l, &a.ends, &a.nonceBits, a.nonceSize, &g.l, out, g.blocks)
	} else {
		ocbOpenLanesVAES512(nr, a.aes.DecKeys(), ek, &a.l, &a.ends, &a.nonceBits, a.nonceSize, &g.l, out, g.blocks)
	}
	for k, m := range g.msgs[:g.n] {
		t := words.Load(out.tag[k][:])
		if len(m.AD) > 0 {
			t = t.Xor(a.hash(m.AD))
		}
		if d == encrypt {
			t.Put(m.Out[len(m.In):])
			continue
		}
		m.OK = t.Matches(m.In[len(m.In)-a.tagSize:])
		if !m.OK {
			clear(m.Out)
		}
	}
	g.n, g.blocks = 0, 0
}
