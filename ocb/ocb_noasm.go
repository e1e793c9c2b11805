//go:build purego || !(amd64 || arm64)

package ocb

import "github.com/faelabs/fae/internal/words"

func (a *AEAD) kernel(d direction, dst, src []byte, off, sum *words.Block, i uint64) {
	a.blocksGeneric(d, dst, src, off, sum, i)
}

// hasKernels reports whether a's blocks run on assembly kernels: never here.
func (a *AEAD) hasKernels() bool { return false }

// messageKernel reports that there is no message kernel here.
func (a *AEAD) messageKernel(d direction, out, nonce, src, ad []byte) (words.Block, bool) {
	return words.Block{}, false
}
