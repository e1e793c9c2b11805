// Command lea generates lea_amd64.s: word-sliced LEA kernels for AVX2 and
// AVX-512, ECB and CTR here and OCB3 fused with them in ocb.go.
//
// A register set holds one word of W blocks in each of four registers (W = 8
// on ymm, 16 on zmm), so each instruction of a round advances W blocks. A
// set is loaded as four vectors of whole blocks and transposed per 128-bit
// lane: afterwards dword 4k+m of register w is word w of block W/4*m+k. The
// transpose is its own inverse, so the same steps bring the blocks back.
// The CTR kernels build their counter blocks directly in that order.
//
// Several sets are in flight: decryption is a serial chain within each
// round (every word is recovered from the one before), and one set alone
// would wait on it. On zmm, four sets (64 blocks) run decryption about 15%
// faster than two on Zen 4; passes of two sets and of one take the rest. On
// ymm, registers allow two sets (16 blocks), then one.
//
// Rounds run four per loop iteration. Encryption leaves the new words where
// the old ones were except that words 0 and 3 swap registers, decryption
// rotates the four registers, so after four rounds both are back in their
// starting registers. Round keys are six words per round, broadcast from
// memory: embedded broadcasts on zmm, VPBROADCASTD shared by the sets on
// ymm. Rotations are VPROLD/VPRORD on zmm and shift/shift/or on ymm.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../lea_amd64.s -pkg lea

// General-purpose registers.
var (
	rk     = R8  // round keys
	rounds = R9  // 24, 28 or 32
	dst    = RDI // output
	src    = RSI // input
	n      = RDX // blocks left
	kp     = RBX // round key of the current round
	cnt    = RCX // rounds left, in fours
)

// isa describes a vector width.
type isa struct {
	name   string
	w      int // blocks per set
	regs   []VecPhysical
	bytes  int   // bytes per vector
	groups []int // sets in flight per pass, from the most
}

var (
	avx2 = isa{"AVX2", 8, []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}, 32, []int{2, 1}}
	avx5 = isa{"AVX512", 16, []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}, 64, []int{4, 2, 1}}
)

// A set is the registers of W blocks: the four words and two temporaries.
type set struct {
	x    [4]VecPhysical
	t, u VecPhysical
}

// sets returns register sets 0..k-1; set s uses registers 6s..6s+5.
func (a isa) sets(k int) []set {
	s := make([]set, k)
	for i := range s {
		r := a.regs[6*i:]
		s[i] = set{[4]VecPhysical{r[0], r[1], r[2], r[3]}, r[4], r[5]}
	}
	return s
}

// Registers outside the sets.
func (a isa) key() VecPhysical  { return a.regs[len(a.regs)-1] } // ymm: broadcast round key word
func (a isa) ctrL() VecPhysical { return a.regs[len(a.regs)-2] } // CTR: low counter halves
// CTR: words 0 and 1 of every counter block.
func (a isa) ctrW() (VecPhysical, VecPhysical) { return a.regs[len(a.regs)-3], a.regs[len(a.regs)-4] }

func (a isa) zmm() bool { return a.w == 16 }

func (a isa) load(m Mem, r VecPhysical) {
	if a.zmm() {
		VMOVDQU64(m, r)
	} else {
		VMOVDQU(m, r)
	}
}

func (a isa) move(r, d VecPhysical) {
	if a.zmm() {
		VMOVDQA64(r, d)
	} else {
		VMOVDQA(r, d)
	}
}

// xmm returns the xmm register under a ymm or zmm register.
func xmm(r VecPhysical) VecPhysical { return r.AsX().(VecPhysical) }

func (a isa) store(r VecPhysical, m Mem) {
	if a.zmm() {
		VMOVDQU64(r, m)
	} else {
		VMOVDQU(r, m)
	}
}

func (a isa) xorMem(m Mem, c, d VecPhysical) {
	if a.zmm() {
		VPXORD(m, c, d)
	} else {
		VPXOR(m, c, d)
	}
}

