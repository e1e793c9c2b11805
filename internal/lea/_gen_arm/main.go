// Command _gen_arm generates lea_arm.s: word-sliced LEA kernels for ARMv7
// NEON, ECB encryption and decryption and CTR. Go's arm assembler has no
// NEON mnemonics, so internal/armgen encodes them as WORDs.
//
// A set is four blocks in five Q registers: two VLD4 (two blocks each)
// leave word j of block i in lane i of Q(4s+j), and Q(12+s) is the set's
// spare. Three sets (12 blocks) are in flight: NEON results come three
// cycles after issue on a Cortex-A9, so each instruction of a set is
// followed by the same one of the two others before its result is needed.
//
// Round keys stay in memory; each round the core loads the words it needs
// and VDUP broadcasts them into Q15, the one key register. Encryption first
// XORs k5, k3 and k1 into words 3, 2 and 1 in place, so that the other
// key terms become k3^k4 and k1^k2 (computed in core registers) and k0:
// LEA-128's k1 = k3 = k5 then costs one broadcast, not three. Each round
// places its results so that two rounds bring every NEON word back to its
// register.
//
// NEON issues one instruction per cycle and the core's two integer pipes
// would idle, so every kernel runs a thirteenth block in core registers
// beside the twelve, as Seo et al. do ("Parallel Implementations of LEA,
// Revisited", WISA 2016): it reuses the broadcast key words, and the barrel
// shifter rotates operands for free (encryption applies each rotation when
// the word is next read, decryption subtracts from a rotated word with
// RSB), so a round costs it nine instructions. Its words move one register
// per round, so the round loops run four rounds per iteration (every key
// size has a multiple of four). The caller passes how many blocks, a
// multiple of 52, to take 13 at a time; the others go 12 at a time, then 4
// or 8, NEON alone.
package main

import (
	"fmt"

	"github.com/faelabs/fae/internal/arm64gen"
	"github.com/faelabs/fae/internal/armgen"
)

//go:generate go run . -out ../lea_arm.s

// Core registers (Go's R10 is g and R11 its assembler's temporary). The
// arguments live in their slots and are loaded where needed.
const (
	rKP  = 0  // round key of the current round
	rCnt = 6  // iterations of the round loop left
	rA   = 7  // key words; CTR: w0
	rB   = 8  //            CTR: w1
	rC   = 9  //            CTR: w2
	rD   = 12 //            CTR: lo+j
	rT   = 5  // the core block's temporary; pointers outside the rounds
	// NEON alone: pointers and count.
	rDst = 2
	rSrc = 3
	rN   = 4
)

// core holds the core block's words 0..3 at the start of the rounds.
var core = [4]int{1, 2, 3, 4}

// vKey is the broadcast round key word; Q12..Q14 are the sets' spares and,
// in CTR, Q12..Q15 take the input after the rounds.
const vKey = 15

func main() {
	arm64gen.MainBy("_gen_arm", func(f *arm64gen.File) {
		g := &gen{File: f}
		g.encrypt()
		g.decrypt()
		g.ctr()
	})
}

type gen struct {
	*arm64gen.File
	// The core block, when one runs: where its words are and the right
	// rotation still owed to each.
	cb  *[4]int
	rot [4]int
	// rot0 is rot where the round loop starts and ends.
	rot0 [4]int
	// Core instructions of the rounds wait here to go out one after each
	// NEON instruction: llvm-mca's Cortex-A9 dispatches in order, two a
	// cycle, so a run of them would hold NEON back.
	queue []string
}

// neon emits i and the next queued core instruction.
func (g *gen) neon(i armgen.Inst) {
	armgen.Emit(g.File, i)
	if len(g.queue) > 0 {
		g.Op("%s", g.queue[0])
		g.queue = g.queue[1:]
	}
}

// arm queues a core instruction.
func (g *gen) arm(format string, args ...any) {
	g.queue = append(g.queue, fmt.Sprintf(format, args...))
}

// flush emits the queued core instructions.
func (g *gen) flush() {
	for _, op := range g.queue {
		g.Op("%s", op)
	}
	g.queue = nil
}

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
func (g *gen) load(off, r int) { g.arm("MOVW %d(R%d), R%d", off, rKP, r) }

