// Command _gen_arm64 generates lea_arm64.s: word-sliced LEA kernels for
// NEON (Advanced SIMD), ECB encryption and decryption and CTR, through the
// emitter the arm64 generators share (internal/arm64gen).
//
// A set is four blocks: VLD4 with the .S4 arrangement loads 64 bytes so that
// lane i of register j is word j of block i, and VST4 stores them back in
// place, so no separate transpose is needed. Set s keeps its words in
// V(4s)..V(4s+3), where VLD4 and VST4 want consecutive registers, and two
// temporaries in V(16+2s), V(17+2s). Four sets (16 blocks) are in flight in
// the main loop, which decryption needs: each of its rounds is a serial
// chain (every word is recovered from the one before). The remaining 4, 8
// or 12 blocks take one pass of one, two or three sets.
//
// Rounds run four per loop iteration. Encryption swaps the registers of
// words 0 and 3 each round and decryption rotates the four, so after four
// rounds both are back in their starting registers. The six round key words
// of a round are broadcast from memory into V24..V29 by LD4R and LD2R,
// shared by the sets. NEON has no vector rotation: a rotation is USHR into
// a register and SLI of the other part into it.
package main

import "github.com/faelabs/fae/internal/arm64gen"

//go:generate go run . -out ../lea_arm64.s

// General-purpose registers.
const (
	rRK     = "R0"  // round keys
	rRounds = "R1"  // 24, 28 or 32
	rDst    = "R2"  // output
	rSrc    = "R3"  // input
	rN      = "R4"  // blocks left
	rKP     = "R5"  // round key of the current round
	rCnt    = "R6"  // rounds left, in fours
	rBack   = "R7"  // decryption: -40, the key pointer's step back after LD2R
	rLo     = "R8"  // ctr: lo+j while the first counters are built
	rW0     = "R9"  // ctr: word 0 of every counter block
	rW1     = "R10" // ctr: word 1 of every counter block
	rStep   = "R11" // ctr: 4, the counter step per set
)

// Vector registers outside the sets.
const (
	vKey  = 24 // V24..V29: the round key words k0..k5
	vIn   = 24 // ctr: V24..V27 take the input after the rounds
	vStep = 24 // ctr: 4 in both 64-bit lanes, while counters are built
	vCtr  = 30 // ctr: V30 = lo+j, lo+j+1, V31 = lo+j+2, lo+j+3 (64-bit lanes)
)

func main() {
	arm64gen.Main(func(f *arm64gen.File) {
		g := &gen{File: f}
		g.ecb("encryptBlocksNEON", false)
		g.ecb("decryptBlocksNEON", true)
		g.ctr()
	})
}

type gen struct {
	*arm64gen.File
}

// A set is the registers of four blocks: where words 0..3 are now, and two
// temporaries.
type set struct {
	x    [4]int
	t, u int
}

// sets returns sets 0..k-1 with their words in their home registers.
func sets(k int) []set {
	ss := make([]set, k)
	for i := range ss {
		ss[i] = set{[4]int{4 * i, 4*i + 1, 4*i + 2, 4*i + 3}, 16 + 2*i, 17 + 2*i}
	}
	return ss
}

// each emits f for every set, so that the sets' instructions interleave.
func each(ss []set, f func(s set)) {
	for _, s := range ss {
		f(s)
	}
}

func key(j int) int { return vKey + j }

