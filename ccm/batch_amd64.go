//go:build !purego

package ccm

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/words"
)

// The batch kernels (ccm_amd64.s, see _asm/batch.go) run n >= 1 steps of
// the first 16 (VAES512), 8 (VAES256) or 4 (AVX) lanes of l: each lane MACs
// and encrypts (or decrypts) one block at src+16i and writes it to dst+16i
// in step i.

//go:noescape
func sealBatchVAES512(nr int, rk *[240]byte, l *lanes, n int)

//go:noescape
func openBatchVAES512(nr int, rk *[240]byte, l *lanes, n int)

//go:noescape
func sealBatchVAES256(nr int, rk *[240]byte, l *lanes, n int)

//go:noescape
func openBatchVAES256(nr int, rk *[240]byte, l *lanes, n int)

//go:noescape
func sealBatchAVX(nr int, rk *[240]byte, l *lanes, n int)

//go:noescape
func openBatchAVX(nr int, rk *[240]byte, l *lanes, n int)

// useVAES512Batch, useVAES256Batch and useAVXBatch enable the batch
// kernels on zmm, ymm and xmm registers.
var (
	useVAES512Batch = cpu.X86HasVAES512
	useVAES256Batch = cpu.X86HasVAES256
	useAVXBatch     = cpu.X86HasAESNI && cpu.X86HasAVX
)

func init() {
	impl.Register("ccm", "vaes512-batch", &useVAES512Batch)
	impl.Register("ccm", "vaes256-batch", &useVAES256Batch)
	impl.Register("ccm", "avx-batch", &useAVXBatch)
}

// batchLanes returns the lanes of the widest batch kernel enabled, or 0.
func batchLanes() int {
	switch {
	case useVAES512Batch:
		return 16
	case useVAES256Batch:
		return 8
	case useAVXBatch:
		return 4
	}
	return 0
}

const (
	numLanes = 16
	// maxSteps bounds the steps of one kernel call, and so the scratch
	// that lanes without output write to.
	maxSteps = 64
)

// lanes is what the kernels read and write; _asm/batch.go has its offsets.
type lanes struct {
	x    [numLanes][blockSize]byte // CBC-MAC values
	ctr  [numLanes][blockSize]byte // counter blocks of the next step
	mask [numLanes][blockSize]byte // open: which bytes of the output to MAC
	src  [numLanes]*byte
	dst  [numLanes]*byte
}

// lane is the Go side of one lane: the message it holds and the run of
// blocks it is in. A message runs through B_0 with the start of the
// associated data, the rest of the associated data in place and its padded
// final block, the message's whole blocks in place and its padded final
// block. Runs not in place are in the lane's laneBuf, from its start.
type lane struct {
	msg      int // index in the batch; -1 when idle
	stage    int
	n        int    // blocks left in the run
	src, dst []byte // the run left in place; dst nil for output nobody reads
	pos      int    // the run left in the laneBuf when src is nil, from pos
	ad, text []byte // the associated data and message bytes not yet run
	out      []byte
	s0       [blockSize]byte // E(A_0)
	macOnly  uint64          // blocks run before the message's, from A_0 on
}

// laneBuf holds the blocks a lane runs from and to outside the messages.
// It stays apart from lane: a pointer into it stored through a pointer
// would move it to the heap.
type laneBuf struct{ in, out [3 * blockSize]byte }

// run starts a run of n blocks of src to dst, or in the laneBuf when src is
// nil.
func (w *lane) run(src, dst []byte, n int) { w.src, w.dst, w.n, w.pos = src, dst, n, 0 }

var allOnes = [blockSize]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

const (
	stageHdr = iota
	stageAD
	stageADTail
	stageText
	stageTextTail
	stageDone
)

func (a *AEAD) sealBatch(msgs []batch.Message) {
	s := a.batchSpec()
	nl := batchLanes()
	if nl == 0 || a.aes == nil || len(msgs) < 2 {
		batchutil.Seal(a, s, msgs)
		return
	}
	s.CheckSeal(msgs)
	a.runLanes(msgs, nl, false)
}

