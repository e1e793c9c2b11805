package aes

import (
	"encoding/binary"

	"github.com/faelabs/fae/internal/alias"
)

// Round applies one AES encryption round, as x86's AESENC does, to each
// 16-byte block of src: block i of dst becomes
// MixColumns(ShiftRows(SubBytes(block i of src))) ^ block i of rk.
// len(src) must be a multiple of 16, and dst and rk at least as long; dst may
// be src or rk but must not overlap them otherwise.
//
// Round is the portable building block of ciphers made of bare AES rounds
// (AEGIS, ROCCA-S). It always runs the constant-time bitsliced code, four
// blocks at a time, whatever kernel is active: callers with assembly use the
// AES instructions directly.
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
	// The S-box circuit leaves out the constant 0x63, which every byte
	// carries alike through ShiftRows and MixColumns (a column of equal
	// bytes c mixes to c): it is added with the round key.
	const c63 = 0x6363636363636363
	var q [8]uint64
	for len(src) > 0 {
		n := min(len(src), 4*BlockSize)
		loadBlocks(&q, src[:n])
		roundNoKey(&q)
		ortho(&q)
		for k := 0; k < n/BlockSize; k++ {
			lo, hi := gatherBlock(q[k], q[k+4])
			lo ^= binary.LittleEndian.Uint64(rk[16*k:]) ^ c63
			hi ^= binary.LittleEndian.Uint64(rk[16*k+8:]) ^ c63
			binary.LittleEndian.PutUint64(dst[16*k:], lo)
			binary.LittleEndian.PutUint64(dst[16*k+8:], hi)
		}
		dst, src, rk = dst[n:], src[n:], rk[n:]
	}
}

// roundNoKey applies SubBytes (less its constant), ShiftRows and
// MixColumns to the four bitsliced blocks in q, in the plain state layout
// (see the file comment of aes_generic.go): no fixslicing across rounds.
func roundNoKey(q *[8]uint64) {
	q7, q6, q5, q4, q3, q2, q1, q0 := sbox(q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0])
	q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = mixColumns0(
		shiftRows(q0), shiftRows(q1), shiftRows(q2), shiftRows(q3),
		shiftRows(q4), shiftRows(q5), shiftRows(q6), shiftRows(q7))
}

// shiftRows moves byte (r, c+r) to (r, c): row r, a 16-bit lane of
// nibbles, turns by r nibbles.
func shiftRows(x uint64) uint64 {
	return x&0x000000000000ffff |
		x>>4&0x000000000fff0000 | x<<12&0x00000000f0000000 |
		x>>8&0x000000ff00000000 | x<<8&0x0000ff0000000000 |
		x>>12&0x000f000000000000 | x<<4&0xfff0000000000000
}
