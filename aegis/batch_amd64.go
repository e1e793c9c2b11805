//go:build !purego

package aegis

import (
	"math/bits"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/impl"
)

// The batch kernels (aegis_amd64.s, see _asm/lanes.go) seal (opSeal) or
// open (opOpen, the tags left to the Go side) four AEGIS-128L or AEGIS-256
// messages of one shape at once, one per 128-bit lane of zmm registers.

//go:noescape
func aegis128Lanes(op int, j *laneJob)

//go:noescape
func aegis256Lanes(op int, j *laneJob)

// useLanes enables the batch kernels, which need the AVX-512 kernels'
// features.
var useLanes = useVAES512

func init() { impl.Register("aegis", "vaes512-batch", &useLanes) }

const numLanes = batchutil.MaxLanes

// laneJob holds a batch kernel's operands; the assembly reads the fields
// at fixed offsets (TestLaneJobLayout checks them). Lane l's blocks are
// contiguous from ad[l], src[l] and dst[l], each partial last block after
// the whole ones; pointers nothing reads may be nil.
type laneJob struct {
	key     *byte
	nonce   [numLanes]*byte
	ad      [numLanes]*byte
	src     [numLanes]*byte
	dst     [numLanes]*byte
	tags    [numLanes]*byte // where each lane's tag goes
	adN     int             // whole blocks of associated data, every lane
	n       int             // whole blocks of message, every lane
	tagSize int
	// The byte masks of the partial last blocks of associated data and
	// message, M0 and M1 (M0 alone for AEGIS-256): bits 16l to 16l+15 for
	// lane l's bytes; zero when the lanes have none.
	kAD   [2]uint64
	kLast [2]uint64
	u     [numLanes][16]byte // Finalize's lengths
}

func (a *AEAD) lanesFit(msgs []batch.Message) bool {
	return useLanes && a.v.lanes == 1 && len(msgs) > 1
}

func (a *AEAD) sealBatch(msgs []batch.Message) {
	s := a.batchSpec()
	if !a.lanesFit(msgs) {
		batchutil.Seal(a, s, msgs)
		return
	}
	s.CheckSeal(msgs)
	a.runLanes(msgs, false)
}

func (a *AEAD) openBatch(msgs []batch.Message) bool {
	s := a.batchSpec()
	if !a.lanesFit(msgs) {
		return batchutil.Open(a, s, msgs)
	}
	s.CheckOpen(msgs)
	return a.runLanes(msgs, true)
}

// runLanes seals or opens msgs, which have been checked, four of one shape
// per kernel call.
func (a *AEAD) runLanes(msgs []batch.Message, open bool) bool {
	shift := bits.TrailingZeros(uint(a.v.rate()))
	return batchutil.RunLanes(a, msgs, numLanes, shift, open, func(g batchutil.Group) bool {
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
		tags                 [numLanes][32]byte
		kAD0, kAD1, kL0, kL1 uint64
	)
	r := a.v.rate()
	j.key, j.adN, j.n, j.tagSize = &a.key[0], g.Shape.ADBlocks, g.Shape.Blocks, a.tagSize
	for l := range numLanes {
		m := &msgs[g.Msgs[min(l, g.N-1)]]
		text := m.In
		if open {
			text = m.In[:len(m.In)-a.tagSize]
			j.tags[l] = &tags[l][0]
		} else {
			j.tags[l] = &m.Out[len(text)]
		}
		j.nonce[l], j.ad[l], j.src[l], j.dst[l] = &m.Nonce[0], batchutil.First(m.AD), batchutil.First(text), batchutil.First(m.Out)
		block{uint64(len(m.AD)) * 8, uint64(len(text)) * 8}.put(j.u[l][:])
		if g.Shape.ADPart {
			m0, m1 := batchutil.LaneMasks(l, len(m.AD)&(r-1))
			kAD0, kAD1 = kAD0|m0, kAD1|m1
		}
		if g.Shape.Part {
			m0, m1 := batchutil.LaneMasks(l, len(text)&(r-1))
			kL0, kL1 = kL0|m0, kL1|m1
		}
	}
	j.kAD[0], j.kAD[1], j.kLast[0], j.kLast[1] = kAD0, kAD1, kL0, kL1
	op := opSeal
	if open {
		op = opOpen
	}
	if a.v.words == 8 {
		aegis128Lanes(op, &j)
	} else {
		aegis256Lanes(op, &j)
	}
	if !open {
		return true
	}
	ok = true
	for l := range g.N {
		m := &msgs[g.Msgs[l]]
		m.OK = tagMatches(&tags[l], m.In[len(m.In)-a.tagSize:])
		if !m.OK {
			clear(m.Out)
			ok = false
		}
	}
	return ok
}
