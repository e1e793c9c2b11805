// The portable kernel. Every round of ROCCA-S evaluates the AES round
// function A(x) = MixColumns(ShiftRows(SubBytes(x))) on eight blocks, all
// from the old state: S0..S5 for the state update and S3^S5, S4^S6 for the
// keystream. The kernel computes them bitsliced, four blocks at a time, with
// no table lookup and no branch on secret data.
//
// Bitsliced layout: four blocks are held in eight words q[0..7], q[b]
// holding bit b of every byte, bit 16*r + 4*c + k of it standing for byte
// (row r, column c) of block k. A row is a 16-bit lane, so MixColumns, which
// mixes each byte with the bytes below it, works on rotations of the words
// by multiples of 16, and ShiftRows turns each lane on its own.

package rocca

import (
	"encoding/binary"
	"math/bits"
)

// words is the state as pairs of little-endian words, the form the portable
// kernel computes on.
type words [7][2]uint64

func (s *state) words() words {
	var w words
	for i := range w {
		w[i] = [2]uint64{binary.LittleEndian.Uint64(s[i][:8]), binary.LittleEndian.Uint64(s[i][8:])}
	}
	return w
}

func (s *state) setWords(w *words) {
	for i := range w {
		binary.LittleEndian.PutUint64(s[i][:8], w[i][0])
		binary.LittleEndian.PutUint64(s[i][8:], w[i][1])
	}
}

func load(b []byte) [2]uint64 {
	return [2]uint64{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:16])}
}

func store(b []byte, x [2]uint64) {
	binary.LittleEndian.PutUint64(b[:8], x[0])
	binary.LittleEndian.PutUint64(b[8:16], x[1])
}

func xor(x, y [2]uint64) [2]uint64 { return [2]uint64{x[0] ^ y[0], x[1] ^ y[1]} }

// rounds evaluates A on the eight blocks a round needs: a[i] = A(S_i) for
// i < 6, a[6] = A(S3^S5), a[7] = A(S4^S6).
func (w *words) rounds(a *[8][2]uint64) {
	a[0], a[1], a[2], a[3] = w[0], w[1], w[2], w[3]
	a[4], a[5], a[6], a[7] = w[4], w[5], xor(w[3], w[5]), xor(w[4], w[6])
	aesRound4((*[4][2]uint64)(a[:4]))
	aesRound4((*[4][2]uint64)(a[4:]))
}

// update is the round R(S, x0, x1), given a from rounds.
func (w *words) update(a *[8][2]uint64, x0, x1 [2]uint64) {
	w[0], w[1], w[2], w[3], w[4], w[5], w[6] = xor(w[6], w[1]), xor(a[0], x0), xor(a[1], w[0]),
		xor(a[2], w[6]), xor(a[3], x1), xor(a[4], w[3]), xor(a[5], w[4])
}

// absorb is R(S, x0, x1).
func (w *words) absorb(x0, x1 [2]uint64) {
	var a [8][2]uint64
	w.rounds(&a)
	w.update(&a, x0, x1)
}

// z0 || z1, the initialisation constants, in memory order.
var z = [blockSize]byte{
	0xcd, 0x65, 0xef, 0x23, 0x91, 0x44, 0x37, 0x71, 0x22, 0xae, 0x28, 0xd7, 0x98, 0x2f, 0x8a, 0x42,
	0xbc, 0xdb, 0x89, 0x81, 0xa5, 0xdb, 0xb5, 0xe9, 0x2f, 0x3b, 0x4d, 0xec, 0xcf, 0xfb, 0xc0, 0xb5,
}

// initGeneric sets s from key and the 16-byte nonce, runs the 16 rounds
// that absorb Z0 || Z1 and adds the key in.
func initGeneric(s *state, key *[KeySize]byte, nonce []byte) {
	k0, k1, n := load(key[:]), load(key[16:]), load(nonce)
	z0, z1 := load(z[:]), load(z[16:])
	w := words{k1, n, z0, k0, z1, xor(n, k1), {}}
	for range 16 {
		w.absorb(z0, z1)
	}
	for i, k := range [7][2]uint64{k0, k0, k1, k0, k0, k1, k1} {
		w[i] = xor(w[i], k)
	}
	s.setWords(&w)
}

