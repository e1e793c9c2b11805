// Package armgen encodes the ARMv7 Advanced SIMD (NEON) instructions of
// fae's 32-bit ARM kernels. Go's arm assembler has no NEON mnemonics, so the
// _gen_arm generators write each one as a WORD with its mnemonic (in GNU
// syntax) as a comment, through arm64gen's text emitter for the rest.
// Encodings follow the ARM Architecture Reference Manual (ARMv7-A, A32);
// the tests check them against a table and against llvm-mc where it is
// installed.
//
// Only the generators and tests import it.
package armgen

import (
	"fmt"

	"github.com/faelabs/fae/internal/arm64gen"
)

// An Inst is one encoded instruction and its mnemonic.
type Inst struct {
	Enc uint32
	Asm string
}

// Emit writes inst into f as a WORD.
func Emit(f *arm64gen.File, inst Inst) { f.Op("WORD $0x%08x // %s", inst.Enc, inst.Asm) }

// q places Q register n (D register 2n) in the field at bit lo (4 bits)
// with its top bit at bit hi.
func q(n, lo, hi int) uint32 {
	if n < 0 || n > 15 {
		panic(fmt.Sprintf("armgen: no register q%d", n))
	}
	d := uint32(2 * n)
	return (d&15)<<lo | (d>>4)<<hi
}

// d places D register n likewise.
func d(n, lo, hi int) uint32 {
	if n < 0 || n > 31 {
		panic(fmt.Sprintf("armgen: no register d%d", n))
	}
	return uint32(n&15)<<lo | uint32(n>>4)<<hi
}

// three encodes a three-register operation on Q registers: op holds its
// fixed bits with Q set.
func three(op uint32, name string, dst, a, b int) Inst {
	return Inst{op | q(dst, 12, 22) | q(a, 16, 7) | q(b, 0, 5), fmt.Sprintf("%s q%d, q%d, q%d", name, dst, a, b)}
}

// Veor: q(dst) = q(a) ^ q(b).
func Veor(dst, a, b int) Inst { return three(0xf3000150, "veor", dst, a, b) }

// Vadd: 32-bit lanes, q(dst) = q(a) + q(b).
func Vadd(dst, a, b int) Inst { return three(0xf2200840, "vadd.i32", dst, a, b) }

// Vsub: 32-bit lanes, q(dst) = q(a) - q(b).
func Vsub(dst, a, b int) Inst { return three(0xf3200840, "vsub.i32", dst, a, b) }

// shift encodes a shift by immediate on 32-bit lanes of Q registers; imm6
// is the field's value for the shift.
func shift(op uint32, name string, dst, src, n int, imm6 uint32) Inst {
	if n < 1 || n > 31 {
		panic("armgen: shift out of range")
	}
	return Inst{op | imm6<<16 | q(dst, 12, 22) | q(src, 0, 5), fmt.Sprintf("%s q%d, q%d, #%d", name, dst, src, n)}
}

// Vshr: q(dst) = q(src) >> n (logical), 32-bit lanes.
func Vshr(dst, src, n int) Inst { return shift(0xf3800050, "vshr.u32", dst, src, n, uint32(64-n)) }

// Vsli: q(dst) = q(src)<<n | q(dst) & (1<<n - 1), 32-bit lanes: with Vshr
// by 32-n into dst first, a rotation.
func Vsli(dst, src, n int) Inst { return shift(0xf3800550, "vsli.32", dst, src, n, uint32(32+n)) }

// VdupR broadcasts core register r into the 32-bit lanes of q(dst).
func VdupR(dst, r int) Inst {
	return Inst{0xeea00b10 | q(dst, 16, 7) | uint32(r)<<12, fmt.Sprintf("vdup.32 q%d, r%d", dst, r)}
}

// VmovLane moves core register r into 32-bit lane x of D register dst.
func VmovLane(dst, x, r int) Inst {
	return Inst{0xee000b10 | uint32(x)<<21 | d(dst, 16, 7) | uint32(r)<<12, fmt.Sprintf("vmov.32 d%d[%d], r%d", dst, x, r)}
}

// vldst4 encodes VLD4 or VST4 of 32-bit elements into or from D registers
// first, first+2, first+4, first+6, at the address in core register r,
// which advances by 32 bytes.
func vldst4(op uint32, name string, first, r int) Inst {
	return Inst{op | d(first, 12, 22) | uint32(r)<<16, fmt.Sprintf("%s.32 {d%d, d%d, d%d, d%d}, [r%d]!", name, first, first+2, first+4, first+6, r)}
}

// Ld4 loads 4 blocks from the address in core register r into Q registers
// first..first+3 with word j of block i in lane i of q(first+j): two VLD4
// of two blocks each, into the low and the high halves. r advances by 64.
func Ld4(first, r int) [2]Inst {
	return [2]Inst{vldst4(0xf420018d, "vld4", 2*first, r), vldst4(0xf420018d, "vld4", 2*first+1, r)}
}

// St4 is the inverse of Ld4.
func St4(first, r int) [2]Inst {
	return [2]Inst{vldst4(0xf400018d, "vst4", 2*first, r), vldst4(0xf400018d, "vst4", 2*first+1, r)}
}
