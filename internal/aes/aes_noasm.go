//go:build purego || !amd64

package aes

// Active reports the kernel family in use: always the portable code here.
func Active() Level { return Generic }

func expandKey(b *Block, key []byte) { expandKeyGeneric(b, key) }

func (b *Block) encryptBlocks(dst, src []byte) { encryptBlocksGeneric(b, dst, src) }

func (b *Block) decryptBlocks(dst, src []byte) { decryptBlocksGeneric(b, dst, src) }

func (b *Block) ctr(dst, src []byte, iv [16]byte) [16]byte { return ctrGeneric(b, dst, src, iv) }
