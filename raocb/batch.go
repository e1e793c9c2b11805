package raocb

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/ocbmode"
)

// SealBatch seals each message of msgs as Seal would, after checking them
// all, as batch.AEAD; it runs on the caller's goroutine, whatever
// WithParallelism set. With VAES on zmm registers, messages of up to 512
// bytes run 16 side by side, each in its own lane, a run of like ones'
// full groups in one call (batchutil.RunLanes); elsewhere each message
// takes its own call.
func (a *AEAD) SealBatch(msgs []batch.Message) {
	s := a.serialAEAD()
	if s.batchLanes(encrypt, msgs) {
		return
	}
	a.checkSeal(msgs)
	for i := range msgs {
		s.one(encrypt, &msgs[i])
	}
}

// OpenBatch opens each message of msgs as Open would, after checking them
// all, and reports whether all authenticated, as batch.AEAD; it runs on the
// caller's goroutine, whatever WithParallelism set.
func (a *AEAD) OpenBatch(msgs []batch.Message) bool {
	s := a.serialAEAD()
	if !s.batchLanes(decrypt, msgs) {
		spec := a.batchSpec()
		spec.CheckOpen(msgs)
		for i := range msgs {
			s.one(decrypt, &msgs[i])
		}
	}
	allOK := true
	for i := range msgs {
		allOK = allOK && msgs[i].OK
	}
	return allOK
}

func (a *AEAD) batchSpec() batchutil.Spec {
	return batchutil.Spec{Pkg: "raocb", NonceSize: a.nonceSize, TagSize: a.tagSize}
}

// checkSeal checks msgs for SealBatch (batchutil.Spec.CheckSeal): the
// plaintexts' bound by MaxText and the associated data's by ocbmode.Fits,
// a call per message, only where some message's may be past
// ocbmode.MaxPlainAD (the OR of the lengths, at least the longest, is), a
// bound that MaxAD cannot state (ADFits takes 16 GiB but not a byte less).
// The calls would cost a batch of 64-byte messages a quarter of its time.
func (a *AEAD) checkSeal(msgs []batch.Message) {
	spec := a.batchSpec()
	spec.MaxText = ocbmode.MaxText
	ads := 0
	for i := range msgs {
		ads |= len(msgs[i].AD)
	}
	if uint64(ads) > ocbmode.MaxPlainAD {
		spec.Fits = ocbmode.Fits
	}
	spec.CheckSeal(msgs)
}

// one seals or opens m, checked, alone, setting OK when opening: below Seal
// and Open, whose checks the batch has done. A text to open too short for
// a tag, or too long, fails.
func (a *AEAD) one(d direction, m *batch.Message) {
	if d == encrypt {
		n := len(m.In)
		a.seal(m.Out[:n], m.Nonce, m.In, m.AD).Put(m.Out[n:])
		return
	}
	n := len(m.In) - a.tagSize
	m.OK = n >= 0 && ocbmode.RangeFits(0, uint64(n)) && ocbmode.ADFits(uint64(len(m.AD))) &&
		a.open(m.Out, m.Nonce, m.In[:n], m.AD).Matches(m.In[n:])
	if !m.OK {
		clear(m.Out)
	}
}
