//go:build !purego

package rocca

import (
	"encoding/binary"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
)

// lanesVAES512 (rocca_amd64.s, see _asm/lanes.go) seals (op 0) or opens
// (op 1, the tags left to the Go side) four messages of one shape at once,
// one per 128-bit lane of zmm registers.
//
//go:noescape
func lanesVAES512(op int, j *laneJob)

var useVAES512Batch = cpu.X86HasVAES512

func init() { impl.Register("rocca", "vaes512-batch", &useVAES512Batch) }

const numLanes = batchutil.MaxLanes

// laneJob holds the batch kernel's operands; the assembly reads the fields
// at fixed offsets (TestLaneJobLayout checks them). Lane l's blocks are
// contiguous from ad[l], src[l] and dst[l], each partial last block after
// the whole ones; pointers nothing reads may be nil.
type laneJob struct {
	key   *[KeySize]byte
	nonce [numLanes]*byte
	ad    [numLanes]*byte
	src   [numLanes]*byte
	dst   [numLanes]*byte
	tags  [numLanes]*byte // where each lane's tag goes
	adN   int             // whole blocks of associated data, every lane
	n     int             // whole blocks of message, every lane
	// The byte masks of the partial last blocks of associated data and
	// message, their halves' bits 16l to 16l+15 for lane l's bytes; zero
	// when the lanes have none.
	kAD   [2]uint64
	kLast [2]uint64
	// The finalization's inputs: the bit lengths of each lane's associated
	// data and message, as 128-bit little-endian numbers.
	adBits [numLanes][16]byte
	mBits  [numLanes][16]byte
}

func (a *AEAD) sealBatch(msgs []batch.Message) {
	s := a.batchSpec()
	if !useVAES512Batch || len(msgs) < 2 {
		batchutil.Seal(a, s, msgs)
		return
	}
	s.CheckSeal(msgs)
	a.runLanes(msgs, false)
}

func (a *AEAD) openBatch(msgs []batch.Message) bool {
	s := a.batchSpec()
	if !useVAES512Batch || len(msgs) < 2 {
		return batchutil.Open(a, s, msgs)
	}
	s.CheckOpen(msgs)
	return a.runLanes(msgs, true)
}

// runLanes seals or opens msgs, which have been checked, four of one shape
// per kernel call.
func (a *AEAD) runLanes(msgs []batch.Message, open bool) bool {
	return batchutil.RunLanes(a, msgs, numLanes, 5, open, func(g batchutil.Group) bool {
		return a.runGroup(msgs, &g, open)
	})
}

// runGroup seals or opens the messages of g and reports whether they all
// authenticated; g has two messages or more. Lanes beyond g's messages
// repeat its last one: they read the same input and write the same output,
// byte for byte, in the same steps.
func (a *AEAD) runGroup(msgs []batch.Message, g *batchutil.Group, open bool) (ok bool) {
	var (
		j                    laneJob
		tags                 [numLanes][TagSize]byte
		kAD0, kAD1, kL0, kL1 uint64
	)
	j.key, j.adN, j.n = &a.key, g.Shape.ADBlocks, g.Shape.Blocks
	for l := range numLanes {
		m := &msgs[g.Msgs[min(l, g.N-1)]]
		text := m.In
		if open {
			text = m.In[:len(m.In)-TagSize]
			j.tags[l] = &tags[l][0]
		} else {
			j.tags[l] = &m.Out[len(text)]
		}
		j.nonce[l], j.ad[l], j.src[l], j.dst[l] = &m.Nonce[0], batchutil.First(m.AD), batchutil.First(text), batchutil.First(m.Out)
		putBits(j.adBits[l][:], len(m.AD))
		putBits(j.mBits[l][:], len(text))
		if g.Shape.ADPart {
			m0, m1 := batchutil.LaneMasks(l, len(m.AD)&(blockSize-1))
			kAD0, kAD1 = kAD0|m0, kAD1|m1
		}
		if g.Shape.Part {
			m0, m1 := batchutil.LaneMasks(l, len(text)&(blockSize-1))
			kL0, kL1 = kL0|m0, kL1|m1
		}
	}
	j.kAD[0], j.kAD[1], j.kLast[0], j.kLast[1] = kAD0, kAD1, kL0, kL1
	op := 0
	if open {
		op = 1
	}
	lanesVAES512(op, &j)
	if !open {
		return true
	}
	ok = true
	for l := range g.N {
		m := &msgs[g.Msgs[l]]
		m.OK = tagsEqual(&tags[l], m.In[len(m.In)-TagSize:])
		if !m.OK {
			clear(m.Out)
			ok = false
		}
	}
	return ok
}

// putBits writes the bit length of n bytes to b as a 128-bit little-endian
// number.
func putBits(b []byte, n int) {
	binary.LittleEndian.PutUint64(b, uint64(n)<<3)
	binary.LittleEndian.PutUint64(b[8:], uint64(n)>>61)
}
