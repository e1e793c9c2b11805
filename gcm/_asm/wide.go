package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The VAES kernels: the AES-NI kernels' design on vectors of w blocks, ymm
// (VAES256: VEX encodings, AVX2, 16 registers) and zmm (VAES512: AVX-512).
//
// A group is 8 vectors: 16 blocks on ymm, 32 on zmm, enough independent
// AES work to keep the AES unit busy through its latency. The main loops
// encrypt one group while they hash one (Open the group it decrypts, Seal
// the one it encrypted the iteration before), the hashing spread over the
// last nine AES rounds. Seal on zmm, which would otherwise encrypt its
// first group beside no hashing and hash its last beside no AES, runs those
// two in sub-groups, each hashed between the rounds of the next (sealGroup).
// Block i of a group of g is multiplied by H^(g-i), so the vector at byte
// 16·w·j of the group finds its powers at the same offset from H^g in
// kernelKey. The products are formed by schoolbook (four
// VPCLMULQDQ, no shuffle: the shuffle port is VPCLMULQDQ's) and summed as
// low, middle and high halves over the whole group, then reduced once, in
// every lane: the low half folded into the middle one and the middle one
// into the high one, each by one VPCLMULQDQ by x^-1's high word and a swap
// of halves (the AES-NI kernels' reduction, with the middle half added
// between its two folds). The lanes are then summed into the state, which
// the next group adds to its first block.
//
// Counter blocks are kept byte-reversed, so that the 32-bit big-endian
// counter is the little-endian dword 0 of each lane: VPADDD steps it modulo
// 2^32, as GCM wants, and one VPSHUFB per vector restores the byte order.
// The last AES round takes the source XORed with the last round key as its
// key, which yields the output directly. The zmm kernels keep every round
// key in registers, broadcast to all lanes, and take the powers of H and
// two constants as memory operands; the ymm kernels have too few registers
// and broadcast each round's key as they need it.
//
// The kernels count bytes. Fewer than a group's at the end go through a
// loop of one vector each, whose iterations the core overlaps, all summed
// unreduced with the powers that end at H^1 and reduced once. A last vector
// that is not full is moved under a mask of its bytes (zmm), or is a whole
// block on xmm and then, in the message kernels, a partial one (ymm): no
// byte outside the buffers is read or written, and the bytes past a
// partial block are zero, its GCM padding.
//
// The message kernels (sealMsg, openMsg) take a whole message, of any
// length up to a kernel call's, and its associated data: they compute
// E(J0) beside the other work (message), hash the associated data, run the
// message, and absorb
// the lengths block in the last reduction, its product by H^1 added to the
// tail's, whose blocks then take the powers ending at H^2. The message's
// last group, if any, adds its products to the tail's, unreduced, by the
// powers beyond (so kernelKey holds H^65 for a group and a tail of 32
// blocks on zmm, H^33 for 16 and 16 on ymm). The associated data joins
// them too, hashed last by the powers above the message's, if all fit
// (adLater). A message costs one call, and one reduction on its critical
// path if under two groups and its data fits. On ymm a partial block comes
// in by loadPartial and goes out through the stack, copied 8, 4, 2 and 1
// bytes at a time, as in the xmm kernels.

// General-purpose registers of the message kernels, besides those of gcm.go.
var (
	adBytes  = R13 // the associated data's length
	msgBytes = R14 // the message's length
)

// wide generates one family's kernels.
type wide struct {
	name   string // suffix of the function names
	w      int    // blocks per vector
	group  int    // blocks per group
	zmm    bool   // AVX-512: 32 registers, ternary logic, masks
	labels int
	// part is the stack block through which the ymm message kernels move a
	// partial block; unset (Base nil) elsewhere, whose kernels take whole
	// blocks only.
	part Mem
}

// powBase is the offset in kernelKey of H^group, a group's first power.
func (g *wide) powBase() int { return 16 * (numPowers - g.group) }

// Vector registers of the wide kernels, by role.
type wideRegs struct {
	states           []VecPhysical // counter blocks in the rounds
	x                VecPhysical   // the block being hashed
	tmp              []VecPhysical // products, keystream ^ source
	lo, mi, hi       VecPhysical   // sums of products; lo holds the state between groups
	ctr              VecPhysical   // the next counter blocks, byte-reversed
	key              VecPhysical   // ymm: the round key in use
	inc, bswap, poly Op            // in memory, but bswap in a register on zmm
	yt               VecPhysical   // tail: the state, added to the first block
	in               VecPhysical   // tail: a partial vector's source
}

var (
	zRegs = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
	yRegs = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
)

// zmm round keys: K0 in zKey0; the rest from the last backwards, key nr-10+i
// (at p+16i) in zmmKey(i), i from -3 (AES-256's K1) to 10 (the last).
const zKey0 = 16

func zmmKey(i int) VecPhysical { return zRegs[20+i] }

// eJ0 holds E(J0) in the message kernels.
var eJ0 = X31

var wideBswap, widePoly, laneIdx, incs2, incs4 Mem