// dup broadcasts core register r into the key register, after the queued
// core instructions, which may write r.
func (g *gen) dup(r int) { g.dupTo(vKey, r) }

func (g *gen) dupTo(v, r int) {
	g.flush()
	g.neon(armgen.VdupR(v, r))
}

// word returns core block word w as an operand, with its owed rotation.
func (g *gen) word(w int) string {
	r := fmt.Sprintf("R%d", g.cb[w])
	if g.rot[w] != 0 {
		r += fmt.Sprintf("@>%d", g.rot[w])
	}
	return r
}

// coreXor: core word w ^= key register k, which pays its rotation.
func (g *gen) coreXor(w, k int) {
	if g.cb != nil {
		g.arm("EOR %s, R%d, R%d", g.word(w), k, g.cb[w])
		g.rot[w] = 0
	}
}

// coreSum: core word dst += word src ^ key register k.
func (g *gen) coreSum(dst, src, k int) {
	if g.cb != nil {
		g.arm("EOR %s, R%d, R%d", g.word(src), k, rT)
		g.arm("ADD R%d, R%d", rT, g.cb[dst])
	}
}

// encRound emits one encryption round on the sets (and the core block)
// with the round key at off(rKP), whose k5 is already in rA and broadcast
// in the key register, and k3^k4 in rD. same135 says k1 = k3 = k5
// (LEA-128); then rC and rB hold k1^k2 and k0 already; otherwise rB and
// rC hold k3 and k1. next emits keys for the next round, whose k5 the round
// broadcasts during its rotations, where no instruction reads the key
// register. Each broadcast stands apart from the first reader of its key: a
// broadcast's result comes a cycle later than other NEON results on a
// Cortex-A9. k3^k4 goes into the spare of set 0 (Q12), free until it takes
// that set's sum.
func (g *gen) encRound(ss []set, off int, same135 bool, next func()) {
	const a, b, c, d, e = 0, 1, 2, 3, 4 // words 0..3 and the spare
	const vK34 = 12
	k := func(j int) int { return off + 4*j }
	xor := func(w, kr int) {
		g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[w], s.x[w], vKey) })
		g.coreXor(w, kr)
	}
	// The sums: new2's (x2^k4) + (x3^k5) into the spare, which frees x3's
	// register; new1's (x1^k2) + (x2^k3) into x2's; new0's (x0^k0) +
	// (x1^k1) into x1's. sumE starts the first; set 0 reads k3^k4 last,
	// as its sum overwrites it.
	sumE := func() {
		for i := len(ss) - 1; i >= 0; i-- {
			g.neon(armgen.Veor(ss[i].x[e], ss[i].x[c], vK34))
		}
	}
	// x3 ^= k5, x2 ^= k3, x1 ^= k1, in place; the key terms k3^k4 (in rD,
	// then Q12), k1^k2 (rC for LEA-128, else rA) and k0 (rB).
	k12 := rC
	if same135 {
		xor(d, rA)
		g.dupTo(vK34, rD)
		xor(c, rA)
		xor(b, rA)
		g.dup(rC)
		sumE()
	} else {
		xor(d, rA)
		g.load(k(2), rA)
		g.dup(rB)
		g.dupTo(vK34, rD)
		xor(c, rB)
		g.load(k(0), rB)
		g.dup(rC)
		g.arm("EOR R%d, R%d", rC, rA)
		sumE()
		xor(b, rC)
		g.dup(rA)
		k12 = rA
	}
	g.coreSum(d, c, rD)
	for i := len(ss) - 1; i >= 0; i-- {
		g.neon(armgen.Vadd(ss[i].x[e], ss[i].x[e], ss[i].x[d]))
	}
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[d], s.x[b], vKey) })
	g.coreSum(c, b, k12)
	g.dup(rB)
	g.each(ss, func(s set) armgen.Inst { return armgen.Vadd(s.x[c], s.x[c], s.x[d]) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[d], s.x[a], vKey) })
	g.coreSum(b, a, rB)
	g.each(ss, func(s set) armgen.Inst { return armgen.Vadd(s.x[b], s.x[b], s.x[d]) })
	next()
	// Rotations: new0 = ROL9 into x3's register, new1 = ROR5 into x1's,
	// new2 = ROR3 into x2's.
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[d], s.x[b], 23) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[d], s.x[b], 9) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[b], s.x[c], 5) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[b], s.x[c], 27) })
	g.dup(rA)
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[c], s.x[e], 3) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[c], s.x[e], 29) })
	// Words 0 and 3 swapped registers; 1, 2 and the spare are in place.
	for i := range ss {
		x := &ss[i].x
		x[a], x[d] = x[d], x[a]
	}
	// The core block's new words 0..2 owe ROR23, ROR5 and ROR3; word 3 is
	// the old word 0, with what it owed.
	if g.cb != nil {
		x := g.cb
		*x = [4]int{x[1], x[2], x[3], x[0]}
		g.rot = [4]int{23, 5, 3, g.rot[0]}
	}
}