// finalizeGeneric runs the 16 rounds that absorb the bit lengths of the
// associated data and the message, and writes the tag.
func finalizeGeneric(s *state, tag *[TagSize]byte, adLen, mLen uint64) {
	w := s.words()
	x0, x1 := [2]uint64{adLen << 3, adLen >> 61}, [2]uint64{mLen << 3, mLen >> 61}
	for range 16 {
		w.absorb(x0, x1)
	}
	store(tag[:], xor(xor(w[0], w[1]), xor(w[2], w[3])))
	store(tag[16:], xor(xor(w[4], w[5]), w[6]))
}

// absorbGeneric runs n rounds that absorb the 32-byte blocks of src.
func absorbGeneric(s *state, src []byte, n int) {
	w := s.words()
	for i := range n {
		b := src[i*blockSize:]
		w.absorb(load(b), load(b[16:]))
	}
	s.setWords(&w)
}

// encryptGeneric encrypts the whole blocks of src into dst, which is as long
// as src and may be src itself.
func encryptGeneric(s *state, dst, src []byte) {
	w := s.words()
	var a [8][2]uint64
	for ; len(src) >= blockSize; dst, src = dst[blockSize:], src[blockSize:] {
		m0, m1 := load(src), load(src[16:])
		w.rounds(&a)
		store(dst, xor(xor(a[6], w[0]), m0))
		store(dst[16:], xor(xor(a[7], w[2]), m1))
		w.update(&a, m0, m1)
	}
	s.setWords(&w)
}

// decryptGeneric is the inverse of encryptGeneric.
func decryptGeneric(s *state, dst, src []byte) {
	w := s.words()
	var a [8][2]uint64
	for ; len(src) >= blockSize; dst, src = dst[blockSize:], src[blockSize:] {
		w.rounds(&a)
		m0 := xor(xor(a[6], w[0]), load(src))
		m1 := xor(xor(a[7], w[2]), load(src[16:]))
		store(dst, m0)
		store(dst[16:], m1)
		w.update(&a, m0, m1)
	}
	s.setWords(&w)
}

// aesRound4 replaces each of the four blocks in b by A of it. The bit
// planes travel between the steps in registers.
func aesRound4(b *[4][2]uint64) {
	q0, q4 := spread(b[0][0], b[0][1])
	q1, q5 := spread(b[1][0], b[1][1])
	q2, q6 := spread(b[2][0], b[2][1])
	q3, q7 := spread(b[3][0], b[3][1])
	q0, q1, q2, q3, q4, q5, q6, q7 = transpose(q0, q1, q2, q3, q4, q5, q6, q7)
	q7, q6, q5, q4, q3, q2, q1, q0 = subBytes(q7, q6, q5, q4, q3, q2, q1, q0)
	q0, q1, q2, q3 = shiftRows(q0), shiftRows(q1), shiftRows(q2), shiftRows(q3)
	q4, q5, q6, q7 = shiftRows(q4), shiftRows(q5), shiftRows(q6), shiftRows(q7)
	q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns(q0, q1, q2, q3, q4, q5, q6, q7)
	q0, q1, q2, q3, q4, q5, q6, q7 = transpose(q0, q1, q2, q3, q4, q5, q6, q7)
	b[0][0], b[0][1] = gather(q0, q4)
	b[1][0], b[1][1] = gather(q1, q5)
	b[2][0], b[2][1] = gather(q2, q6)
	b[3][0], b[3][1] = gather(q3, q7)
}

// swapMove exchanges the bits of b selected by m with those of a selected by
// m<<s.
func swapMove(a, b, m uint64, s uint) (uint64, uint64) {
	t := (a>>s ^ b) & m
	return a ^ t<<s, b ^ t
}

// spread takes a block as two little-endian words (columns 0 and 1, then 2
// and 3; byte 4c + r of the block is row r of column c) and returns its even
// and odd columns, each word with the two columns' bytes interleaved: byte
// 2r + c>>1 is (r, c). Transposed, byte j of the even word of block k
// supplies bits 8j + k of the eight words, byte j of the odd word bits
// 8j + 4 + k: bit 16r + 4c + k for (r, c), the layout of the file comment.
func spread(lo, hi uint64) (even, odd uint64) {
	lo, hi = swapMove(lo, hi, 0xffffffff, 32)
	return interleave(lo), interleave(hi)
}

