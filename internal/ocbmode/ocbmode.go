// Package ocbmode is the part of OCB3 (RFC 7253) and RAOCB (docs/raocb.md)
// that does not depend on how whole blocks are processed: the formatted
// nonce, Offset_0 and the L_i, RAOCB's ⊞ and the indices of its last
// blocks, the padding of a final partial block, and the modes' limits on
// lengths. Packages ocb, raocb and gpu take these from here, each with its
// own whole-block kernels, so that the CPU and GPU code agree on every byte
// and accept the same inputs.
//
// Blocks are words.Block, the form in which the CPU packages keep them in
// registers.
package ocbmode

import (
	"math/bits"

	"github.com/faelabs/fae/internal/ocbnonce"
	"github.com/faelabs/fae/internal/words"
)

// Nonce returns the formatted nonce block of RFC 7253, Section 4.2, for a
// tag of tagSize bytes: RAOCB's B is its encryption.
func Nonce(nonce []byte, tagSize int) words.Block {
	hi, lo := ocbnonce.Block(nonce, tagSize)
	return words.Block{W0: bits.ReverseBytes64(hi), W1: bits.ReverseBytes64(lo)}
}

// KtopInput splits OCB3's formatted nonce block n (Nonce) into the block
// enciphered into Ktop, n with its bottom 6 bits cleared, and those bits,
// bottom.
func KtopInput(n words.Block) (words.Block, uint) {
	bottom := uint(n.W1>>56) & 63
	n.W1 &^= 63 << 56
	return n, bottom
}

// Stretch returns Offset_0 from Ktop and bottom (KtopInput).
func Stretch(ktop words.Block, bottom uint) words.Block {
	// Stretch = Ktop || (Ktop[1..64] ^ Ktop[9..72]), as three big-endian
	// words; the offset is Stretch[1+bottom..128+bottom]. bottom comes from
	// the public nonce, and Go defines a shift by 64 as giving zero.
	s0, s1 := bits.ReverseBytes64(ktop.W0), bits.ReverseBytes64(ktop.W1)
	s2 := s0 ^ (s0<<8 | s1>>56)
	return words.Block{W0: bits.ReverseBytes64(s0<<bottom | s1>>(64-bottom)), W1: bits.ReverseBytes64(s1<<bottom | s2>>(64-bottom))}
}

// Double is multiplication by x in GF(2^128) with the polynomial of
// RFC 7253, on the block read as a big-endian number, without branches on
// the (secret) top bit.
func Double(x words.Block) words.Block {
	hi, lo := bits.ReverseBytes64(x.W0), bits.ReverseBytes64(x.W1)
	carry := hi >> 63
	hi = hi<<1 | lo>>63
	lo = lo<<1 ^ 0x87&-carry
	return words.Block{W0: bits.ReverseBytes64(hi), W1: bits.ReverseBytes64(lo)}
}

// NumL is the number of precomputed L_i. Block indices whose number of
// trailing zeros reaches NumL (multiples of 2^32 blocks, every 64 GiB) take
// their L_i from repeated doubling instead.
const NumL = 32

// L holds L_0..L_{NumL-1} as bytes, the layout the kernels read.
type L = [NumL][16]byte

// Ls returns L_$ and L_0..L_{NumL-1} from L_* = E(0^128).
func Ls(lStar words.Block) (lDollar words.Block, l L) {
	lDollar = Double(lStar)
	x := Double(lDollar)
	for i := range l {
		x.Store(l[i][:])
		x = Double(x)
	}
	return lDollar, l
}

// LAt returns L_i for any i.
func LAt(l *L, i int) words.Block {
	if i < NumL {
		return words.Load(l[i][:])
	}
	x := words.Load(l[NumL-1][:])
	for ; i >= NumL; i-- {
		x = Double(x)
	}
	return x
}

// OffsetAt returns Offset_i, the offset of (1-based) block i of a message
// (or of the AD, from a zero Offset_0) whose Offset_0 is off0, computed
// directly from the Gray code of i: the XOR of L_j over the set bits j of
// i^(i>>1). It lets a message be split anywhere.
func OffsetAt(l *L, off0 words.Block, i uint64) words.Block {
	for g := i ^ i>>1; g != 0; g &= g - 1 {
		off0 = off0.Xor(LAt(l, bits.TrailingZeros64(g)))
	}
	return off0
}

// Padded returns p || 1 || 0...: a final partial block (len(p) < 16),
// padded.
func Padded(p []byte) words.Block {
	x := words.LoadPartial(p)
	if n := len(p); n < 8 {
		x.W0 |= 0x80 << (8 * n)
	} else {
		x.W1 |= 0x80 << (8 * (n - 8))
	}
	return x
}

// MaxIndex bounds RAOCB's mask function: Δ(X, i) is used for i < 2^30
// only. Two AES rounds give a differential bound of about 2^-30, which
// allows no more indices per base.
const MaxIndex = 1 << 30

// maxBlocks is the longest RAOCB message in blocks: its tag uses index
// m+3.
const maxBlocks = MaxIndex - 4

// MaxText is the longest RAOCB plaintext in bytes, as RangeFits from 0
// takes; MaxPlainAD the longest associated data up to which ADFits takes
// every length (past it, only 16*MaxIndex bytes).
const (
	MaxText    = 16 * maxBlocks
	MaxPlainAD = 16 * (MaxIndex - 1)
)

// NumBlocks returns the number of blocks of n bytes, the last one possibly
// partial.
func NumBlocks(n uint64) uint64 { return (n + 15) / 16 }

// TagIndex returns the index of Δ(B, ·) in the tag of an RAOCB message of
// n bytes: m+3 for m blocks.
func TagIndex(n uint64) uint64 { return NumBlocks(n) + 3 }

// PartialIndex returns the index of Δ(·, ·) for RAOCB's final partial
// block after full bytes of whole blocks, a message's pad as the AD's:
// f+1 for f blocks.
func PartialIndex(full uint64) uint64 { return full/16 + 1 }

// RangeFits reports whether RAOCB blocks first, first+1, ... of a message,
// n bytes of them, can belong to a message whose indices all stay below
// MaxIndex: the message has at least first+ceil(n/16) blocks.
func RangeFits(first, n uint64) bool {
	return first <= maxBlocks && NumBlocks(n) <= maxBlocks-first
}

// ADFits reports whether RAOCB associated data of n bytes keeps its
// indices below MaxIndex: full blocks use 0..a-1, and a final partial
// block uses a+1.
func ADFits(n uint64) bool {
	a := n / 16
	if n%16 != 0 {
		return a+1 < MaxIndex
	}
	return a <= MaxIndex
}

// Fits reports whether RAOCB seals a plaintext of n bytes with associated
// data of adLen bytes.
func Fits(n, adLen int) bool { return RangeFits(0, uint64(n)) && ADFits(uint64(adLen)) }

// Add returns X ⊞ i, i below 2^30: i added to each big-endian 32-bit word
// of X, modulo 2^32.
func Add(x words.Block, i uint64) words.Block {
	addWord := func(w uint64) uint64 {
		v := bits.ReverseBytes64(w)
		return bits.ReverseBytes64((v>>32+i)<<32 | uint64(uint32(v)+uint32(i)))
	}
	return words.Block{W0: addWord(x.W0), W1: addWord(x.W1)}
}
