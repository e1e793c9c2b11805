// Command _gen_arm generates lea_arm.s: word-sliced LEA kernels for ARMv7
// NEON, ECB encryption and decryption and CTR. Go's arm assembler has no
// NEON mnemonics, so internal/armgen encodes them as WORDs.
//
// A set is four blocks in five Q registers: two VLD4 (two blocks each)
// leave word j of block i in lane i of Q(4s+j), and Q(12+s) is the set's
// spare. Three sets (12 blocks) are in flight: NEON results come three
// cycles after issue on a Cortex-A9, so each instruction of a set is
// followed by the same one of the two others before its result is needed.
// The remaining 4 or 8 blocks take one pass of one or two sets.
//
// Round keys stay in memory; each round the core loads the words it needs
// and VDUP broadcasts them into Q15, the one key register. Encryption first
// XORs k5, k3 and k1 into words 3, 2 and 1 in place, so that the other
// key terms become k3^k4 and k1^k2 (computed in core registers) and k0:
// LEA-128's k1 = k3 = k5 then costs one broadcast, not three. The rounds
// place their results so that two rounds bring every word back to its
// register, and the loop runs two rounds per iteration.
package main

import (
	"github.com/faelabs/fae/internal/arm64gen"
	"github.com/faelabs/fae/internal/armgen"
)

//go:generate go run . -out ../lea_arm.s

// Core registers (Go's R10 is g and R11 its assembler's temporary).
const (
	rKP     = 0  // round key of the current round
	rRounds = 1  // rounds/2
	rDst    = 2  // output
	rSrc    = 3  // input
	rN      = 4  // blocks left
	rRK     = 5  // round keys
	rCnt    = 6  // round pairs left
	rA      = 7  // key words, and CTR's w0..w2
	rB      = 8  //
	rC      = 9  //
	rD      = 12 // key word; CTR: lo+j while the counters are built
)

// vKey is the broadcast round key word; Q12..Q14 are the sets' spares and,
// in CTR, Q12..Q15 take the input after the rounds.
const vKey = 15

func main() {
	arm64gen.MainBy("_gen_arm", func(f *arm64gen.File) {
		g := &gen{File: f}
		g.ecb("encryptBlocksNEON", false)
		g.ecb("decryptBlocksNEON", true)
		g.ctr()
	})
}

type gen struct {
	*arm64gen.File
}

func (g *gen) neon(i armgen.Inst) { armgen.Emit(g.File, i) }

// A set is where its words 0..3 are now, and its spare.
type set struct{ x [5]int }

func sets(k int) []set {
	ss := make([]set, k)
	for i := range ss {
		ss[i] = set{[5]int{4 * i, 4*i + 1, 4*i + 2, 4*i + 3, 12 + i}}
	}
	return ss
}

// each emits f for every set, so that the sets' instructions interleave.
func (g *gen) each(ss []set, f func(s set) armgen.Inst) {
	for _, s := range ss {
		g.neon(f(s))
	}
}

// load loads the key word at byte offset off from rKP into core register r.
func (g *gen) load(off, r int) { g.Op("MOVW %d(R%d), R%d", off, rKP, r) }

// dup broadcasts core register r into the key register.
func (g *gen) dup(r int) { g.neon(armgen.VdupR(vKey, r)) }

// encRound emits one encryption round on the sets with the round key at
// off(rKP). same135 says k1 = k3 = k5 (LEA-128).
func (g *gen) encRound(ss []set, off int, same135 bool) {
	const a, b, c, d, e = 0, 1, 2, 3, 4 // words 0..3 and the spare
	k := func(j int) int { return off + 4*j }
	// x3 ^= k5, x2 ^= k3, x1 ^= k1, in place.
	for i, j := range []int{5, 3, 1} {
		w := []int{d, c, b}[i]
		if !same135 || i == 0 {
			g.load(k(j), rA)
			g.dup(rA)
		}
		g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[w], s.x[w], vKey) })
	}
	// Now rA = k1: the other terms are k3^k4, k1^k2 and k0.
	if same135 {
		g.Op("MOVW R%d, R%d", rA, rB)
	} else {
		g.load(k(3), rB)
	}
	g.load(k(4), rC)
	g.Op("EOR R%d, R%d", rB, rC)
	g.load(k(2), rD)
	g.Op("EOR R%d, R%d", rA, rD)
	g.load(k(0), rB)
	// new2's sum (x2^k4) + (x3^k5) into the spare; x3's register is free.
	g.dup(rC)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[e], s.x[c], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vadd(s.x[e], s.x[e], s.x[d]) })
	// new1's sum (x1^k2) + (x2^k3) into x2's register.
	g.dup(rD)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[d], s.x[b], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vadd(s.x[c], s.x[c], s.x[d]) })
	// new0's sum (x0^k0) + (x1^k1) into x1's register.
	g.dup(rB)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[d], s.x[a], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vadd(s.x[b], s.x[b], s.x[d]) })
	// Rotations: new0 = ROL9 into x3's register, new1 = ROR5 into x1's,
	// new2 = ROR3 into x2's.
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[d], s.x[b], 23) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[d], s.x[b], 9) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[b], s.x[c], 5) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[b], s.x[c], 27) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[c], s.x[e], 3) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[c], s.x[e], 29) })
	// Words 0 and 3 swapped registers; 1, 2 and the spare are in place.
	for i := range ss {
		x := &ss[i].x
		x[a], x[d] = x[d], x[a]
	}
}

