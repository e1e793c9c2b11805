package gcm

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
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
	for i := range msgs {
		m := &msgs[i]
		a.crypt(sealOp, m.Out, m.Nonce, m.In, m.AD).Put(m.Out[len(m.In):])
	}
}

// OpenBatch opens each message of msgs as Open would, after checking them
// all, and reports whether all authenticated, as batch.AEAD; it runs on the
// caller's goroutine, whatever WithParallelism set.
func (a *AEAD) OpenBatch(msgs []batch.Message) (allOK bool) {
	a = a.serialAEAD()
	s := a.batchSpec()
	s.CheckOpen(msgs)
	allOK = true
	for i := range msgs {
		m := &msgs[i]
		n := len(m.In) - a.tagSize
		m.OK = n >= 0 && uint64(n) <= maxBlocks*blockSize &&
			a.crypt(openOp, m.Out, m.Nonce, m.In[:n], m.AD).Matches(m.In[n:])
		if !m.OK {
			clear(m.Out)
			allOK = false
		}
	}
	return allOK
}

func (a *AEAD) batchSpec() batchutil.Spec {
	return batchutil.Spec{Pkg: "gcm", NonceSize: a.nonceSize, TagSize: a.tagSize, Fits: sealFits}
}

// sealFits reports whether Seal takes a plaintext of n bytes.
func sealFits(n, _ int) bool { return uint64(n) <= maxBlocks*blockSize }

// SealBatch is AEAD.SealBatch for XAES-256-GCM.
func (x *xaes) SealBatch(msgs []batch.Message) { batchutil.Seal(x, xaesBatch, msgs) }

// OpenBatch is AEAD.OpenBatch for XAES-256-GCM.
func (x *xaes) OpenBatch(msgs []batch.Message) (allOK bool) {
	return batchutil.Open(x, xaesBatch, msgs)
}

var xaesBatch = batchutil.Spec{Pkg: "gcm", NonceSize: xaesNonceSize, TagSize: TagSize, Fits: sealFits}
