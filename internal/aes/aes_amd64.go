//go:build !purego

package aes

import (
	"encoding/binary"

	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
)

var (
	useAESNI   = cpu.X86HasAESNI
	useVAES256 = cpu.X86HasVAES256
	useVAES512 = cpu.X86HasVAES512
)

func init() {
	impl.Register("aes", "vaes512", &useVAES512)
	impl.Register("aes", "vaes256", &useVAES256)
	impl.Register("aes", "aesni", &useAESNI)
}

// Active reports the kernel family in use: the widest one enabled.
func Active() Level {
	switch {
	case useVAES512:
		return VAES512
	case useVAES256:
		return VAES256
	case useAESNI:
		return AESNI
	}
	return Generic
}

// The kernels below process n >= 1 whole blocks with the round keys xk of
// an nr-round key. See _asm/aes.go.

//go:noescape
func encryptBlocksAESNI(nr int, xk *[240]byte, dst, src *byte, n int)

//go:noescape
func decryptBlocksAESNI(nr int, xk *[240]byte, dst, src *byte, n int)

//go:noescape
func ctrBlocksAESNI(nr int, xk *[240]byte, dst, src *byte, n int, hi, lo uint64)

//go:noescape
func encryptBlocksVAES256(nr int, xk *[240]byte, dst, src *byte, n int)

//go:noescape
func decryptBlocksVAES256(nr int, xk *[240]byte, dst, src *byte, n int)

//go:noescape
func ctrBlocksVAES256(nr int, xk *[240]byte, dst, src *byte, n int, hi, lo uint64)

//go:noescape
func encryptBlocksVAES512(nr int, xk *[240]byte, dst, src *byte, n int)

//go:noescape
func decryptBlocksVAES512(nr int, xk *[240]byte, dst, src *byte, n int)

//go:noescape
func ctrBlocksVAES512(nr int, xk *[240]byte, dst, src *byte, n int, hi, lo uint64)

// expandKey uses the generic key schedule, which also builds b.bs.
func expandKey(b *Block, key []byte) { expandKeyGeneric(b, key) }

// encryptBlocks encrypts len(src)/16 blocks; len(dst) >= len(src).
func (b *Block) encryptBlocks(dst, src []byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	switch Active() {
	case VAES512:
		encryptBlocksVAES512(b.rounds, &b.enc, &dst[0], &src[0], n)
	case VAES256:
		encryptBlocksVAES256(b.rounds, &b.enc, &dst[0], &src[0], n)
	case AESNI:
		encryptBlocksAESNI(b.rounds, &b.enc, &dst[0], &src[0], n)
	default:
		encryptBlocksGeneric(b, dst, src)
	}
}

// decryptBlocks decrypts len(src)/16 blocks; len(dst) >= len(src).
func (b *Block) decryptBlocks(dst, src []byte) {
	n := len(src) / BlockSize
	if n == 0 {
		return
	}
	switch Active() {
	case VAES512:
		decryptBlocksVAES512(b.rounds, &b.dec, &dst[0], &src[0], n)
	case VAES256:
		decryptBlocksVAES256(b.rounds, &b.dec, &dst[0], &src[0], n)
	case AESNI:
		decryptBlocksAESNI(b.rounds, &b.dec, &dst[0], &src[0], n)
	default:
		decryptBlocksGeneric(b, dst, src)
	}
}

// ctr XORs src with the keystream from counter block iv into dst
// (len(dst) == len(src)) and returns the next counter block.
func (b *Block) ctr(dst, src []byte, iv [16]byte) [16]byte {
	l := Active()
	if l == Generic {
		return ctrGeneric(b, dst, src, iv)
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
	return iv
}

func (b *Block) ctrBlocks(l Level, dst, src *byte, n int, hi, lo uint64) {
	switch l {
	case VAES512:
		ctrBlocksVAES512(b.rounds, &b.enc, dst, src, n, hi, lo)
	case VAES256:
		ctrBlocksVAES256(b.rounds, &b.enc, dst, src, n, hi, lo)
	default:
		ctrBlocksAESNI(b.rounds, &b.enc, dst, src, n, hi, lo)
	}
}
