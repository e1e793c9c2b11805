//go:build purego || !amd64

package ccm

import (
	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
)

// kernelBatch reports that no batch kernel ran: there is none here.
func (a *AEAD) kernelBatch([]batch.Message, bool, batchutil.Spans) (allOK, ran bool) {
	return false, false
}

func (a *AEAD) macBlocks(s *state, src []byte) { a.macGeneric(s, src) }

func (a *AEAD) sealBlocks(s *state, dst, src []byte) { a.sealGeneric(s, dst, src) }

func (a *AEAD) openBlocks(s *state, dst, src []byte) { a.openGeneric(s, dst, src) }