// rol rotates x left by r bits in place; tmp is clobbered on ymm.
func (a isa) rol(x VecPhysical, r int, tmp VecPhysical) {
	r &= 31
	if a.zmm() {
		if r < 16 {
			VPROLD(U8(r), x, x)
		} else {
			VPRORD(U8(32-r), x, x)
		}
		return
	}
	VPSRLD(U8(32-r), x, tmp)
	VPSLLD(U8(r), x, x)
	VPOR(tmp, x, x)
}

// keyXor emits d = c ^ word j of the round key at kp+disp for every pair
// (c, d), one per set.
func (a isa) keyXor(disp, j int, pairs ...[2]VecPhysical) {
	m := Mem{Base: kp, Disp: disp + 4*j}
	if a.zmm() {
		for _, p := range pairs {
			VPXORD_BCST(m, p[0], p[1])
		}
		return
	}
	VPBROADCASTD(m, a.key())
	for _, p := range pairs {
		VPXOR(a.key(), p[0], p[1])
	}
}

// transpose turns four vectors of whole blocks into four word vectors and
// back, per 128-bit lane, using the set's temporaries.
func (a isa) transpose(s set) {
	r0, r1, r2, r3, t, u := s.x[0], s.x[1], s.x[2], s.x[3], s.t, s.u
	VPUNPCKLDQ(r1, r0, t)  // a0 b0 a1 b1
	VPUNPCKHDQ(r1, r0, u)  // a2 b2 a3 b3
	VPUNPCKLDQ(r3, r2, r0) // c0 d0 c1 d1
	VPUNPCKHDQ(r3, r2, r1) // c2 d2 c3 d3
	VPUNPCKLQDQ(r1, u, r2) // a2 b2 c2 d2
	VPUNPCKHQDQ(r1, u, r3) // a3 b3 c3 d3
	VPUNPCKHQDQ(r0, t, r1) // a1 b1 c1 d1
	VPUNPCKLQDQ(r0, t, r0) // a0 b0 c0 d0
}

// encRound emits one encryption round on the words held in x (word j in
// x[j]) with the round key at kp+disp, and returns where the words are
// afterwards: words 0 and 3 trade registers.
func (a isa) encRound(ss []set, x [][4]VecPhysical, disp int) [][4]VecPhysical {
	pairs := func(f func(i int) [2]VecPhysical) [][2]VecPhysical {
		p := make([][2]VecPhysical, len(ss))
		for i := range ss {
			p[i] = f(i)
		}
		return p
	}
	// new2 = ROR3((x2^k4) + (x3^k5)), into x2; t = x2^k3 first.
	a.keyXor(disp, 3, pairs(func(i int) [2]VecPhysical { return [2]VecPhysical{x[i][2], ss[i].t} })...)
	a.keyXor(disp, 4, pairs(func(i int) [2]VecPhysical { return [2]VecPhysical{x[i][2], x[i][2]} })...)
	a.keyXor(disp, 5, pairs(func(i int) [2]VecPhysical { return [2]VecPhysical{x[i][3], ss[i].u} })...)
	for i := range ss {
		VPADDD(ss[i].u, x[i][2], x[i][2])
		a.rol(x[i][2], -3, ss[i].u)
	}
	// new0 = ROL9((x0^k0) + (x1^k1)), into x3's register.
	a.keyXor(disp, 1, pairs(func(i int) [2]VecPhysical { return [2]VecPhysical{x[i][1], ss[i].u} })...)
	a.keyXor(disp, 0, pairs(func(i int) [2]VecPhysical { return [2]VecPhysical{x[i][0], x[i][3]} })...)
	for i := range ss {
		VPADDD(ss[i].u, x[i][3], x[i][3])
		a.rol(x[i][3], 9, ss[i].u)
	}
	// new1 = ROR5((x1^k2) + (x2^k3)), into x1.
	a.keyXor(disp, 2, pairs(func(i int) [2]VecPhysical { return [2]VecPhysical{x[i][1], x[i][1]} })...)
	for i := range ss {
		VPADDD(ss[i].t, x[i][1], x[i][1])
		a.rol(x[i][1], -5, ss[i].t)
	}
	y := make([][4]VecPhysical, len(x))
	for i := range x {
		y[i] = [4]VecPhysical{x[i][3], x[i][1], x[i][2], x[i][0]}
	}
	return y
}