// encRound emits one encryption round on the sets with the round key in
// V24..V29, and moves each set's words where the round leaves them.
func (g *gen) encRound(ss []set) {
	// new2 = ROR3((x2^k4) + (x3^k5)), into x2; t = x2^k3 first.
	each(ss, func(s set) { g.Xor(key(3), s.x[2], s.t) })
	each(ss, func(s set) { g.Xor(key(5), s.x[3], s.u) })
	each(ss, func(s set) { g.Xor(key(4), s.x[2], s.x[2]) })
	each(ss, func(s set) { g.Op("VADD %s, %s, %s", g.S4(s.u), g.S4(s.x[2]), g.S4(s.u)) })
	each(ss, func(s set) { g.Op("VUSHR $3, %s, %s", g.S4(s.u), g.S4(s.x[2])) })
	each(ss, func(s set) { g.Op("VSLI $29, %s, %s", g.S4(s.u), g.S4(s.x[2])) })
	// new0 = ROL9((x0^k0) + (x1^k1)), into x3's register; x0 stays as the
	// new word 3.
	each(ss, func(s set) { g.Xor(key(1), s.x[1], s.u) })
	each(ss, func(s set) { g.Xor(key(0), s.x[0], s.x[3]) })
	each(ss, func(s set) { g.Op("VADD %s, %s, %s", g.S4(s.u), g.S4(s.x[3]), g.S4(s.u)) })
	each(ss, func(s set) { g.Op("VUSHR $23, %s, %s", g.S4(s.u), g.S4(s.x[3])) })
	each(ss, func(s set) { g.Op("VSLI $9, %s, %s", g.S4(s.u), g.S4(s.x[3])) })
	// new1 = ROR5((x1^k2) + t), into x1.
	each(ss, func(s set) { g.Xor(key(2), s.x[1], s.x[1]) })
	each(ss, func(s set) { g.Op("VADD %s, %s, %s", g.S4(s.t), g.S4(s.x[1]), g.S4(s.u)) })
	each(ss, func(s set) { g.Op("VUSHR $5, %s, %s", g.S4(s.u), g.S4(s.x[1])) })
	each(ss, func(s set) { g.Op("VSLI $27, %s, %s", g.S4(s.u), g.S4(s.x[1])) })
	for i := range ss {
		x := ss[i].x
		ss[i].x = [4]int{x[3], x[1], x[2], x[0]}
	}
}

// decRound emits one decryption round (the inverse of encRound with the
// same key): word 0 is the old word 3, and word j+1 is recovered in the
// register of old word j, from the word recovered before it.
func (g *gen) decRound(ss []set) {
	rots := [3]int{9, 27, 29} // right rotations undoing ROL9, ROR5, ROR3
	for j := range 3 {
		// x_{j+1} = (ROR(y_j) - (x_j^k_{2j})) ^ k_{2j+1}, with x_0 = y_3.
		prev := func(s set) int {
			if j == 0 {
				return s.x[3]
			}
			return s.x[j-1]
		}
		each(ss, func(s set) { g.Op("VUSHR $%d, %s, %s", rots[j], g.S4(s.x[j]), g.S4(s.t)) })
		each(ss, func(s set) { g.Op("VSLI $%d, %s, %s", 32-rots[j], g.S4(s.x[j]), g.S4(s.t)) })
		each(ss, func(s set) { g.Xor(key(2*j), prev(s), s.u) })
		each(ss, func(s set) { g.Op("VSUB %s, %s, %s", g.S4(s.u), g.S4(s.t), g.S4(s.t)) })
		each(ss, func(s set) { g.Xor(key(2*j+1), s.t, s.x[j]) })
	}
	for i := range ss {
		x := ss[i].x
		ss[i].x = [4]int{x[3], x[0], x[1], x[2]}
	}
}

// rounds emits all rounds on the sets, four per iteration, encrypting from
// the first round key or decrypting from the last.
func (g *gen) rounds(ss []set, decrypt bool) {
	g.Op("LSR $2, %s, %s", rRounds, rCnt)
	if decrypt {
		// kp = rk + 24*(rounds-1)
		g.Op("ADD %s<<4, %s, %s", rRounds, rRK, rKP)
		g.Op("ADD %s<<3, %s, %s", rRounds, rKP, rKP)
		g.Op("SUB $24, %s", rKP)
	} else {
		g.Op("MOVD %s, %s", rRK, rKP)
	}
	loop := g.NewLabel("rounds")
	g.Label(loop)
	for range 4 {
		g.Op("VLD4R.P 16(%s), %s", rKP, g.RegsS4(key(0), 4))
		if decrypt {
			g.Op("VLD2R.P (%s)(%s), %s", rKP, rBack, g.RegsS4(key(4), 2))
			g.decRound(ss)
		} else {
			g.Op("VLD2R.P 8(%s), %s", rKP, g.RegsS4(key(4), 2))
			g.encRound(ss)
		}
	}
	g.Op("SUBS $1, %s", rCnt)
	g.Op("BNE %s", loop)
	for i, s := range ss {
		if s != sets(len(ss))[i] {
			panic("words not back in place after four rounds")
		}
	}
}

// groups emits body(k) for sets of 16 blocks while n >= 16, then once for
// the 4, 8 or 12 blocks left, and returns.
func (g *gen) groups(body func(k int)) {
	loop, tail, done := g.NewLabel("loop"), g.NewLabel("tail"), g.NewLabel("done")
	one, two := g.NewLabel("one"), g.NewLabel("two")
	g.Label(loop)
	g.Op("CMP $16, %s", rN)
	g.Op("BLT %s", tail)
	body(4)
	g.Op("SUB $16, %s", rN)
	g.Op("B %s", loop)
	g.Label(tail)
	g.Op("CBZ %s, %s", rN, done)
	g.Op("CMP $8, %s", rN)
	g.Op("BLT %s", one)
	g.Op("BEQ %s", two)
	body(3)
	g.Op("RET")
	g.Label(two)
	body(2)
	g.Op("RET")
	g.Label(one)
	body(1)
	g.Label(done)
	g.Op("RET")
}

