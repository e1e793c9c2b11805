//go:build purego || !(amd64 || arm64)

package aes

// Active reports the kernel family in use: always the portable code here.
func Active() Level { return Generic }

func expandKey(b *Block, key []byte) { expandKeyGeneric(b, key) }

func (b *Block) encryptBlocks(dst, src []byte) { encryptBlocksGeneric(b, dst, src) }

func (b *Block) decryptBlocks(dst, src []byte) { decryptBlocksGeneric(b, dst, src) }

func (b *Block) ctr(dst, src []byte, iv *[16]byte) { ctrGeneric(b, dst, src, iv) }

func (b *Block) encryptWords(w0, w1 uint64) (uint64, uint64) { return encryptWordsGeneric(b, w0, w1) }