func wideConstants() {
	lanes := func(name string, n int, lo, hi func(l int) uint64) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		for l := range n {
			DATA(16*l, U64(lo(l)))
			DATA(16*l+8, U64(hi(l)))
		}
		return m
	}
	c := func(v uint64) func(int) uint64 { return func(int) uint64 { return v } }
	wideBswap = lanes("gcmBswapWide", 2, c(0x08090a0b0c0d0e0f), c(0x0001020304050607))
	widePoly = lanes("gcmPolyWide", 4, c(1), c(0xc200000000000000))
	// laneIdx adds l to lane l's counter (from offset 16, l+1); incs2 and
	// incs4 step each lane by the blocks of a ymm and a zmm register.
	laneIdx = lanes("gcmLaneIdx", 5, func(l int) uint64 { return uint64(l) }, c(0))
	incs2 = lanes("gcmInc2", 2, c(2), c(0))
	incs4 = lanes("gcmInc4", 4, c(4), c(0))
}

func (g *wide) regs() wideRegs {
	if g.zmm {
		z := zRegs
		return wideRegs{
			states: z[0:8], x: z[8], tmp: z[9:11], lo: z[11], mi: z[12], hi: z[13],
			ctr: z[14], bswap: z[15], inc: incs4, poly: widePoly, yt: z[1], in: z[2],
		}
	}
	y := yRegs
	return wideRegs{
		states: y[0:8], x: y[8], tmp: y[9:11], lo: y[11], mi: y[12], hi: y[13],
		ctr: y[14], key: y[15], inc: incs2, bswap: wideBswap, poly: widePoly, yt: y[1], in: y[2],
	}
}

func (g *wide) label(s string) string {
	g.labels++
	return fmt.Sprintf("%s%s%d", s, g.name, g.labels)
}

// vecBytes is the size of a vector.
func (g *wide) vecBytes() int { return 16 * g.w }

func (g *wide) mov(src, dst Op) {
	if g.zmm {
		VMOVDQU64(src, dst)
	} else {
		VMOVDQU(src, dst)
	}
}

func (g *wide) xor(a, b, dst Op) {
	if g.zmm {
		VPXORQ(a, b, dst)
	} else {
		VPXOR(a, b, dst)
	}
}

// xor3 sets dst ^= a ^ b.
func (g *wide) xor3(a, b, dst VecPhysical) {
	if g.zmm {
		VPTERNLOGD(U8(0x96), a, b, dst)
		return
	}
	VPXOR(a, dst, dst)
	VPXOR(b, dst, dst)
}

// key returns round key nr-10+i (at p+16i), broadcast to every lane.
func (g *wide) key(r wideRegs, i int) Op {
	if g.zmm {
		return zmmKey(i)
	}
	VBROADCASTI128(Mem{Base: p, Disp: 16 * i}, r.key)
	return r.key
}

// key0 returns round key 0, broadcast to every lane.
func (g *wide) key0(r wideRegs) Op {
	if g.zmm {
		return zRegs[zKey0]
	}
	VBROADCASTI128(Mem{Base: rk}, r.key)
	return r.key
}

// loadKeys sets p and broadcasts the zmm kernels' round keys to their
// registers.
func (g *wide) loadKeys() {
	MOVQ(nr, p)
	SHLQ(U8(4), p)
	LEAQ(Mem{Base: rk, Index: p, Scale: 1, Disp: -160}, p)
	if !g.zmm {
		return
	}
	VBROADCASTI32X4(Mem{Base: rk}, zRegs[zKey0])
	for i := 1; i <= 10; i++ {
		VBROADCASTI32X4(Mem{Base: p, Disp: 16 * i}, zmmKey(i))
	}
	done := g.label("keysDone")
	CMPQ(nr, U8(12))
	JB(LabelRef(done))
	VBROADCASTI32X4(Mem{Base: p, Disp: -16}, zmmKey(-1))
	VBROADCASTI32X4(Mem{Base: p}, zmmKey(0))
	JE(LabelRef(done))
	VBROADCASTI32X4(Mem{Base: p, Disp: -48}, zmmKey(-3))
	VBROADCASTI32X4(Mem{Base: p, Disp: -32}, zmmKey(-2))
	Label(done)
}

// constants loads the byte-reversal mask into its zmm register.
func (g *wide) constants(r wideRegs) {
	if g.zmm {
		VBROADCASTI32X4(bswapMask, r.bswap)
	}
}

// counters sets ctr from the first counter block, byte-reversed in the
// low lane, plus lanes (laneIdx or its offset 16).
func (g *wide) counters(r wideRegs, lanes Mem) {
	c := r.ctr
	if g.zmm {
		VSHUFI64X2(U8(0), c, c, c)
	} else {
		VINSERTI128(U8(1), c.AsX(), c, c)
	}
	VPADDD(lanes, c, c)
}

// whiten puts the next counter blocks, XORed with round key 0, into vs.
func (g *wide) whiten(r wideRegs, vs []VecPhysical) {
	for _, s := range vs {
		VPSHUFB(r.bswap, r.ctr, s)
		VPADDD(r.inc, r.ctr, r.ctr)
	}
	k := g.key0(r)
	for _, s := range vs {
		g.xor(k, s, s)
	}
}

// rounds applies AES rounds 1 to nr-1 to vs, the key of round nr-10+i
// from key(i), calling stitch(r), r = 0..8, after each of the last nine.
// The extra rounds of AES-192 and AES-256 come first, so that the stitched
// work sits in rounds every key size has.
func (g *wide) rounds(vs []VecPhysical, key func(i int) Op, stitch func(r int)) {
	round := func(i int) {
		k := key(i)
		for _, s := range vs {
			VAESENC(k, s, s)
		}
	}
	r10, r12 := g.label("rounds10"), g.label("rounds12")
	CMPQ(nr, U8(12))
	JB(LabelRef(r10))
	JE(LabelRef(r12))
	round(-3)
	round(-2)
	Label(r12)
	round(-1)
	round(0)
	Label(r10)
	for i := 1; i <= 9; i++ {
		round(i)
		if stitch != nil {
			stitch(i - 1)
		}
	}
}