// decRound emits one decryption round (the inverse of encRound with the
// same key, at off(rKP)): word 0 is the old word 3, and word j+1 is
// recovered from the word recovered before it.
func (g *gen) decRound(ss []set, off int) {
	const a, b, c, d, e = 0, 1, 2, 3, 4
	k := func(j int) int { return off + 4*j }
	key := func(j, r int) {
		g.load(k(j), r)
		g.dup(r)
	}
	g.load(k(0), rA)
	g.load(k(1), rB)
	g.load(k(2), rC)
	// ROR9(y0) into the spare, ROL5(y1) into y0's register.
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[e], s.x[a], 9) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[e], s.x[a], 23) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[a], s.x[b], 27) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[a], s.x[b], 5) })
	// x1 = (ROR9(y0) - (x0^k0)) ^ k1 into y1's register, x0 = y3.
	g.dup(rA)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[b], s.x[d], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsub(s.x[e], s.x[e], s.x[b]) })
	g.dup(rB)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[b], s.x[e], vKey) })
	// x2 = (ROL5(y1) - (x1^k2)) ^ k3 into y2's register.
	g.dup(rC)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[e], s.x[b], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsub(s.x[a], s.x[a], s.x[e]) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[e], s.x[c], 29) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[e], s.x[c], 3) })
	key(3, rA)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[c], s.x[a], vKey) })
	// x3 = (ROL3(y2) - (x2^k4)) ^ k5 into y0's register.
	key(4, rB)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[a], s.x[c], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsub(s.x[e], s.x[e], s.x[a]) })
	key(5, rC)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[a], s.x[e], vKey) })
	// x0..x3 are in y3's, y1's, y2's and y0's registers.
	for i := range ss {
		x := &ss[i].x
		x[a], x[d] = x[d], x[a]
	}
}

// rounds emits all rounds on the sets, two per iteration, encrypting from
// the first round key or decrypting from the last.
func (g *gen) rounds(ss []set, decrypt bool) {
	if decrypt {
		// kp = rk + 24*(rounds-1) = rk + 48*(rounds/2) - 24
		g.Op("MOVW $48, R%d", rA)
		g.Op("MUL R%d, R%d, R%d", rRounds, rA, rKP)
		g.Op("ADD R%d, R%d", rRK, rKP)
		g.Op("SUB $24, R%d", rKP)
		g.Op("MOVW R%d, R%d", rRounds, rCnt)
		loop := g.NewLabel("dec")
		g.Label(loop)
		g.decRound(ss, 0)
		g.decRound(ss, -24)
		g.Op("SUB $48, R%d", rKP)
		g.Op("SUB.S $1, R%d", rCnt)
		g.Op("BNE %s", loop)
		g.home(ss)
		return
	}
	g.Op("MOVW R%d, R%d", rRK, rKP)
	g.Op("MOVW R%d, R%d", rRounds, rCnt)
	done := g.NewLabel("rounded")
	for _, same := range []bool{true, false} {
		loop := g.NewLabel("enc")
		if same {
			other := g.NewLabel("keys")
			g.Op("CMP $12, R%d", rRounds)
			g.Op("BNE %s", other)
			g.Label(loop)
			g.encRound(ss, 0, true)
			g.encRound(ss, 24, true)
			g.Op("ADD $48, R%d", rKP)
			g.Op("SUB.S $1, R%d", rCnt)
			g.Op("BNE %s", loop)
			g.Op("B %s", done)
			g.Label(other)
			g.home(ss)
			continue
		}
		g.Label(loop)
		g.encRound(ss, 0, false)
		g.encRound(ss, 24, false)
		g.Op("ADD $48, R%d", rKP)
		g.Op("SUB.S $1, R%d", rCnt)
		g.Op("BNE %s", loop)
	}
	g.Label(done)
	g.home(ss)
}

