package ocb

import (
	"crypto/cipher"
	"encoding/binary"
	"math/bits"
)

// blocksGeneric is the portable kernel: it computes the offsets of blocks
// i+1, i+2, ... (any i) and hands the block cipher many blocks per call.
func (a *AEAD) blocksGeneric(d direction, dst, src []byte, off, sum *[blockSize]byte, i uint64) {
	const chunk = 32
	var buf [chunk * blockSize]byte
	var offs [chunk][blockSize]byte
	for len(src) > 0 {
		n := min(len(src), len(buf))
		in := src[:n]
		for j := range n / blockSize {
			i++
			*off = xor(*off, a.lAt(bits.TrailingZeros64(i)))
			offs[j] = *off
			xorInto(buf[j*blockSize:], in[j*blockSize:], off[:])
		}
		if d == encrypt {
			xorBlocksInto(sum, in) // before dst, which may be src, is written
		}
		if d == decrypt {
			a.decryptBlocks(buf[:n], buf[:n])
		} else {
			a.encryptBlocks(buf[:n], buf[:n])
		}
		if d == hash {
			xorBlocksInto(sum, buf[:n])
		} else {
			for j := range n / blockSize {
				xorInto(dst[j*blockSize:], buf[j*blockSize:], offs[j][:])
			}
			if d == decrypt {
				xorBlocksInto(sum, dst[:n])
			}
			dst = dst[n:]
		}
		src = src[n:]
	}
}

// xorInto sets the first block of dst to the XOR of the first blocks of x
// and y.
func xorInto(dst, x, y []byte) {
	le := binary.LittleEndian
	le.PutUint64(dst[:8], le.Uint64(x[:8])^le.Uint64(y[:8]))
	le.PutUint64(dst[8:16], le.Uint64(x[8:16])^le.Uint64(y[8:16]))
}

// xorBlocksInto XORs the whole blocks of p into sum.
func xorBlocksInto(sum *[blockSize]byte, p []byte) {
	le := binary.LittleEndian
	s0, s1 := le.Uint64(sum[:8]), le.Uint64(sum[8:])
	for ; len(p) >= blockSize; p = p[blockSize:] {
		s0 ^= le.Uint64(p[:8])
		s1 ^= le.Uint64(p[8:16])
	}
	le.PutUint64(sum[:8], s0)
	le.PutUint64(sum[8:], s1)
}

// oneByOne gives a plain cipher.Block the multi-block methods.
type oneByOne struct{ cipher.Block }

func (b oneByOne) EncryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += blockSize {
		b.Encrypt(dst[i:], src[i:])
	}
}

func (b oneByOne) DecryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += blockSize {
		b.Decrypt(dst[i:], src[i:])
	}
}
