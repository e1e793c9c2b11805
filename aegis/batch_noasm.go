//go:build purego || !amd64

package aegis

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
)

func (a *AEAD) sealBatch(msgs []batch.Message) { batchutil.Seal(a, a.batchSpec(), msgs) }

func (a *AEAD) openBatch(msgs []batch.Message) bool { return batchutil.Open(a, a.batchSpec(), msgs) }
