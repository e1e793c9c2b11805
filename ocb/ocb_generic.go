package ocb

import (
	"crypto/cipher"
	"crypto/subtle"
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
			subtle.XORBytes(buf[j*blockSize:], in[j*blockSize:(j+1)*blockSize], off[:])
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
				subtle.XORBytes(dst[j*blockSize:], buf[j*blockSize:(j+1)*blockSize], offs[j][:])
			}
			if d == decrypt {
				xorBlocksInto(sum, dst[:n])
			}
			dst = dst[n:]
		}
		src = src[n:]
	}
}

// xorBlocksInto XORs the whole blocks of p into sum.
func xorBlocksInto(sum *[blockSize]byte, p []byte) {
	for ; len(p) >= blockSize; p = p[blockSize:] {
		subtle.XORBytes(sum[:], sum[:], p[:blockSize])
	}
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
