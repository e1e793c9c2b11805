//go:build !purego && (amd64 || arm64 || arm)

package lea

// The glue between the exported block functions and the vector kernels
// of lea_amd64.go, lea_arm64.go and lea_arm.go, which give width and kernel.

type op int

const (
	encrypt op = iota
	decrypt
	ctr
)

// encryptBlocks encrypts len(src)/16 blocks; len(dst) >= len(src).
func (b *Block) encryptBlocks(dst, src []byte) { b.blocks(encrypt, dst, src, 0, 0) }

// decryptBlocks decrypts len(src)/16 blocks; len(dst) >= len(src).
func (b *Block) decryptBlocks(dst, src []byte) { b.blocks(decrypt, dst, src, 0, 0) }

// ctrBlocks XORs len(src)/16 blocks of src with the encryptions of the
// counter blocks hi||lo, hi||lo+1, ...; lo must not wrap.
func (b *Block) ctrBlocks(dst, src []byte, hi, lo uint64) { b.blocks(ctr, dst, src, hi, lo) }

// blocks runs the kernel on whole groups of its width; the rest, padded to
// one group in a stack buffer, goes through the kernel too, unless it is a
// single block, which the generic code does faster.
func (b *Block) blocks(o op, dst, src []byte, hi, lo uint64) {
	n := len(src) / BlockSize
	w := width()
	if w == 0 || n == 1 {
		b.generic(o, dst, src, hi, lo)
		return
	}
	full := n - n%w
	if full > 0 {
		b.kernel(o, dst, src, full, hi, lo)
	}
	if rest := n - full; rest == 1 {
		b.generic(o, dst[full*BlockSize:], src[full*BlockSize:], hi, lo+uint64(full))
	} else if rest > 0 {
		var buf [maxWidth * BlockSize]byte
		p := buf[:w*BlockSize]
		copy(p, src[full*BlockSize:])
		b.kernel(o, p, p, w, hi, lo+uint64(full))
		copy(dst[full*BlockSize:], p[:rest*BlockSize])
	}
}

func (b *Block) generic(o op, dst, src []byte, hi, lo uint64) {
	switch o {
	case encrypt:
		encryptBlocksGeneric(b, dst, src)
	case decrypt:
		decryptBlocksGeneric(b, dst, src)
	case ctr:
		ctrBlocksGeneric(b, dst, src, hi, lo)
	}
}
