package gcm

import (
	"crypto/subtle"
	"encoding/binary"
	"math/bits"

	"github.com/faelabs/fae/internal/words"
)

// The portable kernel: GHASH by integer multiplications, without tables or
// branches on secret data, and counter mode over the block cipher.
//
// GHASH multiplies in GF(2^128) modulo P = x^128 + x^7 + x^2 + x + 1, a block
// standing for the polynomial whose coefficient of x^i is bit 7 - i%8 of byte
// i/8. Read as two big-endian words ("reflected" words), bit 63 - i of the
// first holds the coefficient of x^i; reversed, bit i does ("normal" words).
//
// A carry-less product of 64-bit words comes from ordinary multiplications
// (bmul64, after Pornin's BearSSL ghash_ctmul64): each operand is split into
// four masks of every fourth bit, and the sixteen products of masks are
// summed so that each bit kept collects the parity of its terms. A 128-bit
// product takes three such products by Karatsuba for its low halves, and
// three more of the reflected words for its high halves: the low word of the
// product of two reversed words is the reversed high word of their product,
// shifted by one bit.

// fieldKey is a multiplier, prepared for mul: its halves in both bit orders.
type fieldKey struct {
	lo, hi, mid    uint64 // normal words of coefficients 0..63 and 64..127; mid = lo ^ hi
	loR, hiR, midR uint64 // the same, reflected
}

// newFieldKey prepares h, a block in memory order (words.Block).
func newFieldKey(h words.Block) fieldKey {
	loR, hiR := bits.ReverseBytes64(h.W0), bits.ReverseBytes64(h.W1)
	lo, hi := bits.Reverse64(loR), bits.Reverse64(hiR)
	return fieldKey{lo, hi, lo ^ hi, loR, hiR, loR ^ hiR}
}

// block returns the multiplier as a block in memory order.
func (k *fieldKey) block() words.Block {
	return words.Block{W0: bits.ReverseBytes64(k.loR), W1: bits.ReverseBytes64(k.hiR)}
}

// bmul64 returns the low 64 bits of the carry-less product of x and y. In a
// product of two masks at most 15 terms fall on one kept bit, whose sum fits
// below the next kept bit, except in the word's top four bits, where 16 may,
// whose carry leaves the word: no carry reaches another kept bit.
func bmul64(x, y uint64) uint64 {
	const (
		m0 = 0x1111111111111111
		m1 = 0x2222222222222222
		m2 = 0x4444444444444444
		m3 = 0x8888888888888888
	)
	x0, x1, x2, x3 := x&m0, x&m1, x&m2, x&m3
	y0, y1, y2, y3 := y&m0, y&m1, y&m2, y&m3
	z0 := x0*y0 ^ x1*y3 ^ x2*y2 ^ x3*y1
	z1 := x0*y1 ^ x1*y0 ^ x2*y3 ^ x3*y2
	z2 := x0*y2 ^ x1*y1 ^ x2*y0 ^ x3*y3
	z3 := x0*y3 ^ x1*y2 ^ x2*y1 ^ x3*y0
	return z0&m0 | z1&m1 | z2&m2 | z3&m3
}

// mul returns y·k for y as reflected words.
func (k *fieldKey) mul(y0, y1 uint64) (uint64, uint64) {
	yl, yh := bits.Reverse64(y0), bits.Reverse64(y1)
	// The three Karatsuba products, each as two reflected words: the
	// reversed low word of the normal product, and the low word of the
	// reflected product shifted into place.
	p0l, p0h := bits.Reverse64(bmul64(yl, k.lo)), bmul64(y0, k.loR)<<1
	p1l, p1h := bits.Reverse64(bmul64(yh, k.hi)), bmul64(y1, k.hiR)<<1
	p2l, p2h := bits.Reverse64(bmul64(yl^yh, k.mid)), bmul64(y0^y1, k.midR)<<1
	p2l ^= p0l ^ p1l
	p2h ^= p0h ^ p1h
	// The 255-bit product as reflected words w0 (x^0..x^63) to w3, reduced
	// by x^128 = x^7 + x^2 + x + 1: a shift toward higher powers is a right
	// shift of reflected words.
	w0, w1, w2, w3 := p0l, p0h^p2l, p1l^p2h, p1h
	w1 ^= w3 ^ w3>>1 ^ w3>>2 ^ w3>>7
	w2 ^= w3<<63 ^ w3<<62 ^ w3<<57
	w0 ^= w2 ^ w2>>1 ^ w2>>2 ^ w2>>7
	w1 ^= w2<<63 ^ w2<<62 ^ w2<<57
	return w0, w1
}

