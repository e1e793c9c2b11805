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

// checkSeal checks msgs for SealBatch (batchutil.Spec.CheckSeal) and
// returns their Spans: ocbmode.Fits, a call per message, only where some
// text or associated data is past ocbmode.MaxText or ocbmode.MaxPlainAD,
// up to which it takes all (ADFits takes 16 GiB but not a byte less). The
// calls would cost a batch of 64-byte messages a quarter of its time.
func (a *AEAD) checkSeal(msgs []batch.Message) batchutil.Spans {
	spec := a.batchSpec()
	spec.Fits, spec.MaxText, spec.MaxAD = ocbmode.Fits, ocbmode.MaxText, ocbmode.MaxPlainAD
	return spec.CheckSeal(msgs)
}

// one seals or opens m, checked, alone, setting OK when opening: Seal and
// Open below their checks, which the batch has done, the message kernel
// called here as they call it (through seal or a shared body, a frame more,
// it cost batches of messages that go alone 2-5% over single calls). A text
// to open too short for a tag, or too long, fails.
func (a *AEAD) one(d direction, m *batch.Message) {
	n := len(m.In)
	if d == decrypt {
		n -= a.tagSize
		if n < 0 || !ocbmode.RangeFits(0, uint64(n)) || !ocbmode.ADFits(uint64(len(m.AD))) {
			m.OK = false
			clear(m.Out)
			return
		}
	}
	out, in := m.Out[:n], m.In[:n]
	t, ok := a.messageKernel(d, out, m.Nonce, in)
	if !ok {
		t = a.messageSteps(d, out, m.Nonce, in)
	}
	if len(m.AD) > 0 {
		t = t.Xor(a.hash(m.AD))
	}
	if d == encrypt {
		t.Put(m.Out[n:])
		return
	}
	if m.OK = t.Matches(m.In[n:]); !m.OK {
		clear(m.Out)
	}
}
