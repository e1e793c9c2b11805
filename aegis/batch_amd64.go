//go:build !purego

package aegis

import (
	"math/bits"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/words"
)

// The batch kernels (aegis_amd64.s, see _asm/lanes.go) seal (opSeal) or
// open (opOpen, comparing the tags) four (VAES512: zmm) or two
// (VAES256: ymm) AEGIS-128L or AEGIS-256 messages of one shape at once, one
// per 128-bit lane; the VAES512 ones also messages whose texts differ in
// length (ragged groups, see laneJob.steps).

//go:noescape
func aegis128LanesVAES512(op int, j *laneJob)

//go:noescape
func aegis256LanesVAES512(op int, j *laneJob)

//go:noescape
func aegis128LanesVAES256(op int, j *laneJob)

//go:noescape
func aegis256LanesVAES256(op int, j *laneJob)

// useVAES512Batch and useVAES256Batch enable the batch kernels, which need
// the features of the vaes512 and vaes256 kernels.
var (
	useVAES512Batch = useVAES512
	useVAES256Batch = useVAES256
)

func init() {
	impl.Register("aegis", "vaes512-batch", &useVAES512Batch)
	impl.Register("aegis", "vaes256-batch", &useVAES256Batch)
}

const numLanes = batchutil.MaxLanes

// laneJob holds a batch kernel's operands; the assembly reads the fields
// at fixed offsets (TestLaneJobLayout checks them). The kernel runs runs
// groups of messages, the lanes' indexes (idx) stepping by the number of
// lanes from one to the next, and fills the per-lane fields, nonce to tags
// and u, from the messages at msgs by idx.
// Lane l's blocks are contiguous from ad[l], src[l] and dst[l], each
// partial last block after the whole ones; pointers nothing reads may be
// nil.
type laneJob struct {
	key     *byte
	nonce   [numLanes]*byte
	ad      [numLanes]*byte
	src     [numLanes]*byte
	dst     [numLanes]*byte
	tags    [numLanes]*byte // where each lane's tag goes (seal) or is (open)
	adN     int             // whole blocks of associated data, every lane
	n       int             // whole blocks of message, every lane
	tagSize int
	// The byte masks of the partial last blocks of associated data and
	// message, M0 and M1 (M0 alone for AEGIS-256): bits 16l to 16l+15 for
	// lane l's bytes; zero when the lanes have none. The VAES512 kernels
	// make them from the lanes' lengths: for them, not zero where there
	// are any.
	kAD   [2]uint64
	kLast [2]uint64
	u     [numLanes][16]byte // Finalize's lengths
	// The VAES256 kernels' partial blocks, zero-padded, and for open the
	// masks of the ciphertext bytes of the message's.
	adLast [2][32]byte
	last   [2][32]byte
	mask   [2]*byte
	msgs   *batch.Message // the batch, whose OK open sets
	idx    [numLanes]int  // the lanes' messages in msgs
	sub    int            // the bytes of In past the text: open's tag
	runs   int
	// steps: for a group whose texts differ in length (VAES512 only), the
	// steps after the n whole blocks every lane has to the last lane's
	// tag: the longest text's blocks left, a partial one counted, and
	// Finalize's seven; else 0.
	steps int
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

func (a *AEAD) lanesFit(msgs []batch.Message) bool {
	return batchLanes() > 0 && a.v.lanes == 1 && len(msgs) > 1
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

// runLanes seals or opens msgs, which have been checked, as many of one
// shape per kernel call as it has lanes, and with the VAES512 kernels, which
// need no copies of the partial blocks, every group of a run of messages of
// one length in one call, and groups whose texts differ in length.
func (a *AEAD) runLanes(msgs []batch.Message, open bool) (allOK bool) {
	var (
		q batchutil.Lanes
		j laneJob
	)
	// j is filled here, not by a callee through a pointer: stores to a
	// local on the stack need no write barrier. Each group writes every
	// field the kernel reads but those it fills itself.
	j.key, j.tagSize, j.msgs = &a.key[0], a.tagSize, &msgs[0]
	r, nl := a.v.rate(), batchLanes()
	op := opSeal
	if open {
		op, j.sub = opOpen, a.tagSize
	}
	q.Init(msgs, nl, bits.TrailingZeros(uint(r)), a.tagSize, open)
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
			j.steps = g.End - sh.Blocks + 7
		}
		j.kAD, j.kLast = [2]uint64{}, [2]uint64{}
		switch {
		case nl == 4:
			// The kernels make the masks from the lanes' lengths; the
			// fields say whether there are partial blocks.
			j.kAD[0], j.kLast[0] = sh.Flags()
		case sh.ADPart || sh.Part:
			a.lastBlocks(&j, msgs, sh, nl)
		}
		switch {
		case nl == 4 && a.v.words == 8:
			aegis128LanesVAES512(op, &j)
		case nl == 4:
			aegis256LanesVAES512(op, &j)
		case a.v.words == 8:
			aegis128LanesVAES256(op, &j)
		default:
			aegis256LanesVAES256(op, &j)
		}
		if nl == 2 && g.Shape.Part {
			// The partial blocks' output, from the copies.
			for l := range g.N {
				m := &msgs[g.Msgs[l]]
				n := len(m.Out) - a.tagSize + j.sub
				rest := n & (r - 1)
				copy(m.Out[n-rest:n], j.last[l][:rest])
			}
		}
		if open {
			allOK = g.ClearFailed(msgs) && allOK
		}
	}
	return allOK && !q.Failed
}

// lastBlocks sets j's masks of the lanes' partial last blocks of shape sh
// and, for the VAES256 kernels (nl 2), their zero-padded copies and open's
// masks of the ciphertext's bytes.
func (a *AEAD) lastBlocks(j *laneJob, msgs []batch.Message, sh batchutil.Shape, nl int) {
	r := a.v.rate()
	for l := range nl {
		m := &msgs[j.idx[l]]
		if sh.ADPart {
			rest := len(m.AD) & (r - 1)
			m0, m1 := batchutil.LaneMasks(l, rest)
			j.kAD[0], j.kAD[1] = j.kAD[0]|m0, j.kAD[1]|m1
			if nl == 2 {
				clear(j.adLast[l][copy(j.adLast[l][:], m.AD[len(m.AD)-rest:]):])
			}
		}
		if sh.Part {
			text := m.In[:len(m.In)-j.sub]
			rest := len(text) & (r - 1)
			m0, m1 := batchutil.LaneMasks(l, rest)
			j.kLast[0], j.kLast[1] = j.kLast[0]|m0, j.kLast[1]|m1
			if nl == 2 {
				clear(j.last[l][copy(j.last[l][:], text[len(text)-rest:]):])
				j.mask[l] = &mask[maxRate-rest]
			}
		}
	}
}

// one seals or opens m alone, checked (and when opening, not shorter than
// a tag), and reports whether it opened: below Seal and Open, whose checks
// cost a short message about a sixth of its time.
func (a *AEAD) one(m *batch.Message, open bool) bool {
	n := len(m.In)
	if !open {
		a.crypt(m.Out[:n], m.Nonce, m.In, m.AD, false, m.Out[n:])
		return true
	}
	n -= a.tagSize
	var want [32]byte
	a.crypt(m.Out, m.Nonce, m.In[:n], m.AD, true, want[:])
	if m.OK = words.Equal(want[:a.tagSize], m.In[n:]); !m.OK {
		clear(m.Out)
	}
	return m.OK
}