// lastRound finishes the full vectors vs, a group's from vector first:
// vector j XORs the keystream into the source at byte 16·w·j and stores the
// result at the same offset of dst.
func (g *wide) lastRound(r wideRegs, vs []VecPhysical, first int) {
	kl := g.key(r, 10)
	for i, s := range vs {
		t, at := r.tmp[i%len(r.tmp)], g.vecBytes()*(first+i)
		g.xor(Mem{Base: src, Disp: at}, kl, t)
		VAESENCLAST(t, s, s)
		g.mov(s, Mem{Base: dst, Disp: at})
	}
}

// mulOps return the steps that add the unreduced product of the reflected
// block(s) in x and the powers at pw to lo, mi and hi, or set them when
// first. With narrow, x holds one block and pw points at one power.
func (g *wide) mulOps(r wideRegs, first, narrow bool, x VecPhysical, pw Op) []func() {
	if narrow {
		x = asX(x)
	}
	mul := func(imm uint8, dst VecPhysical) {
		if narrow {
			dst = asX(dst)
		}
		VPCLMULQDQ(U8(imm), pw, x, dst)
	}
	if first {
		return []func(){
			func() { mul(0x00, r.lo) },
			func() { mul(0x11, r.hi) },
			func() { mul(0x01, r.mi) },
			func() { mul(0x10, r.tmp[0]); g.xor(r.tmp[0], r.mi, r.mi) },
		}
	}
	t0, t1 := r.tmp[0], r.tmp[1]
	if g.zmm {
		return []func(){
			func() { mul(0x00, t0) },
			func() { mul(0x11, t1) },
			func() { g.xor(t0, r.lo, r.lo); g.xor(t1, r.hi, r.hi) },
			func() { mul(0x01, t0) },
			func() { mul(0x10, t1) },
			func() { g.xor3(t0, t1, r.mi) },
		}
	}
	return []func(){
		func() { mul(0x00, t0); g.xor(t0, r.lo, r.lo) },
		func() { mul(0x11, t1); g.xor(t1, r.hi, r.hi) },
		func() { mul(0x01, t0); g.xor(t0, r.mi, r.mi) },
		func() { mul(0x10, t1); g.xor(t1, r.mi, r.mi) },
	}
}

// reduceOps return the steps that reduce lo, mi and hi in every lane and
// leave the sum of the lanes, the state, in lo's low 128 bits.
func (g *wide) reduceOps(r wideRegs) []func() {
	t0, t1 := r.tmp[0], r.tmp[1]
	fold := func(from, to VecPhysical) {
		VPCLMULQDQ(U8(0x10), r.poly, from, t0)
		VPSHUFD(U8(0x4e), from, t1)
		g.xor3(t0, t1, to)
	}
	return []func(){
		func() { fold(r.lo, r.mi) },
		func() { fold(r.mi, r.hi) },
		func() {
			h := r.hi
			if g.zmm {
				VEXTRACTI64X4(U8(1), h, t0.AsY())
				VPXOR(t0.AsY(), h.AsY(), t0.AsY())
				h = t0
			}
			VEXTRACTI128(U8(1), h.AsY(), t1.AsX())
			VPXOR(t1.AsX(), h.AsX(), r.lo.AsX())
		},
	}
}

// hashOps return the steps that hash the group at base, its first block
// by the power at pw, into the state in lo; with reduce, the reduction
// follows, else the products are left in the sums.
func (g *wide) hashOps(r wideRegs, base Register, pw Mem, reduce bool) []func() {
	var ops []func()
	for j := range g.group / g.w {
		ops = append(ops, g.vecOps(r, j, Mem{Base: base, Disp: g.vecBytes() * j}, pw)...)
	}
	if reduce {
		ops = append(ops, g.reduceOps(r)...)
	}
	return ops
}

// groupPows addresses H^group, the power of a group's first block when the
// group ends its reduction.
func (g *wide) groupPows() Mem { return Mem{Base: key, Disp: g.powBase()} }

// lastPows addresses the power of the first block of a message kernel's
// last group, which shares the tail's reduction: off, from powerOff, less
// a group.
func (g *wide) lastPows() Mem { return Mem{Base: off, Disp: -16 * g.group} }

// vecOps return the steps that add the products of vector j of a group, in
// c (a register, or memory), to the sums, the group's first block by the
// power at pw; vector 0 takes the state in lo.
func (g *wide) vecOps(r wideRegs, j int, c Op, pw Mem) []func() {
	load := func() {
		x := c
		if m, ok := c.(Mem); ok {
			g.mov(m, r.x)
			x = r.x
		}
		VPSHUFB(r.bswap, x, r.x)
		if j == 0 {
			g.xor(r.lo, r.x, r.x)
		}
	}
	return append([]func(){load}, g.mulOps(r, j == 0, false, r.x, pw.Offset(g.vecBytes()*j))...)
}

// spread returns a stitch that emits ops over the nine rounds, evenly.
func spread(ops []func()) func(r int) {
	return func(r int) {
		for _, op := range ops[r*len(ops)/9 : (r+1)*len(ops)/9] {
			op()
		}
	}
}