func (a *AEAD) openBatch(msgs []batch.Message) bool {
	s := a.batchSpec()
	nl := batchLanes()
	if nl == 0 || a.aes == nil || len(msgs) < 2 {
		return batchutil.Open(a, s, msgs)
	}
	s.CheckOpen(msgs)
	return a.runLanes(msgs, nl, true)
}

// runLanes seals or opens msgs, which have been checked, nl at a time on
// the kernel of nl lanes: a lane whose message ends takes the next one.
// Each kernel call runs as many steps as the shortest run left in a busy
// lane.
func (a *AEAD) runLanes(msgs []batch.Message, nl int, open bool) (allOK bool) {
	var (
		l       lanes
		lsAll   [numLanes]lane
		bufs    [numLanes]laneBuf
		scratch [maxSteps * blockSize]byte
	)
	ls := lsAll[:nl]
	next := 0
	for j := range ls {
		next = a.refill(&l, &ls[j], &bufs[j], j, msgs, next, open)
	}
	for {
		steps, busy := maxSteps, false
		for j := range ls {
			w := &ls[j]
			l.src[j], l.dst[j] = &scratch[0], &scratch[0]
			switch {
			case w.msg < 0:
				continue
			case w.src == nil:
				l.src[j], l.dst[j] = &bufs[j].in[w.pos], &bufs[j].out[w.pos]
			default:
				l.src[j] = &w.src[0]
				if w.dst != nil {
					l.dst[j] = &w.dst[0]
				}
			}
			steps, busy = min(steps, w.n), true
		}
		if !busy {
			break
		}
		nr, rk := a.aes.Rounds(), a.aes.EncKeys()
		switch {
		case nl == 16 && open:
			openBatchVAES512(nr, rk, &l, steps)
		case nl == 16:
			sealBatchVAES512(nr, rk, &l, steps)
		case nl == 8 && open:
			openBatchVAES256(nr, rk, &l, steps)
		case nl == 8:
			sealBatchVAES256(nr, rk, &l, steps)
		case open:
			openBatchAVX(nr, rk, &l, steps)
		default:
			sealBatchAVX(nr, rk, &l, steps)
		}
		for j := range ls {
			w := &ls[j]
			if w.msg < 0 {
				continue
			}
			if w.n -= steps; w.n > 0 {
				switch {
				case w.src == nil:
					w.pos += steps * blockSize
				case w.dst == nil:
					w.src = w.src[steps*blockSize:]
				default:
					w.src, w.dst = w.src[steps*blockSize:], w.dst[steps*blockSize:]
				}
				continue
			}
			a.advance(&l, w, &bufs[j], j, msgs, open)
			if w.msg < 0 {
				next = a.refill(&l, w, &bufs[j], j, msgs, next, open)
			}
		}
	}
	allOK = true
	for i := range msgs {
		allOK = allOK && (!open || msgs[i].OK)
	}
	return allOK
}

// refill gives lane j the next message of msgs from next on, and returns
// the new next. Open fails the messages too short or too long for a tag and
// a length field on the way.
func (a *AEAD) refill(l *lanes, w *lane, b *laneBuf, j int, msgs []batch.Message, next int, open bool) int {
	w.msg = -1
	for ; next < len(msgs); next++ {
		m := &msgs[next]
		text := m.In
		if open {
			if len(m.In) < a.tagSize || uint64(len(m.In)-a.tagSize) > a.maxLen {
				m.OK = false
				clear(m.Out)
				continue
			}
			text = m.In[:len(m.In)-a.tagSize]
		}
		a.begin(l, w, b, j, next, m.Nonce, text, m.AD, m.Out)
		return next + 1
	}
	return next
}

