package ccm

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
)

// SealBatch seals each message of msgs as Seal would, after checking them
// all, as batch.AEAD; it runs on the caller's goroutine.
func (a *AEAD) SealBatch(msgs []batch.Message) {
	s := a.batchSpec()
	if !a.lanes(len(msgs)) {
		batchutil.Seal(a, s, msgs)
		return
	}
	if _, ran := a.kernelBatch(msgs, false, s.CheckSeal(msgs)); !ran {
		a.goLanes(msgs, false)
	}
}

// OpenBatch opens each message of msgs as Open would, after checking them
// all, and reports whether all authenticated, as batch.AEAD; it runs on the
// caller's goroutine.
func (a *AEAD) OpenBatch(msgs []batch.Message) (allOK bool) {
	s := a.batchSpec()
	if !a.lanes(len(msgs)) {
		return batchutil.Open(a, s, msgs)
	}
	if allOK, ran := a.kernelBatch(msgs, true, s.CheckOpen(msgs)); ran {
		return allOK
	}
	return a.goLanes(msgs, true)
}

// lanes reports whether a batch of n messages runs in lanes, on a batch
// kernel or in Go (goLanes): over fae's LEA, or fae's AES and more than one
// message; else each message goes alone, through Seal or Open.
func (a *AEAD) lanes(n int) bool { return a.lea != nil || a.aes != nil && n > 1 }

func (a *AEAD) batchSpec() batchutil.Spec {
	return batchutil.Spec{Pkg: "ccm", NonceSize: a.nonceSize, TagSize: a.tagSize, MaxText: a.maxLen}
}