func emit(ops []func()) {
	for _, op := range ops {
		op()
	}
}

// advance moves src (and dst) past a group.
func (g *wide) advance(withDst bool) {
	ADDQ(U32(16*g.group), src)
	if withDst {
		ADDQ(U32(16*g.group), dst)
	}
	SUBQ(U32(16*g.group), n)
}

// hashAll hashes the n bytes at src into the state in lo.
func (g *wide) hashAll(r wideRegs) {
	loop, tail, done := g.label("hashLoop"), g.label("hashTail"), g.label("hashDone")
	Label(loop)
	CMPQ(n, U32(16*g.group))
	JB(LabelRef(tail))
	emit(g.hashOps(r, src, g.groupPows(), true))
	g.advance(false)
	JMP(LabelRef(loop))
	Label(tail)
	g.tail(r, hashOp, false, "", done)
	Label(done)
}

// cryptAll seals or opens the n bytes at src into dst, from the counter
// blocks in ctr, and absorbs the ciphertext into the state in lo; with
// lengths (the message kernels), the lengths block too, and then the last
// group, if any, leaves its products unreduced for the tail's reduction: a
// message of up to two groups less a byte is hashed with one reduction, or
// two after associated data, and a longer one with one fewer.
func (g *wide) cryptAll(r wideRegs, o op, lengths bool) {
	tail, pending, done := g.label("cryptTail"), g.label("cryptPending"), g.label("cryptDone")
	bytes, static, last := 16*g.group, g.groupPows(), g.groupPows()
	if lengths {
		last = g.lastPows()
	}
	CMPQ(n, U32(bytes))
	JB(LabelRef(tail))
	switch {
	case o == openOp && !lengths:
		g.groups(r, o, bytes, g.hashOps(r, src, static, true), tail)
	case o == openOp:
		final := g.label("openFinal")
		g.groups(r, o, 2*bytes, g.hashOps(r, src, static, true), final)
		Label(final)
		g.powerOff(bytes, 2)
		g.step(r, o, g.hashOps(r, src, last, false))
		JMP(LabelRef(pending))
	case !g.zmm:
		// On ymm, where AES and GHASH overlap enough as they are, hashing
		// in sub-groups measured slower.
		final := g.label("sealLast")
		g.step(r, o, nil) // nothing to hash yet
		g.groups(r, o, bytes, g.hashOps(r, prev, static, true), final)
		Label(final)
		if lengths {
			g.powerOff(0, 2)
		}
		emit(g.hashOps(r, prev, last, !lengths))
		if lengths {
			JMP(LabelRef(pending))
		}
	default:
		// The first and last groups go in sub-groups (sealGroup); those
		// between, whose rounds hash a whole group, in one.
		final, loop, second := g.label("sealLast"), g.label("sealFinal"), g.label("sealSecond")
		if lengths {
			// The first group is the last, with the tail's powers, if
			// fewer than two groups' bytes are left; else it takes
			// static's, at off less a group.
			g.powerOff(bytes, 2)
			LEAQ(Mem{Base: key, Disp: 16 * numPowers}, t)
			CMPQ(n, U32(2*bytes))
			CMOVQCC(t, off)
		}
		g.sealGroup(r, nil, last) // nothing to hash yet
		CMPQ(n, U32(bytes))
		JB(LabelRef(final))
		CMPQ(n, U32(2*bytes))
		JB(LabelRef(second))
		g.step(r, o, g.subOps(r, sealSubs-1, prev, static, true)) // left, but the rounds take the registers
		g.groups(r, o, 2*bytes, g.hashOps(r, prev, static, true), loop)
		Label(loop)
		if lengths {
			g.powerOff(bytes, 2)
		}
		g.sealGroup(r, g.hashOps(r, prev, static, true), last)
		JMP(LabelRef(final))
		Label(second)
		if lengths {
			g.powerOff(bytes, 2)
		}
		g.sealGroup(r, g.subOps(r, sealSubs-1, nil, static, true), last)
		Label(final)
		emit(g.subOps(r, sealSubs-1, nil, last, !lengths))
		if lengths {
			JMP(LabelRef(pending))
		}
	}
	Label(tail)
	g.tail(r, o, lengths, pending, done)
	Label(done)
}

// powerOff points off at the power of the first block of the tail left
// after sub of the n bytes, the tail's powers ending at H^end.
func (g *wide) powerOff(sub, end int) {
	LEAQ(Mem{Base: n, Disp: 15 - sub}, off)
	SHRQ(U8(4), off)
	NEGQ(off)
	ADDQ(U8(numPowers+1-end), off)
	SHLQ(U8(4), off)
	ADDQ(key, off)
}

// groups steps through groups, each with the hashing steps ops, while n is
// at least least bytes, then jumps to exit.
func (g *wide) groups(r wideRegs, o op, least int, ops []func(), exit string) {
	loop := g.label("groupLoop")
	Label(loop)
	CMPQ(n, U32(least))
	JB(LabelRef(exit))
	g.step(r, o, ops)
	JMP(LabelRef(loop))
}

// step seals or opens a group, with the hashing steps ops between its
// rounds: Open hashes the group it decrypts, Seal what is left of the groups
// before and keeps this one's place in prev, for the next.
func (g *wide) step(r wideRegs, o op, ops []func()) {
	vs := r.states[:g.group/g.w]
	g.whiten(r, vs)
	g.rounds(vs, func(i int) Op { return g.key(r, i) }, spread(ops))
	g.lastRound(r, vs, 0)
	if o == sealOp {
		MOVQ(dst, prev)
	}
	g.advance(true)
}

