//go:build purego || !amd64

package raocb

import "github.com/faelabs/fae/internal/words"

// maskedWords returns E(in ^ Δ(x)) for the words of x and in.
func (a *AEAD) maskedWords(x, in words.Block) words.Block { return a.maskedWordsKernel(x, in) }

// prefetchRange has no portable form: the hardware prefetcher alone
// fetches the range.
func prefetchRange([]byte) {}

// messageKernel has no counterpart here: Seal and Open take the general
// path.
func (a *AEAD) messageKernel(direction, []byte, []byte, []byte) (words.Block, bool) {
	return words.Block{}, false
}