// keys emits the loads of the key words of the round at off(rKP) that a
// round expects ready (see encRound), under condition cond ("" or ".NE").
func (g *gen) keys(off int, same135 bool, cond string) {
	g.arm("MOVW%s %d(R%d), R%d", cond, off+20, rKP, rA)
	g.arm("MOVW%s %d(R%d), R%d", cond, off+16, rKP, rD)
	if same135 {
		g.arm("MOVW%s %d(R%d), R%d", cond, off+8, rKP, rC)
		g.arm("MOVW%s %d(R%d), R%d", cond, off, rKP, rB)
		g.arm("EOR R%d, R%d", rA, rD)
		g.arm("EOR R%d, R%d", rA, rC)
		return
	}
	g.arm("MOVW%s %d(R%d), R%d", cond, off+12, rKP, rB)
	g.arm("MOVW%s %d(R%d), R%d", cond, off+4, rKP, rC)
	g.arm("EOR R%d, R%d", rB, rD)
}

// encRounds emits all encryption rounds, four per iteration, on the sets
// and the core block if there is one.
func (g *gen) encRounds(ss []set) {
	g.Op("MOVW rk+0(FP), R%d", rKP)
	g.Op("MOVW rounds+4(FP), R%d", rCnt)
	g.Op("SRL $2, R%d", rCnt)
	done := g.NewLabel("rounded")
	other := g.NewLabel("keys")
	g.Op("CMP $6, R%d", rCnt)
	g.Op("BNE %s", other)
	for _, same := range []bool{true, false} {
		if !same {
			g.Label(other)
		}
		g.keys(0, same, "")
		g.dup(rA)
		loop := g.NewLabel("enc")
		g.Label(loop)
		for r := range 4 {
			off := 24 * r
			next := func() { g.keys(off+24, same, "") }
			if r == 3 {
				// The flags of the count survive to BNE: nothing between
				// sets them. The last iteration loads no key past the end.
				g.arm("SUB.S $1, R%d", rCnt)
				next = func() { g.keys(off+24, same, ".NE") }
			}
			g.encRound(ss, off, same, next)
		}
		g.flush()
		g.Op("ADD $96, R%d", rKP)
		g.Op("BNE %s", loop)
		if same {
			g.Op("B %s", done)
		}
		g.home(ss)
	}
	g.Label(done)
}

