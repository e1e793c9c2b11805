package ccm

import (
	"encoding/binary"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/words"
)

// Where no batch kernel runs (over fae's LEA everywhere; over fae's AES on
// arm64, in purego builds and on CPUs without AVX), a batch runs the
// CBC-MACs of 16 messages side by side, in Go: each step XORs the next block
// of every lane's message into the lane's MAC value and encrypts the 16
// values in one call to the cipher's multi-block kernel, which keeps its
// rounds' pipeline full (the bitsliced AES encrypts four blocks in the time
// of one), where a single message's chain waits on each block (LEA's
// EncryptWords; for AES a call of two blocks, the MAC's and a keystream
// block). A lane whose message ends takes the next one. The counter mode
// runs message by message on the cipher's CTR kernel, after E(A_0) and the
// keystream block of every final partial block, of up to laneChunk
// messages, in one call.

const (
	numGoLanes = 16
	laneChunk  = 64
)

// encryptBlocks encrypts whole blocks (ECB) on a's cipher, LEA or AES.
func (a *AEAD) encryptBlocks(dst, src []byte) {
	if a.lea != nil {
		a.lea.EncryptBlocks(dst, src)
		return
	}
	a.aes.EncryptBlocks(dst, src)
}

// ctrBlocks XORs whole blocks with the keystream from counter block hi||lo
// (big-endian halves) on, on a's cipher, LEA or AES, whose kernels count in
// 64 and 128 bits: alike for CCM, whose counter field (at most the low 8
// bytes) never wraps.
func (a *AEAD) ctrBlocks(dst, src []byte, hi, lo uint64) {
	if a.lea != nil {
		a.lea.CTRBlocks(dst, src, hi, lo)
		return
	}
	var c [blockSize]byte
	binary.BigEndian.PutUint64(c[:8], hi)
	binary.BigEndian.PutUint64(c[8:], lo)
	a.aes.XORKeyStreamAt(dst, src, &c)
}

// goLanes seals or opens msgs, which have been checked, in lanes run in
// Go, over fae's LEA or AES.
func (a *AEAD) goLanes(msgs []batch.Message, open bool) (allOK bool) {
	allOK = true
	for len(msgs) > 0 {
		n := min(len(msgs), laneChunk)
		allOK = a.laneChunk(msgs[:n], open) && allOK
		msgs = msgs[n:]
	}
	return allOK
}