// sealSubs is how many sub-groups sealGroup splits a group into.
const sealSubs = 4

// sealGroup seals a group, its first block's power at pw, and leaves its last
// sub-group to hash (subOps, with the reduction or without). Seal
// can hash only what it has encrypted: it encrypts the group in sub-groups
// and hashes each from its registers between the rounds of the next, which
// the core overlaps, so that only the last sub-group's hashing and the
// reduction are left, for the rounds of the next group's first sub-group
// (left, the steps that finish the group before) or after them.
func (g *wide) sealGroup(r wideRegs, left []func(), pw Mem) {
	vs := r.states[:g.group/g.w]
	per := len(vs) / sealSubs
	ops := left
	for q := range sealSubs {
		sub := vs[q*per : (q+1)*per]
		g.whiten(r, sub)
		g.rounds(sub, func(i int) Op { return g.key(r, i) }, spread(ops))
		g.lastRound(r, sub, q*per)
		if q < sealSubs-1 {
			ops = g.subOps(r, q, nil, pw, false)
		}
	}
	MOVQ(dst, prev)
	g.advance(true)
}

// subOps return the steps that hash sub-group q of the group sealGroup
// sealed, from its registers or, if base is set, from memory at base, the
// group's first block by the power at pw; with reduce, the reduction
// follows.
func (g *wide) subOps(r wideRegs, q int, base Register, pw Mem, reduce bool) []func() {
	per := g.group / g.w / sealSubs
	var ops []func()
	for j := q * per; j < (q+1)*per; j++ {
		var c Op = r.states[j]
		if base != nil {
			c = Mem{Base: base, Disp: g.vecBytes() * j}
		}
		ops = append(ops, g.vecOps(r, j, c, pw)...)
	}
	if reduce {
		ops = append(ops, g.reduceOps(r)...)
	}
	return ops
}

// tail processes the last n bytes, fewer than a group's, one vector at a
// time, and leaves the state in lo; with lengths, it also absorbs the
// lengths block of adBytes and msgBytes, and at pending takes the sums of a
// last group's products, unreduced, in place of a state.
func (g *wide) tail(r wideRegs, o op, lengths bool, pending, done string) {
	if !lengths {
		TESTQ(n, n)
		JZ(LabelRef(done))
	}
	VMOVDQA(r.lo.AsX(), r.yt.AsX())
	for _, a := range []VecPhysical{r.lo, r.mi, r.hi} {
		g.xor(a, a, a)
	}
	if lengths {
		body := g.label("tailBody")
		JMP(LabelRef(body))
		Label(pending)
		g.xor(r.yt, r.yt, r.yt)
		Label(body)
		g.powerOff(0, 2) // before the lengths block's H^1
	} else {
		g.powerOff(0, 1)
	}
	loop, part, reduce := g.label("tailLoop"), g.label("tailPart"), g.label("tailReduce")
	s := r.states[0]
	Label(loop)
	CMPQ(n, U8(g.vecBytes()))
	JB(LabelRef(part))
	if o == hashOp {
		g.mov(Mem{Base: src}, r.x)
		VPSHUFB(r.bswap, r.x, r.x)
	} else {
		g.whiten(r, []VecPhysical{s})
		if o == openOp {
			g.mov(Mem{Base: src}, r.x)
		}
		g.rounds([]VecPhysical{s}, func(i int) Op { return g.key(r, i) }, nil)
		g.lastRound(r, []VecPhysical{s}, 0)
		if o == sealOp {
			VPSHUFB(r.bswap, s, r.x)
		} else {
			VPSHUFB(r.bswap, r.x, r.x)
		}
		ADDQ(U8(g.vecBytes()), dst)
	}
	g.xor(r.yt, r.x, r.x)
	g.xor(r.yt, r.yt, r.yt)
	emit(g.mulOps(r, false, false, r.x, Mem{Base: off}))
	ADDQ(U8(g.vecBytes()), src)
	ADDQ(U8(g.vecBytes()), off)
	SUBQ(U8(g.vecBytes()), n)
	JMP(LabelRef(loop))

	Label(part)
	TESTQ(n, n)
	JZ(LabelRef(reduce))
	if g.zmm {
		g.partZMM(r, o)
	} else {
		g.partYMM(r, o, reduce)
	}
	Label(reduce)
	if lengths {
		g.foldAD(r)
		g.lengthsBlock(r)
	}
	emit(g.reduceOps(r))
}

