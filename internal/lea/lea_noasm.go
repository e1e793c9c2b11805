//go:build purego || !(amd64 || arm64 || arm)

package lea

func (b *Block) encryptBlocks(dst, src []byte) { encryptBlocksGeneric(b, dst, src) }

func (b *Block) decryptBlocks(dst, src []byte) { decryptBlocksGeneric(b, dst, src) }

func (b *Block) encryptWords(w0, w1 uint64) (uint64, uint64) { return encryptWordsGeneric(b, w0, w1) }

func (b *Block) ctrBlocks(dst, src []byte, hi, lo uint64) { ctrBlocksGeneric(b, dst, src, hi, lo) }