// prologue starts a kernel and loads the arguments every kernel has.
func (g *gen) prologue(name, args string, argSize int) {
	g.Func(name, args, argSize)
	g.Op("MOVD rk+0(FP), %s", rRK)
	g.Op("MOVD rounds+8(FP), %s", rRounds)
	g.Op("MOVD dst+16(FP), %s", rDst)
	g.Op("MOVD src+24(FP), %s", rSrc)
	g.Op("MOVD n+32(FP), %s", rN)
}

// ecb emits encryptBlocksNEON or decryptBlocksNEON for n > 0 blocks, a
// multiple of 4; dst and src may be the same.
func (g *gen) ecb(name string, decrypt bool) {
	g.prologue(name, "rk *[192]uint32, rounds int, dst, src *byte, n int", 40)
	if decrypt {
		g.Op("MOVD $-40, %s", rBack)
	}
	g.groups(func(k int) {
		ss := sets(k)
		each(ss, func(s set) { g.Op("VLD4.P 64(%s), %s", rSrc, g.RegsS4(s.x[0], 4)) })
		g.rounds(ss, decrypt)
		each(ss, func(s set) { g.Op("VST4.P %s, 64(%s)", g.RegsS4(s.x[0], 4), rDst) })
	})
}

// ctr emits ctrBlocksNEON: dst = src ^ E(counter blocks) for n > 0 blocks,
// a multiple of 4. The counter block of block j is hi||lo+j (big-endian
// halves), whose words 0 and 1, w0 and w1, the caller passes. lo+j wraps
// modulo 2^64 without carrying into hi: the caller splits calls there.
//
// The counters run in 64-bit lanes, four per set in V30, V31; UZP1 and UZP2
// gather their low and high halves into the lanes of words 3 and 2, and
// REV32 makes those big-endian.
func (g *gen) ctr() {
	g.prologue("ctrBlocksNEON", "rk *[192]uint32, rounds int, dst, src *byte, n int, w0, w1 uint32, lo uint64", 56)
	g.Op("MOVWU w0+40(FP), %s", rW0)
	g.Op("MOVWU w1+44(FP), %s", rW1)
	g.Op("MOVD lo+48(FP), %s", rLo)
	for j := range 4 {
		if j > 0 {
			g.Op("ADD $1, %s", rLo)
		}
		g.Op("VMOV %s, V%d.D[%d]", rLo, vCtr+j/2, j%2)
	}
	g.Op("MOVD $4, %s", rStep)
	g.groups(func(k int) {
		ss := sets(k)
		g.Op("VDUP %s, V%d.D2", rStep, vStep)
		each(ss, func(s set) {
			g.Op("VUZP1 %s, %s, %s", g.S4(vCtr+1), g.S4(vCtr), g.S4(s.x[3]))
			g.Op("VUZP2 %s, %s, %s", g.S4(vCtr+1), g.S4(vCtr), g.S4(s.x[2]))
			g.Op("VADD V%d.D2, V%d.D2, V%d.D2", vStep, vCtr, vCtr)
			g.Op("VADD V%d.D2, V%d.D2, V%d.D2", vStep, vCtr+1, vCtr+1)
		})
		each(ss, func(s set) { g.Op("VREV32 %s, %s", g.V(s.x[3]), g.V(s.x[3])) })
		each(ss, func(s set) { g.Op("VREV32 %s, %s", g.V(s.x[2]), g.V(s.x[2])) })
		each(ss, func(s set) { g.Op("VDUP %s, %s", rW0, g.S4(s.x[0])) })
		each(ss, func(s set) { g.Op("VDUP %s, %s", rW1, g.S4(s.x[1])) })
		g.rounds(ss, false)
		each(ss, func(s set) {
			g.Op("VLD4.P 64(%s), %s", rSrc, g.RegsS4(vIn, 4))
			for j := range 4 {
				g.Xor(vIn+j, s.x[j], s.x[j])
			}
			g.Op("VST4.P %s, 64(%s)", g.RegsS4(s.x[0], 4), rDst)
		})
	})
}