// decRound emits one decryption round (the inverse of encRound with the
// same key, at off(rKP)): word 0 is the old word 3, and word j+1 is
// recovered from the word recovered before it.
func (g *gen) decRound(ss []set, off int) {
	const a, b, c, d, e = 0, 1, 2, 3, 4
	k := func(j int) int { return off + 4*j }
	g.load(k(0), rA)
	g.load(k(1), rB)
	g.load(k(2), rC)
	g.load(k(3), rD)
	// ROR9(y0) into the spare, ROL5(y1) into y0's register.
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[e], s.x[a], 9) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[e], s.x[a], 23) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[a], s.x[b], 27) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[a], s.x[b], 5) })
	// x1 = (ROR9(y0) - (x0^k0)) ^ k1 into y1's register, x0 = y3. The
	// core block takes each step beside, in the register of y_j, while
	// the key word is still in its core register.
	g.dup(rA)
	g.coreDecSub(0, 3, 9, rA)
	g.load(k(4), rA)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[b], s.x[d], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsub(s.x[e], s.x[e], s.x[b]) })
	g.dup(rB)
	g.coreXor(0, rB)
	g.load(k(5), rB)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[b], s.x[e], vKey) })
	// x2 = (ROL5(y1) - (x1^k2)) ^ k3 into y2's register.
	g.dup(rC)
	g.coreDecSub(1, 0, 27, rC)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[e], s.x[b], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsub(s.x[a], s.x[a], s.x[e]) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vshr(s.x[e], s.x[c], 29) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsli(s.x[e], s.x[c], 3) })
	g.dup(rD)
	g.coreXor(1, rD)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[c], s.x[a], vKey) })
	// x3 = (ROL3(y2) - (x2^k4)) ^ k5 into y0's register.
	g.dup(rA)
	g.coreDecSub(2, 1, 29, rA)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[a], s.x[c], vKey) })
	g.each(ss, func(s set) armgen.Inst { return armgen.Vsub(s.x[e], s.x[e], s.x[a]) })
	g.dup(rB)
	g.coreXor(2, rB)
	g.each(ss, func(s set) armgen.Inst { return armgen.Veor(s.x[a], s.x[e], vKey) })
	// x0..x3 are in y3's, y1's, y2's and y0's registers; in the core
	// block, y3's, y0's, y1's and y2's.
	for i := range ss {
		x := &ss[i].x
		x[a], x[d] = x[d], x[a]
	}
	if g.cb != nil {
		x := g.cb
		*x = [4]int{x[3], x[0], x[1], x[2]}
	}
}

// coreDecSub: core word j = ROR(word j, r) - (word prev ^ key register k),
// a decryption step before its final XOR.
func (g *gen) coreDecSub(j, prev, r, k int) {
	if g.cb != nil {
		g.arm("EOR R%d, R%d, R%d", k, g.cb[prev], rT)
		g.arm("RSB R%d@>%d, R%d, R%d", g.cb[j], r, rT, g.cb[j])
	}
}

// decRounds emits all decryption rounds, four per iteration (the core
// block's words move one register a round), from the last round key.
func (g *gen) decRounds(ss []set) {
	// kp = rk + 24*(rounds-1)
	g.Op("MOVW rounds+4(FP), R%d", rCnt)
	g.Op("MOVW $24, R%d", rA)
	g.Op("MUL R%d, R%d, R%d", rCnt, rA, rKP)
	g.Op("MOVW rk+0(FP), R%d", rA)
	g.Op("ADD R%d, R%d", rA, rKP)
	g.Op("SUB $24, R%d", rKP)
	g.Op("SRL $2, R%d", rCnt)
	loop := g.NewLabel("dec")
	g.Label(loop)
	for r := range 4 {
		g.decRound(ss, -24*r)
	}
	g.flush()
	g.Op("SUB $96, R%d", rKP)
	g.Op("SUB.S $1, R%d", rCnt)
	g.Op("BNE %s", loop)
	g.home(ss)
}

// home checks that the rounds left every word in its register.
func (g *gen) home(ss []set) {
	for i, s := range ss {
		if s != sets(len(ss))[i] {
			panic("words not back in place after the round loop")
		}
	}
	if g.cb != nil && (*g.cb != core || g.rot != g.rot0) {
		panic("core block not back in place after the round loop")
	}
}

// wide emits, while the wide argument is not 0, body for 13 blocks, and
// subtracts 13 from wide and n. The core block's words are in core[0..3],
// owing the right rotations rot, when the rounds start and end.
func (g *gen) wide(rot [4]int, body func()) {
	loop, done := g.NewLabel("wide"), g.NewLabel("narrow")
	g.Label(loop)
	g.Op("MOVW wide+20(FP), R%d", rT)
	g.Op("SUB.S $13, R%d", rT)
	g.Op("BLO %s", done)
	g.Op("MOVW R%d, wide+20(FP)", rT)
	g.Op("MOVW n+16(FP), R%d", rT)
	g.Op("SUB $13, R%d", rT)
	g.Op("MOVW R%d, n+16(FP)", rT)
	g.cb = new([4]int)
	*g.cb = core
	g.rot, g.rot0 = rot, rot
	body()
	g.cb = nil
	g.Op("B %s", loop)
	g.Label(done)
}