// partZMM processes the last 1..63 bytes, under the byte mask K2.
func (g *wide) partZMM(r wideRegs, o op) {
	s, in := r.states[0], r.in
	MOVQ(I32(-1), t)
	BZHIQ(n, t, t)
	KMOVQ(t, K2)
	VMOVDQU8_Z(Mem{Base: src}, K2, in)
	switch o {
	case hashOp:
		VPSHUFB(r.bswap, in, r.x)
		g.xor(r.yt, r.x, r.x)
	case openOp:
		g.whiten(r, []VecPhysical{s})
		g.rounds([]VecPhysical{s}, func(i int) Op { return g.key(r, i) }, nil)
		VAESENCLAST(g.key(r, 10), s, s)
		VPXORQ(in, s, s)
		VMOVDQU8(s, K2, Mem{Base: dst})
		VPSHUFB(r.bswap, in, r.x)
		g.xor(r.yt, r.x, r.x)
	case sealOp:
		// The ciphertext is hashed as soon as it is out: the source in
		// the last round's key, and the padding zeroed (by the mask,
		// byte-reversed ahead) as the state is added.
		m := r.states[3]
		VPMOVM2B(K2, m)
		VPSHUFB(r.bswap, m, m)
		g.whiten(r, []VecPhysical{s})
		g.rounds([]VecPhysical{s}, func(i int) Op { return g.key(r, i) }, nil)
		VPXORQ(in, g.key(r, 10), r.tmp[0])
		VAESENCLAST(r.tmp[0], s, s)
		VMOVDQU8(s, K2, Mem{Base: dst})
		VPSHUFB(r.bswap, s, r.x)
		VPTERNLOGQ(U8(0x6a), r.yt, m, r.x) // x = x&m ^ yt
	}
	g.xor(r.yt, r.yt, r.yt)
	emit(g.mulOps(r, false, false, r.x, Mem{Base: off}))
}

// partYMM processes the last block, on xmm: the products' high lanes are
// zero, so they add to the ymm sums. In the message kernels, which count
// bytes, the last 1..31 bytes: a whole block, then a partial one.
func (g *wide) partYMM(r wideRegs, o op, reduce string) {
	partial := g.label("partial")
	if g.part.Base != nil {
		CMPQ(n, U8(16))
		JB(LabelRef(partial))
	}
	s, in, x := asX(r.states[0]), asX(r.in), asX(r.x)
	VMOVDQU(Mem{Base: src}, in)
	if o == hashOp {
		VPSHUFB(bswapMask, in, x)
	} else {
		g.encryptX(r, s)
		VPXOR(in, s, s)
		VMOVDQU(s, Mem{Base: dst})
		if o == sealOp {
			VPSHUFB(bswapMask, s, x)
		} else {
			VPSHUFB(bswapMask, in, x)
		}
	}
	VPXOR(r.yt.AsX(), x, x)
	emit(g.mulOps(r, false, true, r.x, Mem{Base: off}))
	if g.part.Base == nil {
		return
	}
	VPXOR(r.yt.AsX(), r.yt.AsX(), r.yt.AsX())
	ADDQ(U8(16), src)
	ADDQ(U8(16), off)
	if o != hashOp {
		ADDQ(U8(16), dst)
		VPADDD(incs.Offset(16), r.ctr.AsX(), r.ctr.AsX())
	}
	SUBQ(U8(16), n)
	JZ(LabelRef(reduce))

	// 1..15 bytes, in by loadPartial, out through the stack: nothing past
	// the buffers is read or written.
	Label(partial)
	loadPartial(g.label("in"), src, n, in, x)
	if o == hashOp {
		VPSHUFB(bswapMask, in, x)
	} else {
		g.encryptX(r, s)
		VPXOR(in, s, s)
		VMOVDQU(s, g.part)
		LEAQ(g.part, prev)
		// dst, not idx, which holds foldAD's powers, goes to copyBytes.
		copyBytes(g.label("out"), prev, dst, n)
		if o == sealOp { // the ciphertext, zero padded
			VPAND(maskOf(n), s, s)
			VPSHUFB(bswapMask, s, x)
		} else {
			VPSHUFB(bswapMask, in, x)
		}
	}
	VPXOR(r.yt.AsX(), x, x)
	VPXOR(r.yt.AsX(), r.yt.AsX(), r.yt.AsX()) // for the lengths block
	emit(g.mulOps(r, false, true, r.x, Mem{Base: off}))
}

// encryptX encrypts the counter block in ctr's low lane into s, on xmm.
func (g *wide) encryptX(r wideRegs, s VecPhysical) {
	VPSHUFB(bswapMask, r.ctr.AsX(), s)
	VPXOR(Mem{Base: rk}, s, s)
	g.rounds([]VecPhysical{s}, func(i int) Op { return Mem{Base: p, Disp: 16 * i} }, nil)
	VAESENCLAST(Mem{Base: p, Disp: 160}, s, s)
}

// powers is how many powers of H the family's message kernels reach: two
// groups and one (gcm's powers).
func (g *wide) powers() int { return 2*g.group + 1 }

// adLater, for associated data of adBytes > 0 and idx zero, points idx at
// the power of the data's first block and jumps to later if its blocks and
// the message's, with the lengths block, fit the family's powers (so that
// the message is under two groups and all under its last reduction): the
// data is then hashed last (foldAD), under the message's one reduction,
// not first under one of its own.
func (g *wide) adLater(later string) {
	first := g.label("adFirst")
	LEAQ(Mem{Base: adBytes, Disp: 15}, t)
	SHRQ(U8(4), t)
	LEAQ(Mem{Base: msgBytes, Disp: 15}, off)
	SHRQ(U8(4), off)
	ADDQ(off, t)
	CMPQ(t, U8(g.powers()-1))
	JA(LabelRef(first))
	NEGQ(t)
	ADDQ(U8(numPowers-1), t)
	SHLQ(U8(4), t)
	LEAQ(Mem{Base: key, Index: t, Scale: 1}, idx)
	JMP(LabelRef(later))
	Label(first)
}

