//go:build !purego && (amd64 || arm64)

package gcm

import (
	"math/bits"

	"github.com/faelabs/fae/internal/words"
)

// The kernel contract, which the families of gcm_amd64.go and gcm_arm64.go
// keep, each architecture with its own layout of H's powers, kernelKey. A
// kernel family offers, for n >= 1 whole blocks:
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
// words (internal/words); counter block i is ctr0, ctr1 with i added to the
// big-endian 32-bit counter in its last four bytes, modulo 2^32 (the bytes
// before it never change). nr (10, 12 or 14) and rk are the AES key's rounds
// and encryption round keys (aes.Block.Rounds, EncKeys). dst and src may be
// the same memory but must not overlap otherwise; a kernel reads each source
// block before it writes the block at the same index. The Go side calls with at most
// maxKernelBlocks blocks and handles everything else: J0, the associated
// data's and the message's last partial blocks (zero padded) and the
// lengths block (through mulH), and the tag.
//
// A family may also offer message kernels, which take all of that in one
// call for a message and associated data of at most maxKernelBlocks blocks
// each (short messages are then one call, not five or six):
//
//	sealMsg(nr int, rk *[240]byte, key *kernelKey, dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)
//	    dst[0..n) = CTR(src[0..n)) from the counter block after J0 (j0,
//	    j1), and returns the full tag over adLen bytes at ad and dst.
//	openMsg(...same...) (t0, t1 uint64)
//	    returns the full tag over adLen bytes at ad and src[0..n), and
//	    writes dst[0..n) = CTR(src[0..n)).
//
// n and adLen count bytes; nothing past them is read or written.
//

// kernelH returns H·x^-1 mod P, bit-reflected, as the low and high words
// of a 128-bit integer. Reflected, multiplying by x^-1 is a left shift; the
// bit shifted out, x^0, comes back as x^-1 = x^127 + x^6 + x + 1, reflected
// 0xc2000000000000000000000000000001.
func kernelH(h words.Block) (lo, hi uint64) {
	hi, lo = bits.ReverseBytes64(h.W0), bits.ReverseBytes64(h.W1)
	carry := -(hi >> 63)
	hi = (hi<<1 | lo>>63) ^ carry&0xc200000000000000
	lo = lo<<1 ^ carry&1
	return lo, hi
}