// encRot is what encryption's rounds owe the core block's words at the
// start and end of the round loop.
var encRot = [4]int{23, 5, 3, 23}

// preRotate rotates the core block's words left by what the rounds will
// owe them; settle pays it after the rounds.
func (g *gen) preRotate() {
	for i, r := range g.rot0 {
		if r != 0 {
			g.Op("MOVW R%d@>%d, R%d", core[i], 32-r, core[i])
		}
	}
}

func (g *gen) settle() {
	for i, r := range g.rot0 {
		if r != 0 {
			g.Op("MOVW R%d@>%d, R%d", core[i], r, core[i])
		}
	}
}

// groups emits body(3) while n >= 12, then once body(1) or body(2) for the
// 4 or 8 blocks left, and returns. body finds dst, src and n in rDst, rSrc
// and rN and advances them.
func (g *gen) groups(body func(k int)) {
	loop, tail, done, two := g.NewLabel("loop"), g.NewLabel("tail"), g.NewLabel("done"), g.NewLabel("two")
	g.Op("MOVW dst+8(FP), R%d", rDst)
	g.Op("MOVW src+12(FP), R%d", rSrc)
	g.Op("MOVW n+16(FP), R%d", rN)
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

func (g *gen) ld4(ss []set, ptr int) {
	for _, s := range ss {
		for _, i := range armgen.Ld4(s.x[0], ptr) {
			g.neon(i)
		}
	}
}

func (g *gen) st4(ss []set, ptr int) {
	for _, s := range ss {
		for _, i := range armgen.St4(s.x[0], ptr) {
			g.neon(i)
		}
	}
}

const ecbArgs = "rk *[192]uint32, rounds int, dst, src *byte, n, wide int"

// encrypt emits encryptBlocksNEON for n > 0 blocks, a multiple of 4, the
// first wide of them (a multiple of 52) 13 at a time; dst and src may be the
// same.
func (g *gen) encrypt() {
	g.Func("encryptBlocksNEON", ecbArgs, 24)
	g.ecbWide(encRot, g.encRounds)
	g.ecbGroups(g.encRounds)
}

// ecbWide emits the groups of 13 blocks of ECB, with rounds between the
// loads and the stores.
func (g *gen) ecbWide(rot [4]int, rounds func(ss []set)) {
	ss := sets(3)
	g.wide(rot, func() {
		g.Op("MOVW src+12(FP), R%d", rT)
		g.ld4(ss, rT)
		// The core block is the thirteenth.
		g.Op("ADD $16, R%d, R%d", rT, rKP)
		g.Op("MOVW R%d, src+12(FP)", rKP)
		for i, r := range core {
			g.Op("MOVW %d(R%d), R%d", 4*i, rT, r)
		}
		g.preRotate()
		rounds(ss)
		g.settle()
		g.Op("MOVW dst+8(FP), R%d", rT)
		g.st4(ss, rT)
		for i, r := range core {
			g.Op("MOVW R%d, %d(R%d)", r, 4*i, rT)
		}
		g.Op("ADD $16, R%d", rT)
		g.Op("MOVW R%d, dst+8(FP)", rT)
	})
}

// ecbGroups emits the groups of 12, 8 or 4 blocks of ECB on NEON alone,
// with rounds between the loads and the stores.
func (g *gen) ecbGroups(rounds func(ss []set)) {
	g.groups(func(k int) {
		ss := sets(k)
		g.ld4(ss, rSrc)
		rounds(ss)
		g.st4(ss, rDst)
	})
}

// decrypt emits decryptBlocksNEON for n > 0 blocks, a multiple of 4, the
// first wide of them (a multiple of 52) 13 at a time; dst and src may be the
// same.
func (g *gen) decrypt() {
	g.Func("decryptBlocksNEON", ecbArgs, 24)
	g.ecbWide([4]int{}, g.decRounds)
	g.ecbGroups(g.decRounds)
}

// ctr emits ctrBlocksNEON: dst = src ^ E(counter blocks) for n > 0 blocks,
// a multiple of 4, the first wide of them 13 at a time. The counter block of
// block j has the little-endian words w0, w1, w2 and byte-reversed lo+j,
// which the caller keeps from wrapping. lo+j lives in its argument slot
// between groups.
func (g *gen) ctr() {
	g.Func("ctrBlocksNEON", ecbArgs+", w0, w1, w2, lo uint32", 40)
	// counters sets up the counter blocks of the sets in their registers,
	// and advances lo.
	counters := func(ss []set) {
		g.Op("MOVW w0+24(FP), R%d", rA)
		g.Op("MOVW w1+28(FP), R%d", rB)
		g.Op("MOVW w2+32(FP), R%d", rC)
		g.Op("MOVW lo+36(FP), R%d", rD)
		// Each set's four counters are byte-reversed into registers free
		// until the rounds, while NEON broadcasts the set's other words.
		tmp := [4]int{rKP, 1, rT, rCnt}
		for i, s := range ss {
			for j, t := range tmp {
				if i > 0 || j > 0 {
					g.Op("ADD $%d, R%d, R%d", 4*i+j, rD, t)
					g.Op("REV R%d, R%d", t, t)
				} else {
					g.Op("REV R%d, R%d", rD, t)
				}
			}
			g.neon(armgen.VdupR(s.x[0], rA))
			g.neon(armgen.VdupR(s.x[1], rB))
			g.neon(armgen.VdupR(s.x[2], rC))
			// Alternate the two D registers: a lane write waits for the
			// last write to its register.
			for _, j := range []int{0, 2, 1, 3} {
				g.neon(armgen.VmovLane(2*s.x[3]+j/2, j%2, tmp[j]))
			}
		}
		g.Op("ADD $%d, R%d", 4*len(ss), rD)
	}
	// xorIn XORs the input at src into the sets' words and stores them at
	// dst, advancing both; a set's store goes between the next set's load
	// and the XORs that wait for it.
	xorIn := func(ss []set, src, dst int) {
		for i, s := range ss {
			g.ld4([]set{{[5]int{12}}}, src)
			if i > 0 {
				g.st4(ss[i-1:i], dst)
			}
			for j := range 4 {
				g.neon(armgen.Veor(s.x[j], s.x[j], 12+j))
			}
		}
		g.st4(ss[len(ss)-1:], dst)
	}
	ss := sets(3)
	g.wide(encRot, func() {
		counters(ss)
		// The core block's counter is the thirteenth.
		for i, r := range []int{rA, rB, rC} {
			g.Op("MOVW R%d, R%d", r, core[i])
		}
		g.Op("REV R%d, R%d", rD, core[3])
		g.Op("ADD $1, R%d", rD)
		g.Op("MOVW R%d, lo+36(FP)", rD)
		g.preRotate()
		g.encRounds(ss)
		g.settle()
		g.Op("MOVW src+12(FP), R%d", rT)
		g.Op("MOVW dst+8(FP), R%d", rCnt)
		xorIn(ss, rT, rCnt)
		in := []int{rKP, rA, rB, rC}
		for i, r := range in {
			g.Op("MOVW %d(R%d), R%d", 4*i, rT, r)
		}
		for i, r := range core {
			g.Op("EOR R%d, R%d", in[i], r)
			g.Op("MOVW R%d, %d(R%d)", r, 4*i, rCnt)
		}
		g.Op("ADD $16, R%d", rT)
		g.Op("ADD $16, R%d", rCnt)
		g.Op("MOVW R%d, src+12(FP)", rT)
		g.Op("MOVW R%d, dst+8(FP)", rCnt)
	})
	g.groups(func(k int) {
		ss := sets(k)
		counters(ss)
		g.Op("MOVW R%d, lo+36(FP)", rD)
		g.encRounds(ss)
		xorIn(ss, rSrc, rDst)
	})
}
