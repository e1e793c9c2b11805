package raocb

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/ocbmode"
)

// SealBatch seals each message of msgs as Seal would, after checking them
// all, as batch.AEAD; it runs on the caller's goroutine, whatever
// WithParallelism set. With VAES on zmm registers, messages shorter than
// 4 KiB run 16 side by side, each in its own lane (batchutil.RunLanes);
// elsewhere each message takes its own call.
func (a *AEAD) SealBatch(msgs []batch.Message) {
	s := a.serialAEAD()
	if !s.batchLanes(encrypt, msgs) {
		batchutil.Seal(s, a.batchSpec(), msgs)
	}
}

// OpenBatch opens each message of msgs as Open would, after checking them
// all, and reports whether all authenticated, as batch.AEAD; it runs on the
// caller's goroutine, whatever WithParallelism set.
func (a *AEAD) OpenBatch(msgs []batch.Message) bool {
	s := a.serialAEAD()
	if !s.batchLanes(decrypt, msgs) {
		return batchutil.Open(s, a.batchSpec(), msgs)
	}
	allOK := true
	for i := range msgs {
		allOK = allOK && msgs[i].OK
	}
	return allOK
}

func (a *AEAD) batchSpec() batchutil.Spec {
	return batchutil.Spec{Pkg: "raocb", NonceSize: a.nonceSize, TagSize: a.tagSize, Fits: ocbmode.Fits}
}
