package aegis

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
)

// SealBatch seals each message of msgs as Seal would, after checking them
// all, as batch.AEAD; it runs on the caller's goroutine.
func (a *AEAD) SealBatch(msgs []batch.Message) { a.sealBatch(msgs) }

// OpenBatch opens each message of msgs as Open would, after checking them
// all, and reports whether all authenticated, as batch.AEAD; it runs on the
// caller's goroutine.
func (a *AEAD) OpenBatch(msgs []batch.Message) (allOK bool) { return a.openBatch(msgs) }

func (a *AEAD) batchSpec() batchutil.Spec {
	return batchutil.Spec{Pkg: "aegis", NonceSize: a.v.keySize, TagSize: a.tagSize, MaxText: maxLen, MaxAD: maxLen}
}
