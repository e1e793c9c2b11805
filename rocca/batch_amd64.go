//go:build !purego

package rocca

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/words"
)

// The batch kernels (rocca_amd64.s, see _asm/lanes.go and lanes256.go)
// seal (op 0) or open (op 1, the tags left to the Go side) four (VAES512:
// zmm) or two (VAES256: ymm) messages of one shape at once, one per 128-bit
// lane; the VAES512 one also messages whose texts differ in length (ragged
// groups, see laneJob.steps).

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
// at fixed offsets (TestLaneJobLayout checks them). The kernel runs runs
// groups of messages, the lanes' indexes (idx) stepping by the number of
// lanes from one to the next, and fills the per-lane fields, nonce to tags
// and the bit lengths, from the messages at msgs by idx. Lane l's blocks
// are contiguous from ad[l], src[l] and dst[l], each partial last block
// after the whole ones; pointers nothing reads may be nil.
type laneJob struct {
	key   *[KeySize]byte
	nonce [numLanes]*byte
	ad    [numLanes]*byte
	src   [numLanes]*byte
	dst   [numLanes]*byte
	tags  [numLanes]*byte // where each lane's tag goes (seal) or is (open)
	adN   int             // whole blocks of associated data, every lane
	n     int             // whole blocks of message, every lane
	// The byte masks of the partial last blocks of associated data and
	// message, their halves' bits 16l to 16l+15 for lane l's bytes; zero
	// when the lanes have none. The VAES512 kernel makes them from the
	// lanes' lengths: for it, not zero where there are any.
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
	msgs               *batch.Message // the batch, whose OK open sets
	idx                [numLanes]int  // the lanes' messages in msgs
	runs               int
	// steps: for a group whose texts differ in length (VAES512 only), the
	// steps after the n whole blocks every lane has to the last lane's
	// tag: the longest text's blocks left, a partial one counted, and
	// Finalize's sixteen rounds; else 0.
	steps int
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
// shape per kernel call as it has lanes, and with the VAES512 kernel, which
// needs no copies of the partial blocks, every group of a run of messages
// of one length in one call, and groups whose texts differ in length.
func (a *AEAD) runLanes(msgs []batch.Message, open bool) (allOK bool) {
	var (
		q batchutil.Lanes
		j laneJob
	)
	// j is filled here, not by a callee through a pointer: stores to a
	// local on the stack need no write barrier. Each group writes every
	// field the kernel reads but those it fills itself.
	j.key, j.msgs = &a.key, &msgs[0]
	nl := batchLanes()
	op := 0
	if open {
		op = 1
	}
	q.Init(msgs, nl, 5, TagSize, open)
	if nl == 4 {
		q.MaxRuns, q.Ragged = len(msgs), true
	}
	allOK = true
	for g := q.Next(); g != nil; g = q.Next() {
		if g.N == 1 {
			allOK = a.one(&msgs[g.Msgs[0]], open) && allOK
			continue
		}
		j.idx = g.Idx(nl)
		sh := g.Shape
		j.adN, j.n, j.runs, j.steps = sh.ADBlocks, sh.Blocks, g.Runs, 0
		if g.Ragged {
			j.steps = g.End - sh.Blocks + 16
		}
		j.kAD, j.kLast = [2]uint64{}, [2]uint64{}
		switch {
		case nl == 4:
			// The kernel makes the masks from the lanes' lengths; the
			// fields say whether there are partial blocks.
			j.kAD[0], j.kLast[0] = sh.Flags()
		case sh.ADPart || sh.Part:
			lastBlocks(&j, msgs, sh, nl, op*TagSize)
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
				n := len(m.Out) - TagSize + op*TagSize
				rest := n & (blockSize - 1)
				copy(m.Out[n-rest:n], j.last[0][l][:])
				if rest > 16 {
					copy(m.Out[n-rest+16:n], j.last[1][l][:])
				}
			}
		}
		if open {
			allOK = g.ClearFailed(msgs) && allOK
		}
	}
	return allOK && !q.Failed
}

// lastBlocks sets j's masks of the lanes' partial last blocks of shape sh,
// their texts In less sub bytes, and for the VAES256 kernel (nl 2) their
// zero-padded copies and open's masks of the ciphertext's bytes.
func lastBlocks(j *laneJob, msgs []batch.Message, sh batchutil.Shape, nl, sub int) {
	if nl == 2 {
		// Zero padding, over an earlier group's blocks.
		j.adLast, j.last, j.mask = [2][2][16]byte{}, [2][2][16]byte{}, [2][2][16]byte{}
	}
	for l := range nl {
		m := &msgs[j.idx[l]]
		if sh.ADPart {
			rest := len(m.AD) & (blockSize - 1)
			m0, m1 := batchutil.LaneMasks(l, rest)
			j.kAD[0], j.kAD[1] = j.kAD[0]|m0, j.kAD[1]|m1
			if nl == 2 {
				putHalves(&j.adLast, l, m.AD[len(m.AD)-rest:])
			}
		}
		if sh.Part {
			text := m.In[:len(m.In)-sub]
			rest := len(text) & (blockSize - 1)
			m0, m1 := batchutil.LaneMasks(l, rest)
			j.kLast[0], j.kLast[1] = j.kLast[0]|m0, j.kLast[1]|m1
			if nl == 2 {
				putHalves(&j.last, l, text[len(text)-rest:])
				putHalves(&j.mask, l, allOnes[:rest])
			}
		}
	}
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

// one seals or opens m alone, checked (and when opening, not shorter than
// a tag), and reports whether it opened: below Seal and Open, whose checks
// the batch has done.
func (a *AEAD) one(m *batch.Message, open bool) bool {
	n := len(m.In)
	if !open {
		tag := a.seal(m.Out[:n], m.Nonce, m.In, m.AD)
		copy(m.Out[n:], tag[:])
		return true
	}
	n -= TagSize
	tag := a.open(m.Out, m.Nonce, m.In[:n], m.AD)
	if m.OK = words.Equal(tag[:], m.In[n:]); !m.OK {
		clear(m.Out)
	}
	return m.OK
}