// gather inverts spread.
func gather(even, odd uint64) (lo, hi uint64) {
	return swapMove(deinterleave(even), deinterleave(odd), 0xffffffff, 32)
}

// interleave turns bytes a0..a3 b0..b3 (from the least significant) into
// a0 b0 a1 b1 a2 b2 a3 b3.
func interleave(x uint64) uint64 {
	t := (x>>16 ^ x) & 0x00000000ffff0000
	x ^= t ^ t<<16
	t = (x>>8 ^ x) & 0x0000ff000000ff00
	return x ^ t ^ t<<8
}

func deinterleave(x uint64) uint64 {
	t := (x>>8 ^ x) & 0x0000ff000000ff00
	x ^= t ^ t<<8
	t = (x>>16 ^ x) & 0x00000000ffff0000
	return x ^ t ^ t<<16
}

// transpose transposes the 8x8 bit matrix formed by byte j of the eight
// words, for each j: bit b of byte j of word i trades places with bit i of
// byte j of word b. It is its own inverse.
func transpose(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	const m1, m2, m4 = 0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f
	q0, q1 = swapMove(q0, q1, m1, 1)
	q2, q3 = swapMove(q2, q3, m1, 1)
	q4, q5 = swapMove(q4, q5, m1, 1)
	q6, q7 = swapMove(q6, q7, m1, 1)
	q0, q2 = swapMove(q0, q2, m2, 2)
	q1, q3 = swapMove(q1, q3, m2, 2)
	q4, q6 = swapMove(q4, q6, m2, 2)
	q5, q7 = swapMove(q5, q7, m2, 2)
	q0, q4 = swapMove(q0, q4, m4, 4)
	q1, q5 = swapMove(q1, q5, m4, 4)
	q2, q6 = swapMove(q2, q6, m4, 4)
	q3, q7 = swapMove(q3, q7, m4, 4)
	return q0, q1, q2, q3, q4, q5, q6, q7
}

// shiftRows moves byte (r, c+r) to (r, c): it turns lane r right by 4r
// bits, lanes 2 and 3 first by 8, then lanes 1 and 3 by 4.
func shiftRows(x uint64) uint64 {
	t := (x>>8 ^ x) & 0x00ff00ff00000000
	x ^= t ^ t<<8
	return x&0x0000ffff0000ffff | x>>4&0x0fff00000fff0000 | x<<12&0xf0000000f0000000
}

// mixColumns computes 2x_r + 3x_r+1 + x_r+2 + x_r+3 for every row r as
// 2s + y + ρ²(s), with y = ρ(x) the row below (a rotation by 16 bits) and
// s = x + y. Doubling is bitsliced: bit b of 2s is s[b-1] for b > 0, plus
// s[7] for the bits of 0x1b (0, 1, 3 and 4).
func mixColumns(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	y0, y1 := bits.RotateLeft64(q0, -16), bits.RotateLeft64(q1, -16)
	y2, y3 := bits.RotateLeft64(q2, -16), bits.RotateLeft64(q3, -16)
	y4, y5 := bits.RotateLeft64(q4, -16), bits.RotateLeft64(q5, -16)
	y6, y7 := bits.RotateLeft64(q6, -16), bits.RotateLeft64(q7, -16)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^y0, q1^y1, q2^y2, q3^y3, q4^y4, q5^y5, q6^y6, q7^y7
	return s7 ^ y0 ^ bits.RotateLeft64(s0, 32),
		s0 ^ s7 ^ y1 ^ bits.RotateLeft64(s1, 32),
		s1 ^ y2 ^ bits.RotateLeft64(s2, 32),
		s2 ^ s7 ^ y3 ^ bits.RotateLeft64(s3, 32),
		s3 ^ s7 ^ y4 ^ bits.RotateLeft64(s4, 32),
		s4 ^ y5 ^ bits.RotateLeft64(s5, 32),
		s5 ^ y6 ^ bits.RotateLeft64(s6, 32),
		s6 ^ y7 ^ bits.RotateLeft64(s7, 32)
}

