//go:build !purego

package ccm

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/words"
)

// The batch kernels (ccm_amd64.s, see _asm/batch.go) seal or open the
// l.njobs jobs from l.jobs on the first 16 (VAES512), 8 (VAES256) or 4 (AVX)
// lanes of l, which start and end idle.

//go:noescape
func sealBatchVAES512(nr int, rk *[240]byte, l *lanes)

//go:noescape
func openBatchVAES512(nr int, rk *[240]byte, l *lanes)

//go:noescape
func sealBatchVAES256(nr int, rk *[240]byte, l *lanes)

//go:noescape
func openBatchVAES256(nr int, rk *[240]byte, l *lanes)

//go:noescape
func sealBatchAVX(nr int, rk *[240]byte, l *lanes)

//go:noescape
func openBatchAVX(nr int, rk *[240]byte, l *lanes)

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

// batchLanes returns the lanes of the batch kernel for n messages, or 0:
// the widest enabled, or a narrower one that n fills, which runs a step in
// about half the time (two AES units take xmm and ymm registers, one zmm).
func batchLanes(n int) int {
	switch {
	case useAVXBatch && n <= 4:
		return 4
	case useVAES256Batch && n <= 8:
		return 8
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
	// maxSteps bounds the steps between two passes of a kernel's
	// scheduler, and so the scratch that lanes without output write to.
	maxSteps = 160
	// staggerMin is the length from which the lanes of a call start in
	// four groups 0, 4, 8 and 12 steps apart where the messages' outputs
	// are aligned alike (as 4 KiB-aligned buffers are; see crowded): then
	// the lines a step stores to lie in four cache sets, not 16 lines in
	// one set that evict each other between their blocks, which halves the
	// speed of long messages. For shorter ones the idle steps cost more;
	// and where the outputs lie apart, staggered lanes only add 4K
	// aliasing between one lane's stores and another's loads.
	staggerMin = 2048
)

// numClasses length classes order the jobs of a call, from the longest
// messages down (lengthClass).
const numClasses = 128

// lengthClass returns the class of a message of n bytes (with its
// associated data): its blocks, counted down from numClasses-1, up to 95
// blocks, then one class for each power of two. Lanes whose jobs have the
// same number of blocks end their runs in the same step, and so take their
// next jobs in one pass of the scheduler, not one each (a batch of the
// IPI's 552 and 576-byte packets, 35 and 36 blocks, in turns).
func lengthClass(n int) uint8 {
	b := uint((n + blockSize - 1) / blockSize)
	if b >= 96 {
		b = 96 + min(uint(bits.Len(b))-7, numClasses-97)
	}
	return uint8(numClasses - 1 - b)
}

const (
	// maxIdleJobs is the most idle jobs of a staggered start, and maxJobs
	// the most jobs of a kernel call: 64 messages and those.
	maxIdleJobs = numLanes - numLanes/4
	maxJobs     = 64 + maxIdleJobs
)

// lanes is what the kernels read and write; _asm/batch.go has its offsets.
type lanes struct {
	x    [numLanes][blockSize]byte // CBC-MAC values
	ctr  [numLanes][blockSize]byte // counter blocks of the next step
	mask [numLanes][blockSize]byte // open: which bytes of the output to MAC
	src  [numLanes]*byte
	dst  [numLanes]*byte
	n    [numLanes]int  // blocks left in the lane's run
	step [numLanes]int  // the run's step: -1 when dst advances (mask not 0), 0 on the scratch
	cur  [numLanes]*run // the lane's run; nil when idle
	job  [numLanes]*job // the lane's job
	// VAES512: the mask of bytes of the final block of the lane's run, and
	// of its block in the last step of a stretch (see _asm/batch.go).
	last  [numLanes]uint64
	kmask [numLanes]uint64
	// The jobs not yet begun.
	jobs  *job
	njobs int
	// The scratch, here rather than apart: a byte array of its own may lie
	// at an odd address, where zeroing it and the kernels' accesses are
	// slow.
	scratch [maxSteps * blockSize]byte
	// E(B_0) and E(A_0) of each job, side by side; the tag of a job that
	// does not store it to Out in place of E(B_0), which the kernel has
	// read by then.
	b0a0 [maxJobs * 2 * blockSize]byte
}

// run is a run of n blocks that a lane MACs and encrypts (or decrypts) from
// src to dst, with the counter block whose low half is ctrLo (big-endian in
// memory) first; open MACs the first mask bytes of each output block and the
// rest of the source block. dst advances where mask is not 0 (the text's
// runs): a run of mask 0 only MACs, to the scratch, and no field apart
// tells them (the job is smaller to zero). The
// VAES512 kernels read and write only the bytes of the final block that
// last has bits for (the first 16 of a bit per byte), so that a run there
// may end in a partial block, in place.
type run struct {
	src, dst *byte
	n        int
	ctrLo    uint64
	mask     int32
	last     uint32
}

// job is one message for the kernels: the encoding of the associated
// data's length with the start of the associated data, the rest of the
// associated data in place and its padded final block, the message's whole
// blocks in place and its padded final block, each a run if not empty (for
// the VAES512 kernels the rest of the associated data and the message are
// one run each, in place); then an empty run. The MAC starts at E(B_0), in b0a0 with E(A_0), and the
// kernel stores the tag, X ^ E(A_0), at tagDst: after a sealed message of
// 16-byte tags, whose final block the kernel writes in place too, else in
// b0a0. The high half of the counter blocks is ctrHi (big-endian in
// memory).
type job struct {
	runs    [6]run
	b0a0    *[2 * blockSize]byte
	tagDst  *byte
	ctrHi   uint64
	hdr     [blockSize]byte
	adTail  [blockSize]byte
	tail    [blockSize]byte // and its output, where it does not go to Out
	msg     int             // index in the batch; -1 for a job that only idles
	tailLen int             // bytes in tail
}

// jobRuns says which runs of a job read or write the job's own blocks or
// the scratch, or -1 for none.
type jobRuns struct{ hdr, ad, adTail, tail int }

// kernelBatch seals or opens msgs, checked (their Spans sp), on a batch
// kernel, if one is enabled and the cipher is fae's AES, and reports
// whether it ran and, opening, whether every message authenticated.
func (a *AEAD) kernelBatch(msgs []batch.Message, open bool, sp batchutil.Spans) (allOK, ran bool) {
	nl := batchLanes(len(msgs))
	if nl == 0 || a.aes == nil {
		return false, false
	}
	// Every message's In and AD together lie between these, and so its
	// class too: where they are of one class, as a batch of like
	// messages, there is nothing to order.
	oneClass := lengthClass(sp.MinIn) == lengthClass(sp.MaxIn+sp.MaxAD)
	return a.runBatch(msgs, nl, open, oneClass), true
}

// runBatch seals or opens msgs, which have been checked, on the kernel of
// nl lanes, with room for as many jobs per kernel call as a short batch
// needs, up to maxJobs (64 messages and the idle jobs of a staggered
// start): the jobs stay on the stack, which Go zeroes on each call.
func (a *AEAD) runBatch(msgs []batch.Message, nl int, open, oneClass bool) bool {
	switch n := len(msgs); {
	case n <= 4:
		return runLanes[[4]job](a, msgs, nl, open, oneClass)
	case n <= 16:
		return runLanes[[16]job](a, msgs, nl, open, oneClass)
	case n <= 32:
		return runLanes[[32 + maxIdleJobs]job](a, msgs, nl, open, oneClass)
	case n <= 64 && len(msgs[0].In) < staggerMin:
		// One call, whose lanes do not start staggered.
		return runLanes[[64]job](a, msgs, nl, open, oneClass)
	}
	return runLanes[[maxJobs]job](a, msgs, nl, open, oneClass)
}

// runLanes seals or opens msgs, len(J) jobs a kernel call, ordering them
// unless all are of oneClass. Open fails the messages too short or too long
// for a tag and a length field on the way.
func runLanes[J [4]job | [16]job | [32 + maxIdleJobs]job | [64]job | [maxJobs]job](a *AEAD, msgs []batch.Message, nl int, open, oneClass bool) (allOK bool) {
	var (
		l    lanes
		jobs J
	)
	l.jobs = &jobs[0]
	nr, rk := a.aes.Rounds(), a.aes.EncKeys()
	// Sealing with 16-byte tags, the kernel writes the final blocks and the
	// tags to the outputs itself, and nothing is left to finish.
	direct := !open && a.tagSize == blockSize
	flags := a.b0Hi(0, false) // of B_0 without associated data
	allOK = true
	for i := 0; i < len(msgs); {
		n := min(len(msgs)-i, len(jobs))
		stagger := n >= 2*nl && len(msgs[i].In) >= staggerMin && crowded(msgs[i:i+nl])
		if stagger {
			n = min(n, len(jobs)-(nl-nl/4)) // room for the idle jobs
		}
		// The call's messages become jobs longest first, roughly: lanes
		// that take the last jobs then end close together, not one long
		// message running on while the other lanes idle.
		// A counting sort by class: two passes, not one per class, and
		// none where all are of one class (a batch of like messages),
		// known from the batch's Spans or found in the count. The
		// classes present, a bit each, turn the counts into starts
		// without a pass over all numClasses.
		var (
			order   [maxJobs]int32
			class   [maxJobs]uint8
			start   [numClasses]uint8 // counts, then starts: at most maxJobs
			present [numClasses / 64]uint64
		)
		sorted := false
		if !oneClass {
			for x := range n {
				b := lengthClass(len(msgs[i+x].In) + len(msgs[i+x].AD))
				class[x] = b
				start[b]++
				present[b/64] |= 1 << (b % 64)
			}
			classes := 0
			for _, p := range present {
				classes += bits.OnesCount64(p)
			}
			sorted = classes > 1
		}
		if sorted {
			next := uint8(0)
			for w, p := range present {
				for ; p != 0; p &= p - 1 {
					b := 64*w + bits.TrailingZeros64(p)
					start[b], next = next, next+start[b]
				}
			}
			for x := range n {
				b := class[x]
				order[start[b]] = int32(i + x)
				start[b]++
			}
		}
		k := 0
		for o := range n {
			x := i + o
			if sorted {
				x = int(order[o])
			}
			for stagger && k < nl && k%4 != 0 {
				// A job that only MACs the scratch for 4, 8 or 12
				// steps.
				jobs[k].msg = -1
				jobs[k].runs[0].src, jobs[k].runs[0].dst = &l.scratch[0], &l.scratch[0]
				jobs[k].runs[0].n, jobs[k].runs[0].mask = 4*(k%4), 0
				jobs[k].runs[1].n = 0
				jobs[k].b0a0 = (*[2 * blockSize]byte)(l.b0a0[2*blockSize*k:])
				jobs[k].tagDst = &jobs[k].b0a0[0]
				k++
			}
			m := &msgs[x]
			text := m.In
			if open {
				if len(m.In) < a.tagSize || uint64(len(m.In)-a.tagSize) > a.maxLen {
					m.OK, allOK = false, false
					clear(m.Out)
					continue
				}
				text = m.In[:len(m.In)-a.tagSize]
			}
			// Pointers to the stack are stored here, in the frame that
			// holds it: stored through a pointer they would move it to
			// the heap.
			b0a0 := (*[2 * blockSize]byte)(l.b0a0[2*blockSize*k:])
			jobs[k].b0a0 = b0a0
			jobs[k].msg = x
			if direct {
				jobs[k].tagDst = &m.Out[len(text)]
			} else {
				jobs[k].tagDst = &b0a0[0]
			}
			if nl == 16 && len(m.AD) == 0 {
				// The common job, whose only run is the text, in
				// place: no call to format.
				maskedText(&jobs[k], 0, text, m.Out, startJob(&jobs[k], b0a0, m.Nonce, len(text), flags))
				jobs[k].tailLen = 0
				k++
				continue
			}
			r := a.format(&jobs[k], b0a0, m, text, direct, nl == 16)
			if r.hdr >= 0 {
				jobs[k].runs[r.hdr].src, jobs[k].runs[r.hdr].dst = &jobs[k].hdr[0], &l.scratch[0]
			}
			if r.ad >= 0 {
				jobs[k].runs[r.ad].dst = &l.scratch[0]
			}
			if r.adTail >= 0 {
				jobs[k].runs[r.adTail].src, jobs[k].runs[r.adTail].dst = &jobs[k].adTail[0], &l.scratch[0]
			}
			if r.tail >= 0 {
				jobs[k].runs[r.tail].src = &jobs[k].tail[0]
				if !direct {
					jobs[k].runs[r.tail].dst = &jobs[k].tail[0]
				}
			}
			k++
		}
		i += n
		if k == 0 {
			continue
		}
		// B_0 and A_0 of every job (an idle job's are whatever lay
		// there), in one call.
		a.aes.EncryptBlocks(l.b0a0[:2*blockSize*k], l.b0a0[:2*blockSize*k])
		l.njobs = k
		switch {
		case nl == 16 && open:
			openBatchVAES512(nr, rk, &l)
		case nl == 16:
			sealBatchVAES512(nr, rk, &l)
		case nl == 8 && open:
			openBatchVAES256(nr, rk, &l)
		case nl == 8:
			sealBatchVAES256(nr, rk, &l)
		case open:
			openBatchAVX(nr, rk, &l)
		default:
			sealBatchAVX(nr, rk, &l)
		}
		if direct {
			continue
		}
		for j := 0; j < k; j++ {
			if jobs[j].msg < 0 {
				continue
			}
			m := &msgs[jobs[j].msg]
			if jobs[j].tailLen > 0 {
				a.finishTail(&jobs[j], m, open)
			}
			tag := jobs[j].b0a0[:a.tagSize]
			if !open {
				copy(m.Out[len(m.In):], tag)
			} else if m.OK = words.Equal(tag, m.In[len(m.In)-len(tag):]); !m.OK {
				clear(m.Out)
				allOK = false
			}
		}
	}
	return allOK
}

// crowded reports whether the outputs of more than a quarter of msgs start
// in one cache set (of the 64 that addresses in a 4 KiB page fall in).
func crowded(msgs []batch.Message) bool {
	var sets [64]int
	for i := range msgs {
		if out := msgs[i].Out; len(out) > 0 {
			s := uintptr(unsafe.Pointer(&out[0])) / 64 % 64
			if sets[s]++; sets[s] > len(msgs)/4 {
				return true
			}
		}
	}
	return false
}

// format makes j the job of message m, of text (m.In less the tag when
// opening), to m.Out: all but the pointers into the job and the scratch,
// which it leaves to runLanes (direct: the final block's output and the tag
// go to m.Out). For the VAES512 kernels (masked), the associated data after
// the header and the text are each one run in place, the final block
// partial; else each has a run of whole blocks in place and one of its
// padded final block. It writes the job's fields one by one: a struct with
// pointers stored whole through a pointer goes through the write barrier's
// copy.
func (a *AEAD) format(j *job, b0a0 *[2 * blockSize]byte, m *batch.Message, text []byte, direct, masked bool) (r jobRuns) {
	ad, out := m.AD, m.Out
	lo := startJob(j, b0a0, m.Nonce, len(text), a.b0Hi(0, len(ad) > 0))
	r = jobRuns{-1, -1, -1, -1}
	i := 0
	if len(ad) > 0 {
		// The runs of the associated data only MAC: their counters
		// and (for open) masks are 0.
		var head []byte
		head, ad = adHead(j.hdr[:], ad)
		r.hdr = i
		j.runs[i].n, j.runs[i].ctrLo, j.runs[i].mask, j.runs[i].last = len(head)/blockSize, 0, 0, lastMask(blockSize)
		i++
		full := len(ad) &^ (blockSize - 1)
		if masked {
			full = len(ad)
		}
		if full > 0 {
			r.ad = i
			j.runs[i].src = &ad[0]
			j.runs[i].n, j.runs[i].ctrLo, j.runs[i].mask, j.runs[i].last = (full+blockSize-1)/blockSize, 0, 0, lastMask(full)
			i++
		}
		if rest := ad[full:]; len(rest) > 0 {
			j.adTail = [blockSize]byte{}
			copy(j.adTail[:], rest)
			r.adTail = i
			j.runs[i].n, j.runs[i].ctrLo, j.runs[i].mask = 1, 0, 0
			i++
		}
	}
	if masked {
		maskedText(j, i, text, out, lo)
		j.tailLen = 0
		return r
	}
	full := len(text) &^ (blockSize - 1)
	if full > 0 {
		rr := &j.runs[i]
		rr.src, rr.dst = &text[0], &out[0]
		rr.n, rr.ctrLo, rr.mask = full/blockSize, bits.ReverseBytes64(lo|1), blockSize
		i++
	}
	rest := text[full:]
	j.tailLen = len(rest)
	if len(rest) > 0 {
		if len(text) >= blockSize {
			// The block that ends text, shifted down over its
			// padding: no call to copy.
			end := text[len(text)-blockSize:]
			lo, hi := shr128(binary.LittleEndian.Uint64(end), binary.LittleEndian.Uint64(end[8:]), uint(8*(blockSize-len(rest))))
			binary.LittleEndian.PutUint64(j.tail[:], lo)
			binary.LittleEndian.PutUint64(j.tail[8:], hi)
		} else {
			j.tail = [blockSize]byte{}
			copy(j.tail[:], rest)
		}
		r.tail = i
		rr := &j.runs[i]
		if direct {
			rr.dst = &out[full]
		}
		rr.n, rr.ctrLo, rr.mask = 1, bits.ReverseBytes64(lo|uint64(full/blockSize+1)), int32(len(rest))
		i++
	}
	j.runs[i].n = 0
	return r
}

// startJob writes B_0 (with flags, b0Hi's for the message) and A_0 of a
// message of textLen bytes with nonce to b0a0, and j's half of the counter
// blocks, and returns their low half, A_0's. It reads nothing of the AEAD,
// whose fields the batch's loop holds.
func startJob(j *job, b0a0 *[2 * blockSize]byte, nonce []byte, textLen int, flags uint64) (lo uint64) {
	// A_i = L' || nonce || i and B_0 = Flags || nonce || len(text) differ
	// from A_0 in the first byte and in the low 8 bytes (see start).
	// A_0's two words are read from the nonce (of 7 bytes or more) here,
	// not from a block it was copied into, which stalls on store
	// forwarding.
	hi, lo := counterWords(len(nonce), nonce)
	binary.BigEndian.PutUint64(b0a0[:8], hi|flags)
	binary.BigEndian.PutUint64(b0a0[8:], lo|uint64(textLen))
	binary.BigEndian.PutUint64(b0a0[16:], hi)
	binary.BigEndian.PutUint64(b0a0[24:], lo)
	j.ctrHi = bits.ReverseBytes64(hi)
	return lo
}

// maskedText makes run i of j the run of text to out for the VAES512
// kernels (if not empty; with A_0's low half lo), and the next the empty
// one (the caller clears j.tailLen).
func maskedText(j *job, i int, text, out []byte, lo uint64) {
	if len(text) > 0 {
		rr := &j.runs[i]
		rr.src, rr.dst = &text[0], &out[0]
		rr.n, rr.ctrLo, rr.mask, rr.last = (len(text)+blockSize-1)>>4, bits.ReverseBytes64(lo|1), blockSize, lastMask(len(text))
		i++
	}
	j.runs[i].n = 0
}

// lastMask returns the mask of the bytes of the final block of n bytes.
func lastMask(n int) uint32 { return 0xffff >> ((blockSize - n%blockSize) % blockSize) }

// finishTail writes the final partial block of j's message m to its
// output, from j's tail.
func (a *AEAD) finishTail(j *job, m *batch.Message, open bool) {
	n, t := len(m.In), j.tailLen
	if open {
		n -= a.tagSize
	}
	if n < blockSize {
		copy(m.Out[n-t:n], j.tail[:t])
		return
	}
	// The 16 bytes that end the output: what the kernel wrote before the
	// final block, then the final block shifted up over them, which shifts
	// its padding out: no call to copy.
	end := m.Out[n-blockSize : n]
	s := uint(8 * (blockSize - t))
	tlo, thi := shl128(binary.LittleEndian.Uint64(j.tail[:]), binary.LittleEndian.Uint64(j.tail[8:]), s)
	mlo, mhi := shl128(^uint64(0), ^uint64(0), s)
	binary.LittleEndian.PutUint64(end, binary.LittleEndian.Uint64(end)&^mlo|tlo)
	binary.LittleEndian.PutUint64(end[8:], binary.LittleEndian.Uint64(end[8:])&^mhi|thi)
}

// shr128 and shl128 shift the 128-bit value hi:lo by s bits, 0 < s < 128
// (Go's shifts by 64 or more give 0).
func shr128(lo, hi uint64, s uint) (uint64, uint64) {
	return lo>>s | hi<<(64-s) | hi>>(s-64), hi >> s
}

func shl128(lo, hi uint64, s uint) (uint64, uint64) {
	return lo << s, hi<<s | lo>>(64-s) | lo<<(s-64)
}
