//go:build !purego

package rocca

import (
	"encoding/binary"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
)

// The batch kernels (rocca_amd64.s, see _asm/lanes.go and lanes256.go)
// seal (op 0) or open (op 1, the tags left to the Go side) four (VAES512:
// zmm) or two (VAES256: ymm) messages of one shape at once, one per 128-bit
// lane.

//go:noescape
func lanesVAES512(op int, j *laneJob)

//go:noescape
func lanesVAES256(op int, j *laneJob)

var (
	useVAES512Batch = cpu.X86HasVAES512
	useVAES256Batch = cpu.X86HasVAES256
)

func init() {
	impl.Register("rocca", "vaes512-batch", &useVAES512Batch)
	impl.Register("rocca", "vaes256-batch", &useVAES256Batch)
}

// batchLanes returns the lanes of the widest batch kernel enabled, or 0.
func batchLanes() int {
	switch {
	case useVAES512Batch:
		return 4
	case useVAES256Batch:
		return 2
	}
	return 0
}

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
	// The VAES256 kernel's partial blocks, zero-padded, and open's masks
	// of the ciphertext bytes of the message's, each half's two lanes
	// together: [half][lane].
	adLast, last, mask [2][2][16]byte
}

func (a *AEAD) sealBatch(msgs []batch.Message) {
	s := a.batchSpec()
	if batchLanes() == 0 || len(msgs) < 2 {
		batchutil.Seal(a, s, msgs)
		return
	}
	s.CheckSeal(msgs)
	a.runLanes(msgs, false)
}

func (a *AEAD) openBatch(msgs []batch.Message) bool {
	s := a.batchSpec()
	if batchLanes() == 0 || len(msgs) < 2 {
		return batchutil.Open(a, s, msgs)
	}
	s.CheckOpen(msgs)
	return a.runLanes(msgs, true)
}

// runLanes seals or opens msgs, which have been checked, as many of one
// shape per kernel call as it has lanes.
func (a *AEAD) runLanes(msgs []batch.Message, open bool) (allOK bool) {
	var q batchutil.Lanes
	q.Init(msgs, batchLanes(), 5, TagSize, open)
	allOK = true
	for g := q.Next(); g != nil; g = q.Next() {
		if g.N == 1 {
			allOK = batchutil.RunOne(a, msgs, g.Msgs[0], open) && allOK
		} else {
			allOK = a.runGroup(msgs, g, open) && allOK
		}
	}
	return allOK && !q.Failed
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
	nl := batchLanes()
	j.key, j.adN, j.n = &a.key, g.Shape.ADBlocks, g.Shape.Blocks
	for l := range nl {
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
			rest := len(m.AD) & (blockSize - 1)
			m0, m1 := batchutil.LaneMasks(l, rest)
			kAD0, kAD1 = kAD0|m0, kAD1|m1
			if nl == 2 {
				putHalves(&j.adLast, l, m.AD[len(m.AD)-rest:])
			}
		}
		if g.Shape.Part {
			rest := len(text) & (blockSize - 1)
			m0, m1 := batchutil.LaneMasks(l, rest)
			kL0, kL1 = kL0|m0, kL1|m1
			if nl == 2 {
				putHalves(&j.last, l, text[len(text)-rest:])
				putHalves(&j.mask, l, allOnes[:rest])
			}
		}
	}
	j.kAD[0], j.kAD[1], j.kLast[0], j.kLast[1] = kAD0, kAD1, kL0, kL1
	op := 0
	if open {
		op = 1
	}
	if nl == 4 {
		lanesVAES512(op, &j)
	} else {
		lanesVAES256(op, &j)
	}
	if nl == 2 && g.Shape.Part {
		// The partial blocks' output, from the copies.
		for l := range g.N {
			m := &msgs[g.Msgs[l]]
			n := len(m.Out)
			if !open {
				n -= TagSize
			}
			rest := n & (blockSize - 1)
			copy(m.Out[n-rest:n], j.last[0][l][:])
			if rest > 16 {
				copy(m.Out[n-rest+16:n], j.last[1][l][:])
			}
		}
	}
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

// putHalves copies b, at most 32 bytes, to lane l of h, the first 16 bytes
// to h[0] and the rest to h[1].
func putHalves(h *[2][2][16]byte, l int, b []byte) {
	n := copy(h[0][l][:], b)
	copy(h[1][l][:], b[n:])
}

var allOnes = [blockSize]byte{
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
}

// putBits writes the bit length of n bytes to b as a 128-bit little-endian
// number.
func putBits(b []byte, n int) {
	binary.LittleEndian.PutUint64(b, uint64(n)<<3)
	binary.LittleEndian.PutUint64(b[8:], uint64(n)>>61)
}