// laneChunk is goLanes on at most laneChunk messages.
func (a *AEAD) laneChunk(msgs []batch.Message, open bool) (allOK bool) {
	var (
		// ks holds E(A_0), which becomes the tag, and E(A_m+1), the
		// keystream of a final partial block, of each message.
		ks    [laneChunk * 2 * blockSize]byte
		skip  [laneChunk]bool // a message to open too short or too long
		x     [numGoLanes * blockSize]byte
		lanes [numGoLanes]struct {
			runs [5][]byte // blocks left to MAC: B_0 and the header, AD, its tail, text, its tail
			r    int       // the run under way
			msg  int       // the message, -1 when idle
		}
		heads [numGoLanes][3 * blockSize]byte // B_0, the header's two blocks
		tails [numGoLanes][2 * blockSize]byte // the padded final blocks of AD and text
	)
	allOK = true
	text := func(m *batch.Message) []byte {
		if open {
			return m.In[:len(m.In)-a.tagSize]
		}
		return m.In
	}
	for i := range msgs {
		m := &msgs[i]
		if open && (len(m.In) < a.tagSize || uint64(len(m.In)-a.tagSize) > a.maxLen) {
			skip[i], m.OK, allOK = true, false, false
			clear(m.Out)
			continue
		}
		hi, lo := counterWords(a.nonceSize, m.Nonce)
		t := len(text(m))
		binary.BigEndian.PutUint64(ks[32*i:], hi)
		binary.BigEndian.PutUint64(ks[32*i+8:], lo)
		binary.BigEndian.PutUint64(ks[32*i+16:], hi)
		binary.BigEndian.PutUint64(ks[32*i+24:], lo|uint64(t/blockSize+1))
	}
	a.encryptBlocks(ks[:32*len(msgs)], ks[:32*len(msgs)])

	// ctr runs the counter mode of message i from src into dst.
	ctr := func(i int, dst, src []byte) {
		hi, lo := counterWords(a.nonceSize, msgs[i].Nonce)
		full := len(src) &^ (blockSize - 1)
		if full > 0 {
			a.ctrBlocks(dst[:full], src[:full], hi, lo|1)
		}
		for k := full; k < len(src); k++ {
			dst[k] = src[k] ^ ks[32*i+16+k-full]
		}
	}
	if open {
		for i := range msgs {
			if !skip[i] {
				ctr(i, msgs[i].Out, text(&msgs[i]))
			}
		}
	}

	// The CBC-MACs, of the plaintexts: Out when opening. A lane takes
	// message next (skipping those to skip) when it has none.
	next, active := 0, 0
	for l := range lanes {
		lanes[l].msg = -1
	}
	for {
		for l := range lanes {
			// Through lanes[l] and heads[l], not pointers to them: slices
			// of the frame's arrays stored through a pointer would move
			// the arrays to the heap.
			if lanes[l].msg >= 0 || next == len(msgs) {
				continue
			}
			for next < len(msgs) && skip[next] {
				next++
			}
			if next == len(msgs) {
				break
			}
			m := &msgs[next]
			p := text(m)
			if open {
				p = m.Out
			}
			hi, lo := counterWords(a.nonceSize, m.Nonce)
			n := blockSize
			lanes[l].runs = [5][]byte{}
			if ad := m.AD; len(ad) > 0 {
				var head []byte
				head, ad = adHead(heads[l][blockSize:], ad)
				n += len(head)
				full := len(ad) &^ (blockSize - 1)
				lanes[l].runs[1] = ad[:full]
				if rest := ad[full:]; len(rest) > 0 {
					clear(tails[l][copy(tails[l][:blockSize], rest):blockSize])
					lanes[l].runs[2] = tails[l][:blockSize]
				}
			}
			binary.BigEndian.PutUint64(heads[l][:], a.b0Hi(hi, len(m.AD) > 0))
			binary.BigEndian.PutUint64(heads[l][8:], lo|uint64(len(p)))
			lanes[l].runs[0] = heads[l][:n]
			full := len(p) &^ (blockSize - 1)
			lanes[l].runs[3] = p[:full]
			if rest := p[full:]; len(rest) > 0 {
				clear(tails[l][blockSize+copy(tails[l][blockSize:], rest):])
				lanes[l].runs[4] = tails[l][blockSize:]
			}
			lanes[l].r, lanes[l].msg = 0, next
			clear(x[blockSize*l : blockSize*(l+1)])
			next++
			active++
		}
		if active == 0 {
			break
		}
		top := 0 // lanes past the last busy one stay out of the call
		for l := range lanes {
			if lanes[l].msg < 0 {
				continue
			}
			top = l + 1
			r := lanes[l].r
			run := lanes[l].runs[r]
			words.Load(x[blockSize*l:]).Xor(words.Load(run)).Store(x[blockSize*l:])
			lanes[l].runs[r] = run[blockSize:]
			for r < len(lanes[l].runs) && len(lanes[l].runs[r]) == 0 {
				r++
			}
			lanes[l].r = r
		}
		a.encryptBlocks(x[:blockSize*top], x[:blockSize*top])
		for l := range top {
			ln := &lanes[l]
			if ln.msg < 0 || ln.r < len(ln.runs) {
				continue
			}
			// T ^ E(A_0), the whole tag, in place of E(A_0).
			t := ks[32*ln.msg : 32*ln.msg+blockSize]
			words.Load(x[blockSize*l:]).Xor(words.Load(t)).Store(t)
			ln.msg = -1
			active--
		}
	}

	for i := range msgs {
		if skip[i] {
			continue
		}
		m := &msgs[i]
		tag := ks[32*i : 32*i+a.tagSize]
		if !open {
			// The MAC has read all of In, which Out may be.
			ctr(i, m.Out, m.In)
			copy(m.Out[len(m.In):], tag)
			continue
		}
		if m.OK = words.Equal(tag, m.In[len(m.In)-a.tagSize:]); !m.OK {
			clear(m.Out)
			allOK = false
		}
	}
	return allOK
}
