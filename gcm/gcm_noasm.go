//go:build purego || !amd64

package gcm

// Only the portable kernel exists here: it needs no per-kernel state.
type (
	kernel    struct{}
	kernelKey struct{}
)

func (a *AEAD) initKernel(block, int) {}

func (a *AEAD) ghash(y *block, src []byte) { a.h.update(y, src) }

func (a *AEAD) mulH(y block) block { return a.h.mulBlock(y) }

func (a *AEAD) cryptBlocks(o op, dst, src []byte, j counter, c uint32, y *block) {
	a.cryptGeneric(o, dst, src, j, c, y)
}

func (a *AEAD) hasMessage(n, adLen int) bool { return false }

func (a *AEAD) message(op, []byte, []byte, []byte, counter) (block, bool) { return block{}, false }
