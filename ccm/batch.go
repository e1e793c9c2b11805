package ccm

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
)

// SealBatch seals each message of msgs as Seal would, after checking them
// all, as batch.AEAD; it runs on the caller's goroutine.
func (a *AEAD) SealBatch(msgs []batch.Message) {
	if a.lea != nil {
		s := a.batchSpec()
		s.CheckSeal(msgs)
		a.leaBatch(msgs, false)
		return
	}
	a.sealBatch(msgs)
}

// OpenBatch opens each message of msgs as Open would, after checking them
// all, and reports whether all authenticated, as batch.AEAD; it runs on the
// caller's goroutine.
func (a *AEAD) OpenBatch(msgs []batch.Message) (allOK bool) {
	if a.lea != nil {
		s := a.batchSpec()
		s.CheckOpen(msgs)
		return a.leaBatch(msgs, true)
	}
	return a.openBatch(msgs)
}

func (a *AEAD) batchSpec() batchutil.Spec {
	return batchutil.Spec{Pkg: "ccm", NonceSize: a.nonceSize, TagSize: a.tagSize, Fits: func(n, _ int) bool { return uint64(n) <= a.maxLen }}
}