// foldAD adds the products of the associated data's blocks, by the powers
// from idx, to the sums, if adLater chose so: a vector at a time, the last
// under a byte mask (zmm), or as a whole block and a partial one on xmm
// (ymm).
func (g *wide) foldAD(r wideRegs) {
	loop, part, done := g.label("foldLoop"), g.label("foldPart"), g.label("foldDone")
	TESTQ(idx, idx)
	JZ(LabelRef(done))
	Load(Param("ad"), src)
	MOVQ(adBytes, n)
	Label(loop)
	CMPQ(n, U8(g.vecBytes()))
	JB(LabelRef(part))
	g.mov(Mem{Base: src}, r.x)
	VPSHUFB(r.bswap, r.x, r.x)
	emit(g.mulOps(r, false, false, r.x, Mem{Base: idx}))
	ADDQ(U8(g.vecBytes()), src)
	ADDQ(U8(g.vecBytes()), idx)
	SUBQ(U8(g.vecBytes()), n)
	JMP(LabelRef(loop))
	Label(part)
	TESTQ(n, n)
	JZ(LabelRef(done))
	if g.zmm {
		MOVQ(I32(-1), t)
		BZHIQ(n, t, t)
		KMOVQ(t, K2)
		VMOVDQU8_Z(Mem{Base: src}, K2, r.x)
		VPSHUFB(r.bswap, r.x, r.x)
		emit(g.mulOps(r, false, false, r.x, Mem{Base: idx}))
		Label(done)
		return
	}
	x, partial := asX(r.x), g.label("foldPartial")
	CMPQ(n, U8(16))
	JB(LabelRef(partial))
	VMOVDQU(Mem{Base: src}, x)
	VPSHUFB(bswapMask, x, x)
	emit(g.mulOps(r, false, true, r.x, Mem{Base: idx}))
	ADDQ(U8(16), src)
	ADDQ(U8(16), idx)
	SUBQ(U8(16), n)
	JZ(LabelRef(done))
	Label(partial)
	loadPartial(g.label("foldIn"), src, n, x, asX(r.in))
	VPSHUFB(bswapMask, x, x)
	emit(g.mulOps(r, false, true, r.x, Mem{Base: idx}))
	Label(done)
}

// lengthsBlock adds the product of the lengths block (plus the state, if no
// block of the tail took it) and H^1 to the sums. Byte-reversed, the block
// is the message's length in bits, then the associated data's.
func (g *wide) lengthsBlock(r wideRegs) {
	x := asX(r.x)
	SHLQ(U8(3), msgBytes)
	SHLQ(U8(3), adBytes)
	VMOVQ(msgBytes, x)
	VPINSRQ(U8(1), adBytes, x, x)
	VPXOR(r.yt.AsX(), x, x)
	emit(g.mulOps(r, false, true, r.x, Mem{Base: key, Disp: 16 * (numPowers - 1)}))
}

// ret returns the block in x as the words r0, r1.
func ret(x VecPhysical, r0, r1 string) {
	VMOVQ(x, t)
	Store(t, Return(r0))
	VPEXTRQ(U8(1), x, t)
	Store(t, Return(r1))
	VZEROUPPER()
	RET()
}

// retState returns the state in lo, byte-reversed back, as r0, r1.
func retState(r wideRegs) {
	VPSHUFB(bswapMask, r.lo.AsX(), r.lo.AsX())
	ret(asX(r.lo), "r0", "r1")
}

// loadState puts the state y0, y1 into lo.
func (g *wide) loadState(r wideRegs) {
	loadWords("y0", "y1", asX(r.lo))
	VPSHUFB(bswapMask, r.lo.AsX(), r.lo.AsX())
}

func (g *wide) ghash() {
	TEXT("ghash"+g.name, NOSPLIT, "func(key "+keyType+", src *byte, n int, y0, y1 uint64) (r0, r1 uint64)")
	Doc("ghash" + g.name + " absorbs n >= 1 blocks at src into the GHASH state y0, y1.")
	r := g.regs()
	Load(Param("key"), key)
	Load(Param("src"), src)
	Load(Param("n"), n)
	SHLQ(U8(4), n)
	g.constants(r)
	g.loadState(r)
	g.hashAll(r)
	retState(r)
}

