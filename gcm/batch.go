package gcm

import (
	"crypto/subtle"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/words"
)

// SealBatch seals each message of msgs as Seal would, after checking them
// all, as batch.AEAD; it runs on the caller's goroutine, whatever
// WithParallelism set. Checked once, the messages go straight to the mode
// (and a message kernel each), not through Seal's checks again: a sixth of
// the time of a 64-byte message.
func (a *AEAD) SealBatch(msgs []batch.Message) {
	a = a.serialAEAD()
	s := a.batchSpec()
	s.CheckSeal(msgs)
	if a.kind == leaCipher {
		a.leaBatch(sealOp, msgs)
		return
	}
	for i := range msgs {
		m := &msgs[i]
		a.crypt(sealOp, m, len(m.In)).Put(m.Out[len(m.In):])
	}
}

// OpenBatch opens each message of msgs as Open would, after checking them
// all, and reports whether all authenticated, as batch.AEAD; it runs on the
// caller's goroutine, whatever WithParallelism set.
func (a *AEAD) OpenBatch(msgs []batch.Message) (allOK bool) {
	a = a.serialAEAD()
	s := a.batchSpec()
	s.CheckOpen(msgs)
	if a.kind == leaCipher {
		return a.leaBatch(openOp, msgs)
	}
	allOK = true
	for i := range msgs {
		m := &msgs[i]
		n := len(m.In) - a.tagSize
		m.OK = n >= 0 && uint64(n) <= maxBlocks*blockSize &&
			a.crypt(openOp, m, n).Matches(m.In[n:])
		if !m.OK {
			clear(m.Out)
			allOK = false
		}
	}
	return allOK
}

// crypt seals (sealOp) or opens (openOp) the first n bytes of m.In, the
// plaintext or the ciphertext without its tag, into m.Out and returns the
// full-length tag: the batches' Seal and Open below their checks, which
// take a message, not its slices (arguments in registers, not on the
// stack).
func (a *AEAD) crypt(o op, m *batch.Message, n int) words.Block {
	in, j := m.In[:n], a.j0(m.Nonce)
	if tag, ok := a.message(o, m.Out, in, m.AD, j); ok {
		return tag
	}
	return a.steps(o, m.Out, in, m.AD, j)
}

// Over fae's LEA, whose kernels take 4, 8 or 16 blocks a call, a short
// message alone leaves most of them idle: E(J0) and a partial block's
// keystream take a block each, in registers, and two or three whole blocks
// a kernel call. A batch takes the counter blocks of a group of short
// messages (E(J0)'s among them) in one call, then hashes each message.
const (
	leaGroupMaxLen = 256 // the longest message that goes in a group
	leaGroupBlocks = 128 // the counter blocks of one group
)

// leaBatch seals or opens msgs, checked, over fae's LEA, and reports
// whether all opened.
func (a *AEAD) leaBatch(o op, msgs []batch.Message) (allOK bool) {
	var ks [leaGroupBlocks * blockSize]byte
	allOK = true
	for i := 0; i < len(msgs); {
		// The group msgs[i:end], k blocks.
		end, k := i, 0
		for ; end < len(msgs); end++ {
			n := a.leaText(o, &msgs[end])
			if n > leaGroupMaxLen || k+leaBlocks(n) > leaGroupBlocks {
				break
			}
			k += leaBlocks(n)
		}
		if end == i {
			// A message too long for a group goes alone.
			allOK = a.leaOne(o, &msgs[i], nil) && allOK
			i++
			continue
		}
		k = 0
		for x := i; x < end; x++ {
			m := &msgs[x]
			n := a.leaText(o, m)
			if n < 0 {
				continue
			}
			j := a.j0(m.Nonce)
			for c := range leaBlocks(n) {
				j.at(j.c + uint32(c)).Store(ks[k*blockSize:])
				k++
			}
		}
		a.lea.EncryptBlocks(ks[:k*blockSize], ks[:k*blockSize])
		k = 0
		for x := i; x < end; x++ {
			m := &msgs[x]
			n := a.leaText(o, m)
			if n < 0 {
				allOK = a.leaOne(o, m, nil) && allOK
				continue
			}
			allOK = a.leaOne(o, m, ks[k*blockSize:(k+1)*blockSize+n]) && allOK
			k += leaBlocks(n)
		}
		i = end
	}
	return allOK
}

// leaBlocks returns the counter blocks of a text of n bytes: J0's and its
// keystream's.
func leaBlocks(n int) int { return 1 + (max(n, 0)+blockSize-1)/blockSize }

// leaText returns the length of m's text (In, less the tag when opening),
// negative for a message to open shorter than a tag.
func (a *AEAD) leaText(o op, m *batch.Message) int {
	if o == openOp {
		return len(m.In) - a.tagSize
	}
	return len(m.In)
}

// leaOne seals or opens m, with E(J0) and the text's keystream in ks, or
// without ks through crypt, and reports whether m opened.
func (a *AEAD) leaOne(o op, m *batch.Message, ks []byte) bool {
	n := a.leaText(o, m)
	if o == sealOp {
		if ks == nil {
			a.crypt(sealOp, m, n).Put(m.Out[n:])
			return true
		}
		subtle.XORBytes(m.Out[:n], m.In, ks[blockSize:])
		a.leaTag(m.AD, m.Out[:n], ks).Put(m.Out[n:])
		return true
	}
	switch {
	case n < 0 || uint64(n) > maxBlocks*blockSize:
		m.OK = false
	case ks == nil:
		m.OK = a.crypt(openOp, m, n).Matches(m.In[n:])
	default:
		// The ciphertext is hashed before the plaintext, which may be in
		// its place, is written.
		m.OK = a.leaTag(m.AD, m.In[:n], ks).Matches(m.In[n:])
		subtle.XORBytes(m.Out, m.In[:n], ks[blockSize:])
	}
	if !m.OK {
		clear(m.Out)
	}
	return m.OK
}

// leaTag returns the full tag of ciphertext c with associated data ad,
// with E(J0) at the start of ks.
func (a *AEAD) leaTag(ad, c, ks []byte) words.Block {
	var y words.Block
	if len(ad) > 0 {
		a.hashAD(&y, ad)
	}
	if len(c) > 0 {
		a.hashAD(&y, c)
	}
	return a.finish(y, words.Load(ks), len(ad), len(c))
}

func (a *AEAD) batchSpec() batchutil.Spec {
	return batchutil.Spec{Pkg: "gcm", NonceSize: a.nonceSize, TagSize: a.tagSize, MaxText: maxBlocks * blockSize}
}

// SealBatch is AEAD.SealBatch for XAES-256-GCM.
func (x *xaes) SealBatch(msgs []batch.Message) { batchutil.Seal(x, xaesBatch, msgs) }

// OpenBatch is AEAD.OpenBatch for XAES-256-GCM.
func (x *xaes) OpenBatch(msgs []batch.Message) (allOK bool) {
	return batchutil.Open(x, xaesBatch, msgs)
}

var xaesBatch = batchutil.Spec{Pkg: "gcm", NonceSize: xaesNonceSize, TagSize: TagSize, MaxText: maxBlocks * blockSize}