// begin puts message i into lane j: its first run is B_0, the encoding of
// the associated data's length and as much of the associated data as fits
// in the laneBuf, with the counter at A_0, so that the keystream of its
// first block is E(A_0).
func (a *AEAD) begin(l *lanes, w *lane, b *laneBuf, j, i int, nonce, text, ad, out []byte) {
	w.msg, w.stage = i, stageHdr
	w.text, w.out = text, out
	// A_0 and B_0 are written in place, without reading back bytes just
	// copied (which stalls on store forwarding).
	l.ctr[j], b.in = [blockSize]byte{}, [3 * blockSize]byte{}
	copy(l.ctr[j][1:], nonce)
	copy(b.in[1:], nonce)
	lp := byte(14 - a.nonceSize) // L' = L-1
	l.ctr[j][0] = lp
	b.in[0] = lp | byte((a.tagSize-2)/2<<3)
	for k, v := blockSize-1, len(text); k > a.nonceSize; k, v = k-1, v>>8 {
		b.in[k] = byte(v)
	}
	n := blockSize
	if len(ad) > 0 {
		b.in[0] |= 0x40
		n += putADLen(b.in[n:], uint64(len(ad)))
		k := copy(b.in[n:], ad)
		n += k
		ad = ad[k:]
	}
	w.ad = ad
	w.run(nil, nil, (n+blockSize-1)/blockSize)
	w.macOnly = uint64(w.n)
	l.x[j] = [blockSize]byte{}
	l.mask[j] = [blockSize]byte{}
}

// advance moves lane j to its next run, or finishes its message and
// leaves the lane idle.
func (a *AEAD) advance(l *lanes, w *lane, b *laneBuf, j int, msgs []batch.Message, open bool) {
	for {
		w.stage++
		switch w.stage {
		case stageAD:
			words.Load(b.in[:]).Xor(words.Load(b.out[:])).Store(w.s0[:])
			full := len(w.ad) &^ (blockSize - 1)
			w.run(w.ad[:full], nil, full/blockSize)
			w.macOnly += uint64(w.n)
			w.ad = w.ad[full:]
		case stageADTail:
			clear(b.in[:blockSize])
			copy(b.in[:], w.ad)
			w.run(nil, nil, min(len(w.ad), 1))
			w.macOnly += uint64(w.n)
		case stageText:
			// The counter stepped from A_0 to A_macOnly; A_1 follows A_0
			// in the low 64 bits.
			ctr := l.ctr[j][8:]
			binary.BigEndian.PutUint64(ctr, binary.BigEndian.Uint64(ctr)-w.macOnly+1)
			l.mask[j] = allOnes
			full := len(w.text) &^ (blockSize - 1)
			w.run(w.text[:full], w.out[:full], full/blockSize)
			w.text = w.text[full:]
		case stageTextTail:
			clear(b.in[:blockSize])
			copy(b.in[:], w.text)
			w.run(nil, nil, min(len(w.text), 1))
			l.mask[j] = [blockSize]byte{}
			copy(l.mask[j][:len(w.text)], allOnes[:])
		case stageDone:
			a.finish(l, w, b, j, msgs, open)
			return
		}
		if w.n > 0 {
			return
		}
	}
}

// finish writes the final partial block and the tag of lane j's message,
// or checks the tag, and leaves the lane idle.
func (a *AEAD) finish(l *lanes, w *lane, b *laneBuf, j int, msgs []batch.Message, open bool) {
	m := &msgs[w.msg]
	w.msg = -1
	tag := words.Load(l.x[j][:]).Xor(words.Load(w.s0[:])).Bytes()
	n := len(m.In)
	if open {
		n -= a.tagSize
	}
	copy(m.Out[n-len(w.text):n], b.out[:len(w.text)])
	if !open {
		copy(m.Out[n:], tag[:a.tagSize])
		return
	}
	m.OK = subtle.ConstantTimeCompare(tag[:a.tagSize], m.In[n:]) == 1
	if !m.OK {
		clear(m.Out)
	}
}