// init writes initVAES512, which fills key with all its powers, H^1 ..
// H^numPowers (two groups and one), and the Karatsuba operands of H^1 ..
// H^karaPowers, from H·x^-1 (kernelH), doubling in vectors: [H^4..H^1] from
// H and H^2, then the vectors of H^4c..H^1 times H^4c, broadcast, give those
// of H^8c..H^4c+1, reduced lane by lane; H^numPowers last, on xmm. The chain
// of dependent multiplications is six long, and there are nineteen.
func (g *wide) init() {
	TEXT("init"+g.name, NOSPLIT, "func(h0, h1 uint64, key "+keyType+")")
	Doc(fmt.Sprintf("init%s fills key with H^1..H^%d from H·x^-1 (kernelH).", g.name, numPowers))
	r := g.regs()
	Load(Param("key"), key)
	// mul sets dst to the lanes of a times those of b, reduced: on xmm,
	// with narrow.
	mul := func(a VecPhysical, b Op, dst VecPhysical, narrow bool) {
		emit(g.mulOps(r, true, narrow, a, b))
		emit(g.reduceOps(r)[:2]) // the products, reduced, in hi
		if narrow {
			VMOVDQA(r.hi.AsX(), dst.AsX())
		} else {
			VMOVDQA64(r.hi, dst)
		}
	}
	vs := zRegs[16:] // vs[i] holds H^(4i+4)..H^(4i+1)
	h, h2, h21, b := Z4, Z5, Z6, Z0
	loadWords("h0", "h1", asX(h))
	mul(h, asX(h), h2, true)
	VINSERTI128(U8(1), h.AsX(), h2.AsY(), h21.AsY()) // H^2, H, and zero lanes
	VSHUFI64X2(U8(0), h2, h2, b)
	mul(h21, b, vs[0], false)
	VINSERTI64X4(U8(1), h21.AsY(), vs[0], vs[0])
	for c := 1; c < 2*g.group/g.w; c *= 2 {
		VSHUFI64X2(U8(0), vs[c-1], vs[c-1], b) // H^4c
		for i := range c {
			mul(vs[i], b, vs[c+i], false)
		}
	}
	for i, v := range vs {
		g.mov(v, pow(4*i+4))
	}
	mul(vs[len(vs)-1], asX(h), h, true)
	VMOVDQU(h.AsX(), pow(numPowers))
	// The Karatsuba operands: the XOR of each power's halves.
	karas := func(v VecPhysical, k int) {
		VPSHUFD(U8(0x4e), v, r.tmp[0])
		VPXORQ(v, r.tmp[0], r.tmp[0])
		g.mov(r.tmp[0], kara(k))
	}
	karas(vs[0], 4)
	karas(vs[1], 8)
	VEXTRACTI32X4(U8(3), vs[2], h.AsX()) // H^9
	VPSHUFD(U8(0x4e), h.AsX(), r.tmp[0].AsX())
	VPXOR(h.AsX(), r.tmp[0].AsX(), r.tmp[0].AsX())
	VMOVDQU(r.tmp[0].AsX(), kara(9))
	VZEROUPPER()
	RET()
}

// crypt writes the block kernels, seal and open.
func (g *wide) crypt(o op) {
	name := map[op]string{sealOp: "seal", openOp: "open"}[o] + g.name
	TEXT(name, NOSPLIT, "func(nr int, rk *[240]byte, key "+keyType+", dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)")
	if o == sealOp {
		Doc(name+" encrypts n >= 1 blocks from src to dst in counter mode from the",
			"counter block ctr0, ctr1 and absorbs the ciphertext into the GHASH state y0, y1.")
	} else {
		Doc(name+" absorbs n >= 1 blocks at src into the GHASH state y0, y1 and",
			"decrypts them to dst in counter mode from the counter block ctr0, ctr1.")
	}
	r := g.regs()
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("key"), key)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	SHLQ(U8(4), n)
	g.constants(r)
	g.loadKeys()
	g.loadState(r)
	loadWords("ctr0", "ctr1", asX(r.ctr))
	VPSHUFB(bswapMask, r.ctr.AsX(), r.ctr.AsX())
	g.counters(r, laneIdx)
	g.cryptAll(r, o, false)
	retState(r)
}

// message writes the message kernels, sealMsg and openMsg.
func (g *wide) message(o op) {
	messageText(o, g.name)
	r := g.regs()
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("key"), key)
	g.constants(r)
	g.loadKeys()
	// E(J0), whose latency the associated data and the message hide: in a
	// register on zmm, on the stack on ymm, whose registers are all taken.
	// zmm Seal encrypts it after the message: the AES unit serves the
	// oldest rounds first, so its rounds then fill the time the last
	// ciphertext takes to hash, where first they delay the message's (a
	// 552- or 576-byte Seal ~3% faster). Open, whose hashing is done when
	// its last block is, wants it early.
	c := asX(r.ctr)
	loadWords("j0", "j1", c)
	var mask Op = eJ0
	encJ0 := func() {
		g.rounds([]VecPhysical{eJ0}, func(i int) Op { return zmmKey(i).AsX() }, nil)
		VAESENCLAST(zmmKey(10).AsX(), eJ0, eJ0)
	}
	if g.zmm {
		VPXORQ(zRegs[zKey0].AsX(), c, eJ0)
		if o == openOp {
			encJ0()
		}
		VPSHUFB(bswapMask, c, c)
	} else {
		g.part = AllocLocal(16)
		m, s := AllocLocal(16), asX(r.states[0])
		VPSHUFB(bswapMask, c, c)
		g.encryptX(r, s)
		VMOVDQU(s, m)
		mask = m
	}
	g.counters(r, laneIdx.Offset(16))
	g.xor(r.lo, r.lo, r.lo)
	Load(Param("adLen"), adBytes)
	Load(Param("n"), msgBytes)
	adDone := g.label("adDone")
	XORQ(idx, idx)
	TESTQ(adBytes, adBytes)
	JZ(LabelRef(adDone))
	g.adLater(adDone)
	Load(Param("ad"), src)
	MOVQ(adBytes, n)
	g.hashAll(r)
	Label(adDone)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	MOVQ(msgBytes, n)
	g.cryptAll(r, o, true)
	if g.zmm && o == sealOp {
		encJ0()
	}
	VPSHUFB(bswapMask, r.lo.AsX(), r.lo.AsX())
	g.xor(mask, r.lo.AsX(), r.lo.AsX())
	g.part = Mem{}
	ret(asX(r.lo), "t0", "t1")
}

// The ops of the wide kernels.
type op int

const (
	sealOp op = iota
	openOp
	hashOp
)

// asX returns the xmm register that is the low 128 bits of v.
func asX(v VecPhysical) VecPhysical { return v.AsX().(VecPhysical) }
