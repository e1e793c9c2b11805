//go:build !purego

package gcm

import (
	"math/bits"

	"github.com/faelabs/fae/internal/cpu"
	"github.com/faelabs/fae/internal/impl"
)

// The kernel contract. A kernel family offers, for n >= 1 whole blocks:
//
//	init(h0, h1 uint64, key *kernelKey, n int)
//	    fills key from H' (kernelH) with the powers H^1..H^n, n in
//	    2..numPowers: as many as the family multiplies by (its blocks per
//	    group); key's other powers stay unset.
//	ghash(key *kernelKey, src *byte, n int, y0, y1 uint64) (r0, r1 uint64)
//	    absorbs blocks src[0..n) into the GHASH state y0, y1 and returns it.
//	mulH(key *kernelKey, y0, y1 uint64) (r0, r1 uint64)
//	    returns y·H: the Go side absorbs a block it holds in registers (a
//	    last partial block, the lengths) by XORing it into y first.
//	seal(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)
//	    dst[i] = src[i] ^ E(counter block i), then absorbs dst[0..n).
//	open(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)
//	    absorbs src[0..n), then dst[i] = src[i] ^ E(counter block i).
//
// The GHASH state, the blocks of mulH and the first counter block travel as
// words (see block); counter block i is ctr0, ctr1 with i added to the big-endian 32-bit
// counter in its last four bytes, modulo 2^32 (the bytes before it never
// change). nr (10, 12 or 14) and rk are the AES key's rounds and encryption
// round keys (aes.Block.Rounds, EncKeys). dst and src may be the same memory
// but must not overlap otherwise; a kernel reads each source block before it
// writes the block at the same index. The Go side calls with at most
// maxKernelBlocks blocks and handles everything else: J0, the associated
// data's and the message's last partial blocks (zero padded) and the
// lengths block (through mulH), and the tag.
//
// Every family that multiplies carry-lessly keeps H in one layout,
// kernelKey, filled by initAESNI (every CPU with VAES or VPCLMULQDQ has
// PCLMULQDQ too). A new family adds its kernel constant, its availability
// to chooseKernel and impl, and its cases to ghash, mulH and cryptBlocks.

var useAESNI = cpu.X86HasAESNI && cpu.X86HasPCLMULQDQ && cpu.X86HasAVX

func init() {
	impl.Register("gcm", "aesni", &useAESNI)
}

// kernel names a kernel family.
type kernel int

const (
	genericKernel kernel = iota
	aesniKernel          // AES-NI and PCLMULQDQ with AVX encodings, 8 blocks stitched (gcm_amd64.s)
)

// powers[k] is how many powers of H family k multiplies by.
var powers = [...]int{aesniKernel: 8}

// chooseKernel returns the fastest family enabled.
func chooseKernel() kernel {
	if useAESNI {
		return aesniKernel
	}
	return genericKernel
}

// numPowers is how many powers of H kernelKey holds.
const numPowers = 16

// kernelKey holds H^numPowers..H^1 for the carry-less-multiply kernels, then
// their Karatsuba operands in the same order: key[numPowers-k] is H^k and
// key[2*numPowers-k] the XOR of its two halves, in both halves. Highest
// first, block i of a group of g blocks, multiplied by H^(g-i), finds its
// power at index numPowers-g+i, and vector loads match consecutive blocks.
// A power p is stored as p·x^-1 mod P, bit-reflected, as a 128-bit
// little-endian integer: the form in which the product of a byte-reversed
// block and a stored power, by PCLMULQDQ, is their field product, reflected,
// with no shift (Gueron and Kounavis, "Intel Carry-Less Multiplication
// Instruction and its Usage for Computing the GCM Mode", 2014).
type kernelKey [2 * numPowers][16]byte

// kernelH returns H·x^-1 mod P, bit-reflected, as the low and high words
// of a 128-bit integer. Reflected, multiplying by x^-1 is a left shift; the
// bit shifted out, x^0, comes back as x^-1 = x^127 + x^6 + x + 1, reflected
// 0xc2000000000000000000000000000001.
func kernelH(h block) (lo, hi uint64) {
	hi, lo = bits.ReverseBytes64(h.w0), bits.ReverseBytes64(h.w1)
	carry := -(hi >> 63)
	hi = (hi<<1 | lo>>63) ^ carry&0xc200000000000000
	lo = lo<<1 ^ carry&1
	return lo, hi
}

//go:noescape
func initAESNI(h0, h1 uint64, key *kernelKey, n int)

//go:noescape
func ghashAESNI(key *kernelKey, src *byte, n int, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func mulHAESNI(key *kernelKey, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func sealAESNI(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

//go:noescape
func openAESNI(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)

func (a *AEAD) initKernel(h block) {
	a.kern = chooseKernel()
	if a.kern != genericKernel {
		lo, hi := kernelH(h)
		initAESNI(lo, hi, &a.key, powers[a.kern])
	}
}

// ghash absorbs the whole blocks of src (at least one) into y.
func (a *AEAD) ghash(y *block, src []byte) {
	switch a.kern {
	case aesniKernel:
		y.w0, y.w1 = ghashAESNI(&a.key, &src[0], len(src)/blockSize, y.w0, y.w1)
	default:
		a.h.update(y, src)
	}
}

// mulH returns y·H.
func (a *AEAD) mulH(y block) block {
	switch a.kern {
	case aesniKernel:
		y.w0, y.w1 = mulHAESNI(&a.key, y.w0, y.w1)
		return y
	default:
		return a.h.mulBlock(y)
	}
}

// cryptBlocks seals (sealOp) or opens (openOp) whole blocks, at least one,
// from counter c of j, absorbing the ciphertext into y: on the family's
// fused kernel with fae's AES, else by the cipher's counter mode and the
// family's ghash.
func (a *AEAD) cryptBlocks(o op, dst, src []byte, j counter, c uint32, y *block) {
	x, n := j.at(c), len(src)/blockSize
	switch {
	case a.kind == aesCipher && a.kern == aesniKernel && o == sealOp:
		y.w0, y.w1 = sealAESNI(a.block.Rounds(), a.block.EncKeys(), &a.key, &dst[0], &src[0], n, x.w0, x.w1, y.w0, y.w1)
	case a.kind == aesCipher && a.kern == aesniKernel:
		y.w0, y.w1 = openAESNI(a.block.Rounds(), a.block.EncKeys(), &a.key, &dst[0], &src[0], n, x.w0, x.w1, y.w0, y.w1)
	default:
		a.cryptGeneric(o, dst, src, j, c, y)
	}
}