// decRound emits one decryption round (the inverse of encRound with the
// same key) and returns where the words are afterwards: word 0 is the old
// word 3, and word j+1 is recovered in the register of old word j.
func (a isa) decRound(ss []set, x [][4]VecPhysical, disp int) [][4]VecPhysical {
	rots := [3]int{-9, 5, 3}
	for j := range 3 {
		// x_{j+1} = (ROT(y_j) - (x_j^k_{2j})) ^ k_{2j+1}, with x_0 = y_3.
		prev := func(i int) VecPhysical {
			if j == 0 {
				return x[i][3]
			}
			return x[i][j-1]
		}
		for i := range ss {
			a.rol(x[i][j], rots[j], ss[i].t)
		}
		p := make([][2]VecPhysical, len(ss))
		for i := range ss {
			p[i] = [2]VecPhysical{prev(i), ss[i].t}
		}
		a.keyXor(disp, 2*j, p...)
		for i := range ss {
			VPSUBD(ss[i].t, x[i][j], x[i][j])
			p[i] = [2]VecPhysical{x[i][j], x[i][j]}
		}
		a.keyXor(disp, 2*j+1, p...)
	}
	y := make([][4]VecPhysical, len(x))
	for i := range x {
		y[i] = [4]VecPhysical{x[i][3], x[i][0], x[i][1], x[i][2]}
	}
	return y
}

// roundLoop emits the rounds on the sets, four per iteration, encrypting
// (from the first round key) or decrypting (from the last).
func (a isa) roundLoop(name string, ss []set, decrypt bool) {
	x := make([][4]VecPhysical, len(ss))
	for i := range ss {
		x[i] = ss[i].x
	}
	MOVQ(rounds, cnt)
	SHRQ(U8(2), cnt)
	if decrypt {
		// kp = rk + 24*(rounds-1)
		LEAQ(Mem{Base: rounds, Index: rounds, Scale: 2}, kp)
		LEAQ(Mem{Base: rk, Index: kp, Scale: 8, Disp: -24}, kp)
	} else {
		MOVQ(rk, kp)
	}
	Label(name)
	for r := range 4 {
		if decrypt {
			x = a.decRound(ss, x, -24*r)
		} else {
			x = a.encRound(ss, x, 24*r)
		}
	}
	if decrypt {
		SUBQ(U8(96), kp)
	} else {
		ADDQ(U8(96), kp)
	}
	DECQ(cnt)
	JNZ(LabelRef(name))
	for i := range x {
		if x[i] != ss[i].x {
			panic("words not back in place after four rounds")
		}
	}
}

// ecb emits encryptBlocks or decryptBlocks for n > 0 blocks, a multiple of
// W: two sets at a time, then one.
func (a isa) ecb(decrypt bool) {
	fn := "encryptBlocks"
	if decrypt {
		fn = "decryptBlocks"
	}
	fn += a.name
	TEXT(fn, NOSPLIT, "func(rk *[192]uint32, rounds int, dst, src *byte, n int)")
	Pragma("noescape")
	Load(Param("rk"), rk)
	Load(Param("rounds"), rounds)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	for _, k := range a.groups {
		ss := a.sets(k)
		loop, next := fmt.Sprintf("%s_%d", fn, k), fmt.Sprintf("%s_%d_done", fn, k)
		rl := fmt.Sprintf("%s_%d_rounds", fn, k)
		Label(loop)
		CMPQ(n, U32(k*a.w))
		JB(LabelRef(next))
		for i, s := range ss {
			for j := range 4 {
				a.load(Mem{Base: src, Disp: (4*i + j) * a.bytes}, s.x[j])
			}
			a.transpose(s)
		}
		a.roundLoop(rl, ss, decrypt)
		for i, s := range ss {
			a.transpose(s)
			for j := range 4 {
				a.store(s.x[j], Mem{Base: dst, Disp: (4*i + j) * a.bytes})
			}
		}
		ADDQ(U32(k*a.w*16), src)
		ADDQ(U32(k*a.w*16), dst)
		SUBQ(U32(k*a.w), n)
		JMP(LabelRef(loop))
		Label(next)
	}
	VZEROUPPER()
	RET()
}

