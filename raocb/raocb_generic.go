package raocb

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/faelabs/fae/internal/aes"
)

// blocksGeneric is the portable kernel: it computes the masks of 32 blocks
// at a time with the bitsliced Δ below and hands the block cipher all of
// them in one call. It processes the whole blocks of src; block j uses
// Δ(x ⊞ j) = Δ(X, i+j) for x = X ⊞ i.
func (a *AEAD) blocksGeneric(d direction, dst, src []byte, x, sum *[blockSize]byte) {
	const chunk = 32
	var buf, masks [chunk * blockSize]byte
	xi := *x
	for len(src) > 0 {
		n := min(len(src), len(buf))
		a.masks(masks[:n], xi)
		xi = addIndex(xi, uint64(n/blockSize))
		if d == encrypt {
			xorBlocksInto(sum, src[:n]) // before dst, which may be src, is written
		}
		subtle.XORBytes(buf[:n], src[:n], masks[:n])
		if d == decrypt {
			a.b.DecryptBlocks(buf[:n], buf[:n])
		} else {
			a.b.EncryptBlocks(buf[:n], buf[:n])
		}
		if d == hash {
			xorBlocksInto(sum, buf[:n])
		} else {
			subtle.XORBytes(dst[:n], buf[:n], masks[:n])
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

// masks fills out, len(out)/16 blocks, with Δ(x ⊞ 0), Δ(x ⊞ 1), ..., four
// at a time: Δ(y) = AESENC(AESENC(y, R1), R2) on internal/aes's
// constant-time bitsliced rounds.
func (a *AEAD) masks(out []byte, x [blockSize]byte) {
	for len(out) > 0 {
		var b [4][2]uint64
		for k := range b {
			xk := addIndex(x, uint64(k))
			b[k][0], b[k][1] = binary.LittleEndian.Uint64(xk[:8]), binary.LittleEndian.Uint64(xk[8:])
		}
		x = addIndex(x, 4)
		aes.Rounds4(&b, a.mgfKeys[:])
		for k := 0; k < 4 && len(out) > 0; k++ {
			binary.LittleEndian.PutUint64(out, b[k][0])
			binary.LittleEndian.PutUint64(out[8:], b[k][1])
			out = out[blockSize:]
		}
	}
}
