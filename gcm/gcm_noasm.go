//go:build purego || !(amd64 || arm64)

package gcm

import "github.com/faelabs/fae/internal/words"

// Only the portable kernel exists here: it needs no per-kernel state.
type (
	kernel    struct{}
	kernelKey struct{}
)

func (a *AEAD) initKernel(words.Block, int) {}

func (a *AEAD) ghash(y *words.Block, src []byte) { a.h.update(y, src) }

func (a *AEAD) mulH(y words.Block) words.Block { return a.h.mulBlock(y) }

func (a *AEAD) cryptBlocks(o op, dst, src []byte, j counter, c uint32, y *words.Block) {
	a.cryptGeneric(o, dst, src, j, c, y)
}

func (a *AEAD) hasMessage(n, adLen int) bool { return false }

func (a *AEAD) message(op, []byte, []byte, []byte, counter) (words.Block, bool) {
	return words.Block{}, false
}