// ctrConsts returns the counter offsets of a set, as two vectors of 64-bit
// lanes, the byte shuffle that reverses each dword, and W in every 64-bit
// lane, the step from one set's counters to the next. After the VSHUFPS
// pairs below, dword 4k+m of the word vectors comes from lane 2k+m%2 of the
// first vector (m < 2) or of the second (m >= 2), and it must hold the
// counter of block W/4*m+k.
func (a isa) ctrConsts() (idx [2]Mem, bswap, step Mem) {
	q := a.w / 2 // lanes per vector
	for v := range 2 {
		idx[v] = GLOBL(fmt.Sprintf("ctrIdx%s%d", a.name, v), RODATA|NOPTR)
		for l := range q {
			k, m := l/2, 2*v+l%2
			DATA(8*l, U64(uint64(a.w/4*m+k)))
		}
	}
	bswap = GLOBL("bswapDwords"+a.name, RODATA|NOPTR)
	for i := range a.bytes / 16 {
		DATA(16*i, U64(0x0405060700010203))
		DATA(16*i+8, U64(0x0c0d0e0f08090a0b))
	}
	step = GLOBL("ctrStep"+a.name, RODATA|NOPTR)
	for l := range q {
		DATA(8*l, U64(uint64(a.w)))
	}
	return idx, bswap, step
}

// ctr emits ctrBlocks: dst = src ^ E(counter blocks) for n > 0 blocks, a
// multiple of W. The counter block of block j is hi||lo+j (big-endian
// halves), whose words 0 and 1, w0 and w1, the caller passes. lo+j wraps
// modulo 2^64 without carrying into hi: the caller splits calls there.
func (a isa) ctr() {
	idx, bswap, step := a.ctrConsts()
	fn := "ctrBlocks" + a.name
	TEXT(fn, NOSPLIT, "func(rk *[192]uint32, rounds int, dst, src *byte, n int, w0, w1 uint32, lo uint64)")
	Pragma("noescape")
	Load(Param("rk"), rk)
	Load(Param("rounds"), rounds)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	L := a.ctrL()
	w0, w1 := a.ctrW()
	VPBROADCASTQ(paramAddr("lo"), L)
	for i, w := range []VecPhysical{w0, w1} {
		x := xmm(w)
		Load(Param(fmt.Sprintf("w%d", i)), EAX)
		VMOVD(EAX, x)
		VPBROADCASTD(x, w)
	}
	for _, k := range a.groups {
		ss := a.sets(k)
		loop, next := fmt.Sprintf("%s_%d", fn, k), fmt.Sprintf("%s_%d_done", fn, k)
		rl := fmt.Sprintf("%s_%d_rounds", fn, k)
		Label(loop)
		CMPQ(n, U32(k*a.w))
		JB(LabelRef(next))
		for _, s := range ss {
			VPADDQ(idx[0], L, s.t)
			VPADDQ(idx[1], L, s.u)
			VSHUFPS(U8(0x88), s.u, s.t, s.x[3]) // low halves of lo+j
			VSHUFPS(U8(0xdd), s.u, s.t, s.x[2]) // high halves
			VPSHUFB(bswap, s.x[3], s.x[3])
			VPSHUFB(bswap, s.x[2], s.x[2])
			a.move(w0, s.x[0])
			a.move(w1, s.x[1])
			VPADDQ(step, L, L)
		}
		a.roundLoop(rl, ss, false)
		for i, s := range ss {
			a.transpose(s)
			for j := range 4 {
				m := Mem{Base: src, Disp: (4*i + j) * a.bytes}
				a.xorMem(m, s.x[j], s.x[j])
				a.store(s.x[j], Mem{Base: dst, Disp: (4*i + j) * a.bytes})
			}
		}
		ADDQ(U32(k*a.w*16), src)
		ADDQ(U32(k*a.w*16), dst)
		SUBQ(U32(k*a.w), n)
		JMP(LabelRef(loop))
		Label(next)
	}
	VZEROUPPER()
	RET()
}

