package raocb

import (
	"crypto/subtle"
	"encoding/binary"
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
// at a time.
func (a *AEAD) masks(out []byte, x [blockSize]byte) {
	var q [8]uint64
	for len(out) > 0 {
		for k := range 4 {
			xk := addIndex(x, uint64(k))
			q[2*k] = binary.LittleEndian.Uint64(xk[:8])
			q[2*k+1] = binary.LittleEndian.Uint64(xk[8:])
		}
		x = addIndex(x, 4)
		toBitsliced(&q)
		aesRound(&q, &a.bsR1)
		aesRound(&q, &a.bsR2)
		fromBitsliced(&q)
		for k := 0; k < 8 && len(out) > 0; k++ {
			binary.LittleEndian.PutUint64(out, q[k])
			out = out[8:]
		}
	}
}

// The portable Δ runs two AES rounds on four blocks at once, bitsliced: q[b]
// holds bit b of all 64 bytes, byte j (0..15) of block k (0..3) at bit
// 16k+j. With j = 4c+r for the byte in row r and column c of the AES state,
// a 16-bit lane is one block and a nibble one column, so ShiftRows rotates
// each row of a lane by a different number of nibbles and MixColumns
// rotates bits within nibbles. No table is indexed by data, and nothing
// branches on it.

// toBitsliced moves 64 bytes, eight little-endian words (byte l of word t is
// byte 8t+l), into the bitsliced form: each word's 8x8 bit matrix is
// transposed (bit b of byte l goes to bit l of byte b), then the 8x8 matrix
// of bytes across the words (byte b of word t goes to byte t of word b).
func toBitsliced(q *[8]uint64) {
	for i := range q {
		q[i] = transposeBits(q[i])
	}
	transposeBytes(q)
}

// fromBitsliced is the inverse of toBitsliced.
func fromBitsliced(q *[8]uint64) {
	transposeBytes(q)
	for i := range q {
		q[i] = transposeBits(q[i])
	}
}

// transposeBits transposes the 8x8 bit matrix whose row i is byte i of x.
func transposeBits(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00aa00aa00aa00aa
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000cccc0000cccc
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000f0f0f0f0
	return x ^ t ^ t<<28
}

// transposeBytes transposes the 8x8 byte matrix whose row t is q[t], by
// swapping 2x2 blocks of bytes, then of 16-bit units, then of 32-bit ones.
func transposeBytes(q *[8]uint64) {
	for t := 0; t < 8; t += 2 {
		q[t], q[t+1] = swapMove(q[t], q[t+1], 0x00ff00ff00ff00ff, 8)
	}
	for _, t := range [4]int{0, 1, 4, 5} {
		q[t], q[t+2] = swapMove(q[t], q[t+2], 0x0000ffff0000ffff, 16)
	}
	for t := range 4 {
		q[t], q[t+4] = swapMove(q[t], q[t+4], 0x00000000ffffffff, 32)
	}
}

// swapMove exchanges the bits of a at positions m<<s with those of b at m.
func swapMove(a, b, m uint64, s uint) (uint64, uint64) {
	t := (a>>s ^ b) & m
	return a ^ t<<s, b ^ t
}

// bitslicedKey returns round key k, copied into all four block slots, in
// bitsliced form.
func bitslicedKey(k [blockSize]byte) [8]uint64 {
	lo, hi := binary.LittleEndian.Uint64(k[:8]), binary.LittleEndian.Uint64(k[8:])
	q := [8]uint64{lo, hi, lo, hi, lo, hi, lo, hi}
	toBitsliced(&q)
	return q
}

// aesRound is AESENC on bitsliced blocks: q = MixColumns(ShiftRows(
// SubBytes(q))) ^ k.
func aesRound(q *[8]uint64, k *[8]uint64) {
	q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0] = sbox(q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0])
	var a [8]uint64
	for i := range a {
		a[i] = shiftRows(q[i])
	}
	// MixColumns: out_r = 2a_r ^ 3a_r+1 ^ a_r+2 ^ a_r+3 in each column, that
	// is 2t_r ^ a_r+1 ^ t_r+2 for t_r = a_r ^ a_r+1.
	var t [8]uint64
	for i := range a {
		t[i] = a[i] ^ rot1(a[i])
	}
	// xtime in GF(2^8) mod x^8+x^4+x^3+x+1: bit b of 2t is bit b-1 of t,
	// and bit 7 of t returns at bits 0, 1, 3 and 4.
	x := [8]uint64{t[7], t[0] ^ t[7], t[1], t[2] ^ t[7], t[3] ^ t[7], t[4], t[5], t[6]}
	for i := range q {
		q[i] = x[i] ^ rot1(a[i]) ^ rot2(t[i]) ^ k[i]
	}
}

// shiftRows moves row r of each lane left by r columns: bit 4c+r takes the
// bit 4r places above it, within the lane.
func shiftRows(x uint64) uint64 {
	return x&0x1111111111111111 |
		x>>4&0x0222022202220222 | x<<12&0x2000200020002000 |
		x>>8&0x0044004400440044 | x<<8&0x4400440044004400 |
		x>>12&0x0008000800080008 | x<<4&0x8880888088808880
}

// rot1 and rot2 give each bit of a column the bit one or two rows below it.
func rot1(x uint64) uint64 { return x>>1&0x7777777777777777 | x<<3&0x8888888888888888 }
func rot2(x uint64) uint64 { return x>>2&0x3333333333333333 | x<<2&0xcccccccccccccccc }

// sbox is the AES S-box on bitsliced bytes, x0 the most significant bit:
// the circuit of Boyar and Peralta, "A new combinational logic minimization
// technique with applications to cryptology" (SEA 2010), 32 AND and 83
// XOR/XNOR gates.
func sbox(x0, x1, x2, x3, x4, x5, x6, x7 uint64) (s0, s1, s2, s3, s4, s5, s6, s7 uint64) {
	// Top linear transformation.
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

	// Nonlinear middle: inversion in GF(2^8) through GF(2^4).
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

	// Bottom linear transformation, with the affine constant 0x63.
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
	s0 = t59 ^ t63
	s6 = t56 ^ ^t62
	s7 = t48 ^ ^t60
	t67 := t64 ^ t65
	s3 = t53 ^ t66
	s4 = t51 ^ t66
	s5 = t47 ^ t65
	s1 = t64 ^ ^s3
	s2 = t55 ^ ^t67
	return
}
