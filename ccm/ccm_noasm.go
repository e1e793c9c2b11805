//go:build purego || !amd64

package ccm

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
)

func (a *AEAD) sealBatch(msgs []batch.Message) { batchutil.Seal(a, a.batchSpec(), msgs) }

func (a *AEAD) openBatch(msgs []batch.Message) bool { return batchutil.Open(a, a.batchSpec(), msgs) }

func (a *AEAD) macBlocks(s *state, src []byte) { a.macGeneric(s, src) }

func (a *AEAD) sealBlocks(s *state, dst, src []byte) { a.sealGeneric(s, dst, src) }

func (a *AEAD) openBlocks(s *state, dst, src []byte) { a.openGeneric(s, dst, src) }