// paramAddr returns the stack slot of a parameter, for memory operands.
func paramAddr(name string) Mem {
	b, err := Param(name).Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// encryptWords emits encryptWordsAMD64: one block in general registers,
// for the serial steps of modes, where latency counts: three cycles a round
// (XOR, add, rotate), with the loop and key loads off that chain. As in
// encRound, the words trade registers so that four rounds bring them back.
func encryptWords() {
	TEXT("encryptWordsAMD64", NOSPLIT, "func(rk *[192]uint32, rounds int, w0, w1 uint64) (r0, r1 uint64)")
	Pragma("noescape")
	Load(Param("rk"), kp)
	Load(Param("rounds"), cnt)
	SHRQ(U8(2), cnt)
	r := [4]GPPhysical{R10, R11, R12, R13}
	t, u := RSI.As32(), RDI.As32()
	Load(Param("w0"), r[0])
	MOVQ(r[0], r[1])
	SHRQ(U8(32), r[1])
	Load(Param("w1"), r[2])
	MOVQ(r[2], r[3])
	SHRQ(U8(32), r[3])
	x := r
	Label("encryptWords_rounds")
	for i := range 4 {
		k := func(j int) Mem { return Mem{Base: kp, Disp: 24*i + 4*j} }
		x0, x1, x2, x3 := x[0].As32(), x[1].As32(), x[2].As32(), x[3].As32()
		MOVL(x2, t) // t = x2^k3
		XORL(k(3), t)
		XORL(k(4), x2) // new2 = ROR3((x2^k4) + (x3^k5))
		MOVL(x3, u)
		XORL(k(5), u)
		ADDL(u, x2)
		RORL(U8(3), x2)
		MOVL(x1, u) // new0 = ROL9((x0^k0) + (x1^k1)), into x3
		XORL(k(1), u)
		MOVL(x0, x3)
		XORL(k(0), x3)
		ADDL(u, x3)
		ROLL(U8(9), x3)
		XORL(k(2), x1) // new1 = ROR5((x1^k2) + t)
		ADDL(t, x1)
		RORL(U8(5), x1)
		x = [4]GPPhysical{x[3], x[1], x[2], x[0]}
	}
	if x != r {
		panic("words not back in place after four rounds")
	}
	ADDQ(U8(96), kp)
	DECQ(cnt)
	JNZ(LabelRef("encryptWords_rounds"))
	// The 32-bit operations left the upper halves zero.
	SHLQ(U8(32), r[1])
	ORQ(r[1], r[0])
	Store(r[0], Return("r0"))
	SHLQ(U8(32), r[3])
	ORQ(r[3], r[2])
	Store(r[2], Return("r1"))
	RET()
}

func main() {
	ConstraintExpr("!purego")
	encryptWords()
	for _, a := range []isa{avx2, avx5} {
		a.ecb(false)
		a.ecb(true)
		a.ctr()
	}
	for _, o := range []ocbOp{ocbEnc, ocbDec, ocbHash} {
		avx2.ocbYMM(o)
		avx5.ocb(o)
	}
	Generate()
}
