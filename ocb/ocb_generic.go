package ocb

import (
	"crypto/cipher"
	"math/bits"

	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/words"
)

// blocksGeneric is the portable kernel: it computes the offsets of blocks
// i+1, i+2, ... (any i) and hands the block cipher many blocks per call.
func (a *AEAD) blocksGeneric(d direction, dst, src []byte, off, sum *words.Block, i uint64) {
	const chunk = 32
	var buf [chunk * blockSize]byte
	var offs [chunk]words.Block
	for len(src) > 0 {
		n := min(len(src), len(buf))
		in := src[:n]
		for j := range n / blockSize {
			i++
			*off = off.Xor(ocbmode.LAt(&a.l, bits.TrailingZeros64(i)))
			offs[j] = *off
			x := words.Load(in[j*blockSize:])
			if d == encrypt {
				*sum = sum.Xor(x) // before dst, which may be src, is written
			}
			x.Xor(*off).Store(buf[j*blockSize:])
		}
		if d == decrypt {
			a.decryptBlocks(buf[:n], buf[:n])
		} else {
			a.encryptBlocks(buf[:n], buf[:n])
		}
		for j := range n / blockSize {
			y := words.Load(buf[j*blockSize:])
			switch d {
			case hash:
				*sum = sum.Xor(y)
			case decrypt:
				y = y.Xor(offs[j])
				*sum = sum.Xor(y)
				y.Store(dst[j*blockSize:])
			default:
				y.Xor(offs[j]).Store(dst[j*blockSize:])
			}
		}
		if d != hash {
			dst = dst[n:]
		}
		src = src[n:]
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
