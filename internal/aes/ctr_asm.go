//go:build (amd64 || arm64) && !purego

package aes

import "encoding/binary"

// ctr XORs src with the keystream from counter block *iv into dst
// (len(dst) == len(src)) and leaves the next counter block in *iv. The
// kernels (ctrBlocks) do not carry into the counter's high word, so the
// work is split where the low word wraps; a final partial block goes
// through a stack buffer.
func (b *Block) ctr(dst, src []byte, iv *[16]byte) {
	l := Active()
	if l == Generic {
		ctrGeneric(b, dst, src, iv)
		return
	}
	hi := binary.BigEndian.Uint64(iv[:8])
	lo := binary.BigEndian.Uint64(iv[8:])
	for len(src) >= BlockSize {
		// The kernels do not carry into hi: stop where lo wraps.
		n := len(src) / BlockSize
		if left := -lo; left != 0 && uint64(n) > left {
			n = int(left)
		}
		b.ctrBlocks(l, &dst[0], &src[0], n, hi, lo)
		src, dst = src[n*BlockSize:], dst[n*BlockSize:]
		lo += uint64(n)
		if lo == 0 {
			hi++
		}
	}
	if len(src) > 0 {
		var buf [BlockSize]byte
		copy(buf[:], src)
		b.ctrBlocks(l, &buf[0], &buf[0], 1, hi, lo)
		copy(dst, buf[:])
		lo++
		if lo == 0 {
			hi++
		}
	}
	binary.BigEndian.PutUint64(iv[:8], hi)
	binary.BigEndian.PutUint64(iv[8:], lo)
}
