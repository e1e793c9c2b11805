//go:build purego || !amd64

package ccm

func (a *AEAD) macBlocks(s *state, src []byte) { a.macGeneric(s, src) }

func (a *AEAD) sealBlocks(s *state, dst, src []byte) { a.sealGeneric(s, dst, src) }

func (a *AEAD) openBlocks(s *state, dst, src []byte) { a.openGeneric(s, dst, src) }
