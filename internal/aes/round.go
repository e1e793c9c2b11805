package aes

import (
	"encoding/binary"

	"github.com/faelabs/fae/internal/alias"
)

// Bare AES rounds, the portable building block of ciphers made of them
// (AEGIS, ROCCA-S, RAOCB's mask function). They always run the
// constant-time bitsliced code, four blocks at a time, whatever kernel is
// active: callers with assembly use the AES instructions directly.
//
// Round4 and Rounds4 take four blocks as words, each block as two
// little-endian words (bytes 0-7, then bytes 8-15), so that callers that
// keep their state in words convert nothing. The blocks are bitsliced in the
// plain state layout of aes_generic.go (no fixslicing across rounds).

// c63 is the constant the S-box circuit leaves out, in every byte. It
// passes unchanged through ShiftRows and MixColumns (a column of equal bytes
// c mixes to c), so it is added with the round key.
const c63 = 0x6363636363636363

// Round applies one AES encryption round, as x86's AESENC does, to each
// 16-byte block of src: block i of dst becomes
// MixColumns(ShiftRows(SubBytes(block i of src))) ^ block i of rk.
// len(src) must be a multiple of 16, and dst and rk at least as long; dst may
// be src or rk but must not overlap them otherwise.
func Round(dst, src, rk []byte) {
	if len(src)%BlockSize != 0 {
		panic("aes: input not a whole number of blocks")
	}
	if len(dst) < len(src) || len(rk) < len(src) {
		panic("aes: output or round keys smaller than input")
	}
	dst, rk = dst[:len(src)], rk[:len(src)]
	if alias.InexactOverlap(dst, src) || alias.InexactOverlap(dst, rk) {
		panic("aes: invalid buffer overlap")
	}
	for len(src) > 0 {
		n := min(len(src), 4*BlockSize) / BlockSize
		var b, k [4][2]uint64
		for i := range n {
			b[i][0], b[i][1] = binary.LittleEndian.Uint64(src[16*i:]), binary.LittleEndian.Uint64(src[16*i+8:])
			k[i][0], k[i][1] = binary.LittleEndian.Uint64(rk[16*i:]), binary.LittleEndian.Uint64(rk[16*i+8:])
		}
		Round4(&b, &b, &k)
		for i := range n {
			binary.LittleEndian.PutUint64(dst[16*i:], b[i][0])
			binary.LittleEndian.PutUint64(dst[16*i+8:], b[i][1])
		}
		dst, src, rk = dst[16*n:], src[16*n:], rk[16*n:]
	}
}

// Round4 sets each of the four blocks dst[i] to AESENC(src[i], rk[i]), that
// is MixColumns(ShiftRows(SubBytes(src[i]))) ^ rk[i]. It reads all of src
// before it writes dst, which may overlap it in any way, and rk[i] before it
// writes dst[i]: rk may be dst but must not overlap it otherwise.
func Round4(dst, src, rk *[4][2]uint64) {
	q0, q1, q2, q3, q4, q5, q6, q7 := round(slice(src))
	q0, q1, q2, q3, q4, q5, q6, q7 = transpose(q0, q1, q2, q3, q4, q5, q6, q7)
	lo, hi := gatherBlock(q0, q4)
	dst[0][0], dst[0][1] = lo^rk[0][0]^c63, hi^rk[0][1]^c63
	lo, hi = gatherBlock(q1, q5)
	dst[1][0], dst[1][1] = lo^rk[1][0]^c63, hi^rk[1][1]^c63
	lo, hi = gatherBlock(q2, q6)
	dst[2][0], dst[2][1] = lo^rk[2][0]^c63, hi^rk[2][1]^c63
	lo, hi = gatherBlock(q3, q7)
	dst[3][0], dst[3][1] = lo^rk[3][0]^c63, hi^rk[3][1]^c63
}

// A RoundKey is a round key in the form Rounds4 adds it: bitsliced, in all
// four block slots, with the S-box constant c63 folded in.
type RoundKey [8]uint64

// NewRoundKey returns k, a block as two little-endian words, as a RoundKey.
func NewRoundKey(k [2]uint64) RoundKey {
	q0, q1, q2, q3, q4, q5, q6, q7 := slice(&[4][2]uint64{k, k, k, k})
	// Bit plane j gets bit j of 0x63 = 0b01100011 in every byte.
	return RoundKey{^q0, ^q1, q2, q3, q4, ^q5, ^q6, q7}
}

// Rounds4 applies len(rk) AES rounds to each of the four blocks in b: b[i]
// becomes AESENC(...AESENC(b[i], rk[0])..., rk[len(rk)-1]). The blocks stay
// bitsliced from the first round to the last.
func Rounds4(b *[4][2]uint64, rk []RoundKey) {
	q0, q1, q2, q3, q4, q5, q6, q7 := slice(b)
	for i := range rk {
		k := &rk[i]
		q0, q1, q2, q3, q4, q5, q6, q7 = round(q0, q1, q2, q3, q4, q5, q6, q7)
		q0, q1, q2, q3 = q0^k[0], q1^k[1], q2^k[2], q3^k[3]
		q4, q5, q6, q7 = q4^k[4], q5^k[5], q6^k[6], q7^k[7]
	}
	q0, q1, q2, q3, q4, q5, q6, q7 = transpose(q0, q1, q2, q3, q4, q5, q6, q7)
	b[0][0], b[0][1] = gatherBlock(q0, q4)
	b[1][0], b[1][1] = gatherBlock(q1, q5)
	b[2][0], b[2][1] = gatherBlock(q2, q6)
	b[3][0], b[3][1] = gatherBlock(q3, q7)
}

// slice returns the four blocks of b bitsliced. The words travel between
// the steps here and in round in registers, not through an array.
func slice(b *[4][2]uint64) (q0, q1, q2, q3, q4, q5, q6, q7 uint64) {
	q0, q4 = spreadBlock(b[0][0], b[0][1])
	q1, q5 = spreadBlock(b[1][0], b[1][1])
	q2, q6 = spreadBlock(b[2][0], b[2][1])
	q3, q7 = spreadBlock(b[3][0], b[3][1])
	return transpose(q0, q1, q2, q3, q4, q5, q6, q7)
}

// round applies SubBytes (less c63), ShiftRows and MixColumns to four
// bitsliced blocks.
func round(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	q7, q6, q5, q4, q3, q2, q1, q0 = sbox(q7, q6, q5, q4, q3, q2, q1, q0)
	return mixColumns0(shiftRows(q0), shiftRows(q1), shiftRows(q2), shiftRows(q3),
		shiftRows(q4), shiftRows(q5), shiftRows(q6), shiftRows(q7))
}

// shiftRows moves byte (r, c+r) to (r, c): row r, a 16-bit lane of
// nibbles, turns right by 4r bits. Rows 2 and 3 turn by 8 (a byte swap),
// then rows 1 and 3 by 4.
func shiftRows(x uint64) uint64 {
	t := (x>>8 ^ x) & 0x00ff00ff00000000
	x ^= t ^ t<<8
	return x&0x0000ffff0000ffff | x>>4&0x0fff00000fff0000 | x<<12&0xf0000000f0000000
}