// home checks that two rounds left every word in its register.
func (g *gen) home(ss []set) {
	for i, s := range ss {
		if s != sets(len(ss))[i] {
			panic("words not back in place after two rounds")
		}
	}
}

// groups emits body(3) while n >= 12, then once body(1) or body(2) for the
// 4 or 8 blocks left, and returns.
func (g *gen) groups(body func(k int)) {
	loop, tail, done, two := g.NewLabel("loop"), g.NewLabel("tail"), g.NewLabel("done"), g.NewLabel("two")
	g.Label(loop)
	g.Op("CMP $12, R%d", rN)
	g.Op("BLT %s", tail)
	body(3)
	g.Op("SUB $12, R%d", rN)
	g.Op("B %s", loop)
	g.Label(tail)
	g.Op("CMP $0, R%d", rN)
	g.Op("BEQ %s", done)
	g.Op("CMP $8, R%d", rN)
	g.Op("BEQ %s", two)
	body(1)
	g.Op("RET")
	g.Label(two)
	body(2)
	g.Label(done)
	g.Op("RET")
}

// prologue starts a kernel and loads the arguments every kernel has.
func (g *gen) prologue(name, args string, argSize int) {
	g.Func(name, args, argSize)
	g.Op("MOVW rk+0(FP), R%d", rRK)
	g.Op("MOVW rounds+4(FP), R%d", rRounds)
	g.Op("MOVW dst+8(FP), R%d", rDst)
	g.Op("MOVW src+12(FP), R%d", rSrc)
	g.Op("MOVW n+16(FP), R%d", rN)
	g.Op("SRL $1, R%d", rRounds)
}

// ecb emits encryptBlocksNEON or decryptBlocksNEON for n > 0 blocks, a
// multiple of 4; dst and src may be the same.
func (g *gen) ecb(name string, decrypt bool) {
	g.prologue(name, "rk *[192]uint32, rounds int, dst, src *byte, n int", 20)
	g.groups(func(k int) {
		ss := sets(k)
		for _, s := range ss {
			for _, i := range armgen.Ld4(s.x[0], rSrc) {
				g.neon(i)
			}
		}
		g.rounds(ss, decrypt)
		for _, s := range ss {
			for _, i := range armgen.St4(s.x[0], rDst) {
				g.neon(i)
			}
		}
	})
}

// ctr emits ctrBlocksNEON: dst = src ^ E(counter blocks) for n > 0 blocks,
// a multiple of 4. The counter block of block j has the little-endian words
// w0, w1, w2 and byte-reversed lo+j, which the caller keeps from wrapping.
func (g *gen) ctr() {
	g.prologue("ctrBlocksNEON", "rk *[192]uint32, rounds int, dst, src *byte, n int, w0, w1, w2, lo uint32", 36)
	g.groups(func(k int) {
		ss := sets(k)
		// The rounds need every core register: lo+j lives in the argument
		// slot between groups.
		g.Op("MOVW lo+32(FP), R%d", rD)
		g.Op("MOVW w0+20(FP), R%d", rA)
		g.Op("MOVW w1+24(FP), R%d", rB)
		g.Op("MOVW w2+28(FP), R%d", rC)
		for _, s := range ss {
			g.neon(armgen.VdupR(s.x[0], rA))
			g.neon(armgen.VdupR(s.x[1], rB))
			g.neon(armgen.VdupR(s.x[2], rC))
		}
		for _, s := range ss {
			for j := range 4 {
				g.Op("REV R%d, R%d", rD, rA)
				g.neon(armgen.VmovLane(2*s.x[3]+j/2, j%2, rA))
				g.Op("ADD $1, R%d", rD)
			}
		}
		g.Op("MOVW R%d, lo+32(FP)", rD)
		g.rounds(ss, false)
		for _, s := range ss {
			for _, i := range armgen.Ld4(12, rSrc) {
				g.neon(i)
			}
			for j := range 4 {
				g.neon(armgen.Veor(s.x[j], s.x[j], 12+j))
			}
			for _, i := range armgen.St4(s.x[0], rDst) {
				g.neon(i)
			}
		}
	})
}
