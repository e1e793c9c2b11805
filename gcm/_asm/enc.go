package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The xmm kernels are generated twice from the same code: in AVX (VEX)
// encodings, and in legacy SSE encodings for CPUs with AES-NI and PCLMULQDQ
// but no AVX (Westmere, the Atoms up to Tremont), which must never meet a
// VEX instruction. The code writes every vector instruction as AVX's three
// operands through the helpers below; in SSE they become the two-operand,
// destructive forms, with a register copy where the destination is not the
// first source. A legacy SSE memory operand must be 16-byte aligned (MOVOU's
// aside), which neither kernelKey nor Go's stack promises, so in SSE memory
// is only ever moved: memOp loads an operand into a spare register first.

// encoding is one encoding of the xmm kernels.
type encoding struct {
	name string // suffix of the function names
	sse  bool
	// powers is the most powers of H init fills: the most any family
	// sharing it multiplies by, but VAES512, which has its own init for
	// more than ymmPowers.
	powers int
	// stitched is how the stitched loops form products: on the AVX cores
	// schoolbook spares the shuffle port; the SSE-only cores issue a
	// PCLMULQDQ only every several cycles, so there three beat four.
	stitched product
}

var (
	avx    = encoding{name: "AESNI", powers: ymmPowers, stitched: schoolbook}
	legacy = encoding{name: "SSE", sse: true, powers: 9, stitched: karatsuba}
	// enc is the encoding being generated.
	enc = avx
)

// memOp returns m as an operand: m itself in AVX, loaded into spare in SSE.
func memOp(m Mem, spare VecPhysical) Op {
	if !enc.sse {
		return m
	}
	MOVOU(m, spare)
	return spare
}

// mov copies a vector between registers, or loads or stores it unaligned.
func mov(src, dst Op) {
	mem := IsMem(src) || IsMem(dst)
	switch {
	case enc.sse && mem:
		MOVOU(src, dst)
	case enc.sse:
		MOVO(src, dst)
	case mem:
		VMOVDQU(src, dst)
	default:
		VMOVDQA(src, dst)
	}
}

// three emits dst = b op a, in AVX by vex. In SSE, op(a, dst) sets
// dst = dst op a and swapped(b, dst) dst = b op dst (nil where op does not
// commute); a memory operand a is loaded into dst, which must then not be b.
func three(vex func(a, b, dst Op), op, swapped func(a, dst Op), a Op, b, dst VecPhysical) {
	switch {
	case !enc.sse:
		vex(a, b, dst)
		return
	case IsMem(a) && dst == b:
		panic("legacy SSE: memory operand into its own destination")
	case IsMem(a):
		MOVOU(a, dst)
		a, op = b, swapped
	case dst == b:
	case dst == a:
		a, op = b, swapped
	default:
		MOVO(b, dst)
	}
	if op == nil {
		panic("legacy SSE: operands of an operation that does not commute")
	}
	op(a, dst)
}

func xor(a Op, b, dst VecPhysical) {
	three(func(a, b, dst Op) { VPXOR(a, b, dst) }, func(a, dst Op) { PXOR(a, dst) }, func(a, dst Op) { PXOR(a, dst) }, a, b, dst)
}

func and(a Op, b, dst VecPhysical) {
	three(func(a, b, dst Op) { VPAND(a, b, dst) }, func(a, dst Op) { PAND(a, dst) }, func(a, dst Op) { PAND(a, dst) }, a, b, dst)
}

func addd(a Op, b, dst VecPhysical) {
	three(func(a, b, dst Op) { VPADDD(a, b, dst) }, func(a, dst Op) { PADDD(a, dst) }, func(a, dst Op) { PADDD(a, dst) }, a, b, dst)
}

// clmul multiplies the quadword of b that imm's bit 0 selects by the one of a
// that its bit 4 selects (VPCLMULQDQ's operand order).
func clmul(imm uint8, a Op, b, dst VecPhysical) {
	three(func(a, b, dst Op) { VPCLMULQDQ(U8(imm), a, b, dst) },
		func(a, dst Op) { PCLMULQDQ(U8(imm), a, dst) },
		func(a, dst Op) { PCLMULQDQ(U8(imm<<4|imm>>4), a, dst) }, a, b, dst)
}

// shufb shuffles the bytes of b by mask, a register.
func shufb(mask, b, dst VecPhysical) {
	three(func(a, b, dst Op) { VPSHUFB(a, b, dst) }, func(a, dst Op) { PSHUFB(a, dst) }, nil, mask, b, dst)
}

func shufd(imm uint8, src, dst VecPhysical) {
	if enc.sse {
		PSHUFD(U8(imm), src, dst)
	} else {
		VPSHUFD(U8(imm), src, dst)
	}
}

// shiftBytes shifts src left (VPSLLDQ) or right (VPSRLDQ) by n bytes.
func shiftBytes(left bool, n uint8, src, dst VecPhysical) {
	switch {
	case !enc.sse && left:
		VPSLLDQ(U8(n), src, dst)
	case !enc.sse:
		VPSRLDQ(U8(n), src, dst)
	default:
		if src != dst {
			MOVO(src, dst)
		}
		if left {
			PSLLDQ(U8(n), dst)
		} else {
			PSRLDQ(U8(n), dst)
		}
	}
}

// aesRound runs one AES round (the last with last) of x with round key k.
func aesRound(last bool, k, x VecPhysical) {
	switch {
	case enc.sse && last:
		AESENCLAST(k, x)
	case enc.sse:
		AESENC(k, x)
	case last:
		VAESENCLAST(k, x, x)
	default:
		VAESENC(k, x, x)
	}
}

// toVec and fromVec move quadword i (0 or 1) of x from or to the
// general-purpose register r (fromVec: dword 0 to a 32-bit one); toVec's
// quadword 0 zeroes quadword 1.
func toVec(i uint8, r Register, x VecPhysical) {
	switch {
	case enc.sse && i == 0:
		MOVQ(r, x)
	case enc.sse:
		PINSRQ(U8(i), r, x)
	case i == 0:
		VMOVQ(r, x)
	default:
		VPINSRQ(U8(i), r, x, x)
	}
}

func fromVec(i uint8, x VecPhysical, r Register) {
	dword := r.Size() == 4 // dword 0 only
	switch {
	case enc.sse && dword:
		MOVD(x, r)
	case enc.sse && i == 0:
		MOVQ(x, r)
	case enc.sse:
		PEXTRQ(U8(i), x, r)
	case dword:
		VMOVD(x, r)
	case i == 0:
		VMOVQ(x, r)
	default:
		VPEXTRQ(U8(i), x, r)
	}
}