// update absorbs the whole blocks of src into the GHASH state y:
// y = (y ^ block)·H for each block.
func (k *fieldKey) update(y *words.Block, src []byte) {
	y0, y1 := bits.ReverseBytes64(y.W0), bits.ReverseBytes64(y.W1)
	for ; len(src) >= blockSize; src = src[blockSize:] {
		y0 ^= binary.BigEndian.Uint64(src[:8])
		y1 ^= binary.BigEndian.Uint64(src[8:16])
		y0, y1 = k.mul(y0, y1)
	}
	y.W0, y.W1 = bits.ReverseBytes64(y0), bits.ReverseBytes64(y1)
}

// mulBlock returns x·k.
func (k *fieldKey) mulBlock(x words.Block) words.Block {
	w0, w1 := k.mul(bits.ReverseBytes64(x.W0), bits.ReverseBytes64(x.W1))
	return words.Block{W0: bits.ReverseBytes64(w0), W1: bits.ReverseBytes64(w1)}
}

// mulBlocks returns x·y.
func mulBlocks(x, y words.Block) words.Block {
	k := newFieldKey(y)
	return k.mulBlock(x)
}

// power returns h^e for e >= 1.
func power(h words.Block, e uint64) words.Block {
	p := h
	for i := bits.Len64(e) - 2; i >= 0; i-- {
		p = mulBlocks(p, p)
		if e>>i&1 != 0 {
			p = mulBlocks(p, h)
		}
	}
	return p
}

// genericChunk is how many bytes the portable kernel encrypts before it
// hashes them (or hashes before it decrypts them): they stay in L1 between.
const genericChunk = 4096

// cryptGeneric seals (sealOp: encrypts, then hashes the output) or opens
// (openOp: hashes, then decrypts) whole blocks with the counter blocks c,
// c+1, ... of j, a chunk at a time.
func (a *AEAD) cryptGeneric(o op, dst, src []byte, j counter, c uint32, y *words.Block) {
	for len(src) > 0 {
		n := min(len(src), genericChunk)
		if o == openOp {
			a.ghash(y, src[:n])
		}
		a.ctr(dst[:n], src[:n], j, c)
		if o == sealOp {
			a.ghash(y, dst[:n])
		}
		dst, src = dst[n:], src[n:]
		c += uint32(n / blockSize)
	}
}

// ctr XORs whole blocks of src with the encryptions of the counter blocks c,
// c+1, ... of j into dst. GCM's 32-bit counter wraps where the engines'
// counters would carry into the bytes before it, so calls stop there.
func (a *AEAD) ctr(dst, src []byte, j counter, c uint32) {
	for len(src) > 0 {
		n := int(min(uint64(len(src)/blockSize), 1<<32-uint64(c)))
		k := n * blockSize
		x := j.at(c)
		switch a.kind {
		case aesCipher:
			var iv [blockSize]byte
			x.Store(iv[:])
			a.block.XORKeyStreamAt(dst[:k], src[:k], &iv)
		case leaCipher:
			a.lea.CTRBlocks(dst[:k], src[:k], bits.ReverseBytes64(x.W0), bits.ReverseBytes64(x.W1))
		default:
			a.ctrOther(dst[:k], src[:k], j, c)
		}
		dst, src = dst[k:], src[k:]
		c += uint32(n)
	}
}

// ctrOther is ctr over a plain cipher.Block, one block per call into a
// buffer that escapes through the interface anyway.
func (a *AEAD) ctrOther(dst, src []byte, j counter, c uint32) {
	ks := make([]byte, min(len(src), 32*blockSize))
	for len(src) > 0 {
		n := min(len(src), len(ks))
		for i := 0; i < n; i += blockSize {
			j.at(c).Store(ks[i:])
			a.b.Encrypt(ks[i:], ks[i:])
			c++
		}
		subtle.XORBytes(dst, src[:n], ks[:n])
		dst, src = dst[n:], src[n:]
	}
}