// subBytes applies the AES S-box to every byte: Boyar and Peralta's circuit
// of 32 AND and 83 XOR/XNOR gates ("A new combinational logic minimization
// technique with applications to cryptology", SEA 2010). Inputs and outputs
// are the bit planes from the most significant.
func subBytes(x0, x1, x2, x3, x4, x5, x6, x7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {

	// Top linear layer.
	y14 := x3 ^ x5
	y13 := x0 ^ x6
	y9 := x0 ^ x3
	y8 := x0 ^ x5
	t0 := x1 ^ x2
	y1 := t0 ^ x7
	y4 := y1 ^ x3
	y12 := y13 ^ y14
	y2 := y1 ^ x0
	y5 := y1 ^ x6
	y3 := y5 ^ y8
	t1 := x4 ^ y12
	y15 := t1 ^ x5
	y20 := t1 ^ x1
	y6 := y15 ^ x7
	y10 := y15 ^ t0
	y11 := y20 ^ y9
	y7 := x7 ^ y11
	y17 := y10 ^ y11
	y19 := y10 ^ y8
	y16 := t0 ^ y11
	y21 := y13 ^ y16
	y18 := x0 ^ y16

	// Middle non-linear layer: inversion in GF(2^4)^2.
	t2 := y12 & y15
	t3 := y3 & y6
	t4 := t3 ^ t2
	t5 := y4 & x7
	t6 := t5 ^ t2
	t7 := y13 & y16
	t8 := y5 & y1
	t9 := t8 ^ t7
	t10 := y2 & y7
	t11 := t10 ^ t7
	t12 := y9 & y11
	t13 := y14 & y17
	t14 := t13 ^ t12
	t15 := y8 & y10
	t16 := t15 ^ t12
	t17 := t4 ^ t14
	t18 := t6 ^ t16
	t19 := t9 ^ t14
	t20 := t11 ^ t16
	t21 := t17 ^ y20
	t22 := t18 ^ y19
	t23 := t19 ^ y21
	t24 := t20 ^ y18

	t25 := t21 ^ t22
	t26 := t21 & t23
	t27 := t24 ^ t26
	t28 := t25 & t27
	t29 := t28 ^ t22
	t30 := t23 ^ t24
	t31 := t22 ^ t26
	t32 := t31 & t30
	t33 := t32 ^ t24
	t34 := t23 ^ t33
	t35 := t27 ^ t33
	t36 := t24 & t35
	t37 := t36 ^ t34
	t38 := t27 ^ t36
	t39 := t29 & t38
	t40 := t25 ^ t39

	t41 := t40 ^ t37
	t42 := t29 ^ t33
	t43 := t29 ^ t40
	t44 := t33 ^ t37
	t45 := t42 ^ t41
	z0 := t44 & y15
	z1 := t37 & y6
	z2 := t33 & x7
	z3 := t43 & y16
	z4 := t40 & y1
	z5 := t29 & y7
	z6 := t42 & y11
	z7 := t45 & y17
	z8 := t41 & y10
	z9 := t44 & y12
	z10 := t37 & y3
	z11 := t33 & y4
	z12 := t43 & y13
	z13 := t40 & y5
	z14 := t29 & y2
	z15 := t42 & y9
	z16 := t45 & y14
	z17 := t41 & y8

	// Bottom linear layer.
	t46 := z15 ^ z16
	t47 := z10 ^ z11
	t48 := z5 ^ z13
	t49 := z9 ^ z10
	t50 := z2 ^ z12
	t51 := z2 ^ z5
	t52 := z7 ^ z8
	t53 := z0 ^ z3
	t54 := z6 ^ z7
	t55 := z16 ^ z17
	t56 := z12 ^ t48
	t57 := t50 ^ t53
	t58 := z4 ^ t46
	t59 := z3 ^ t54
	t60 := t46 ^ t57
	t61 := z14 ^ t57
	t62 := t52 ^ t58
	t63 := t49 ^ t58
	t64 := z4 ^ t59
	t65 := t61 ^ t62
	t66 := z1 ^ t63
	t67 := t64 ^ t65

	s3 := t53 ^ t66
	return t59 ^ t63, ^(t64 ^ s3), ^(t55 ^ t67), s3, t51 ^ t66, t47 ^ t65, ^(t56 ^ t62), ^(t48 ^ t60)
}
