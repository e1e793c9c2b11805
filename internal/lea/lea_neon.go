//go:build !purego && (arm || arm64)

package lea

// What the NEON kernels of lea_arm64.go and lea_arm.go share: both take
// blocks in sets of four, while useNEON.

// maxWidth is the number of blocks the kernels take at once.
const maxWidth = 4

// width returns the blocks per call of the kernel, or 0 for the generic
// code.
func width() int {
	if useNEON {
		return maxWidth
	}
	return 0
}

// encryptWords stays in Go: one block has no parallelism for NEON, and the
// compiler's general-register code (EOR, ADD, ROR) is what assembly would be.
func (b *Block) encryptWords(w0, w1 uint64) (uint64, uint64) { return encryptWordsGeneric(b, w0, w1) }
