// Command raocb generates raocb_amd64.s: the fused RAOCB kernels for whole
// blocks.
//
// Each kernel processes n > 0 whole blocks; block j uses the mask
// Δ(x ⊞ j) = AESENC(AESENC(x ⊞ j, R1), R2), x the mask input of the first
// block. Two pipelines run in one loop: the mask pipeline keeps x ⊞ j for
// the next blocks in a counter register as little-endian 32-bit words (the
// byte-swapped big-endian words of the profile), adds the lane offsets with
// VPADDD, swaps the bytes back with VPSHUFB and applies two AESENC with
// broadcast R1 and R2; the cipher pipeline takes each mask as soon as it is
// ready. Nothing in a group's masks depends on the cipher, so the core
// overlaps the next group's masks with the current group's last rounds.
//
// The masks fold into the round keys: the kernels use R2 ^ K0 as the second
// AESENC key, which yields Δ ^ K0, the whitening of a masked input; XORed
// with kx = K0 ^ Klast it is the last round key, which also unmasks the
// output. A block then costs its cipher rounds, two mask rounds and two
// XORs. With AVX-512, checksums take two blocks per VPTERNLOGD.
//
// Widths: xmm (AES-NI with AVX encoding, W=1), ymm (VAES, W=2) and zmm (VAES
// with AVX-512, W=4); a group is 8 vectors of W blocks. On xmm and ymm the
// masks wait for the last round on the stack; on zmm they stay in
// registers.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../raocb_amd64.s -pkg raocb

type op int

const (
	enc  op = iota // dst = E(src^Δ)^Δ, sum ^= src
	dec            // dst = D(src^Δ)^Δ, sum ^= dst
	hash           // sum ^= E(src^Δ)
)

type width struct {
	name string
	w    int // blocks per vector
	regs []VecPhysical
}

var (
	xs = []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}
	ys = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	zs = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}

	xmm = width{"AVX", 1, xs}
	ymm = width{"VAES256", 2, ys}
	zmm = width{"VAES512", 4, zs}
)

// General-purpose registers.
var (
	nr   = RAX // rounds
	rk   = RBX // round keys
	mk   = RCX // R1, R2 ^ K0, K0 ^ Klast
	xp   = RDX // mask input of the first block
	src  = RSI
	dst  = RDI
	n    = R8 // blocks left
	sump = R11
	t1   = R9
	t2   = R10
)

// Vector registers by role. Data vectors are 0..7; zmm keeps the masks of
// data vector k in 8+k.
type roles struct {
	ctr, acc, r1, r2, kl, key, key2, bsw, step, ld0, ld1 int
}

// kl holds K0 ^ Klast (enc, dec) or Klast (hash).
var (
	narrow = roles{ctr: 8, acc: 9, r1: 10, r2: 11, kl: 12, key: 13, key2: 13, bsw: 14, step: 15, ld0: 13, ld1: 13}
	wide   = roles{ctr: 16, acc: 17, r1: 18, r2: 19, kl: 20, key: 21, key2: 22, bsw: 23, step: 24, ld0: 25, ld1: 26}
)

// Constants: bswap32 reverses the bytes of each 32-bit word; laneIdx holds
// the dwords of lane l equal to l; step{1,2,4} hold W in every dword;
// kmask[m] selects the first m+1 blocks of a zmm register (qword pairs);
// byteMask[r] selects the first r bytes of a block, and the 16 bytes of
// padBit from 16-r on are the padding of a final block of r bytes.
var bswap32, laneIdx, kmask, byteMask, padBit Mem
var steps = map[int]Mem{}

type gen struct {
	w      width
	o      op
	r      roles
	masks  Mem // stack slots of the masks (xmm, ymm)
	labels int

	// msg marks a whole message's kernel (zmm, enc or dec only): it also
	// computes the base from the nonce, the final partial block and the tag
	// (see message).
	msg bool
	ek  GPPhysical // encryption round keys
	e0  Mem        // Δ(B, m+3) ^ K0 (with the padded final block, enc) and Δ(B, f+1) ^ K0
}

func main() {
	ConstraintExpr("!purego")
	bswap32 = GLOBL("bswap32", RODATA|NOPTR)
	for i := 0; i < 64; i += 16 {
		DATA(i, U64(0x0405060700010203))
		DATA(i+8, U64(0x0c0d0e0f08090a0b))
	}
	laneIdx = GLOBL("laneIdx", RODATA|NOPTR)
	for l := 0; l < 4; l++ {
		for d := 0; d < 4; d++ {
			DATA(16*l+4*d, U32(l))
		}
	}
	for _, w := range []int{1, 2, 4} {
		steps[w] = GLOBL(fmt.Sprintf("step%d", w), RODATA|NOPTR)
		for i := 0; i < 16*w; i += 4 {
			DATA(i, U32(w))
		}
	}
	kmask = GLOBL("kmask", RODATA|NOPTR)
	for m, v := range []uint32{0x03, 0x0f, 0x3f, 0xff} {
		DATA(4*m, U32(v))
	}
	byteMask = GLOBL("byteMask", RODATA|NOPTR)
	for r := 0; r < 16; r++ {
		DATA(2*r, U16(1<<r-1))
	}
	padBit = GLOBL("padBit", RODATA|NOPTR)
	for i, v := range []uint64{0, 0, 0x80, 0} {
		DATA(8*i, U64(v))
	}
	for _, w := range []width{xmm, ymm, zmm} {
		for _, o := range []op{enc, dec, hash} {
			g := &gen{w: w, o: o, r: narrow}
			if w.w == 4 {
				g.r = wide
			}
			g.function()
		}
	}
	for _, o := range []op{enc, dec} {
		g := &gen{w: zmm, o: o, r: wide, msg: true}
		g.function()
	}
	maskedWords()
	prefetch()
	laneTables()
	for _, run := range []bool{false, true} {
		lanes(enc, run)
		lanes(dec, run)
	}
	Generate()
}

func (g *gen) v(i int) VecPhysical { return g.w.regs[i] }
func (g *gen) x(i int) VecPhysical { return xs[i] }

func (g *gen) label(s string) string {
	g.labels++
	return fmt.Sprintf("%s_%d", s, g.labels)
}

func (g *gen) mov(src, dst Op) {
	if g.w.w == 4 {
		VMOVDQU64(src, dst)
	} else {
		VMOVDQU(src, dst)
	}
}

func (g *gen) xor(a, b, dst Op) {
	if g.w.w == 4 {
		VPXORQ(a, b, dst)
	} else {
		VPXOR(a, b, dst)
	}
}

// bcast loads 16 bytes from m into every lane of d.
func (g *gen) bcast(m Mem, d VecPhysical) {
	switch g.w.w {
	case 1:
		VMOVDQU(m, d)
	case 2:
		VBROADCASTI128(m, d)
	case 4:
		VBROADCASTI32X4(m, d)
	}
}

func (g *gen) function() {
	opName := [...]string{"Enc", "Dec", "Hash"}[g.o]
	sig := "func(nr int, rk *[240]byte, mk *[3][16]byte, x, sum *[16]byte, dst, src *byte, n int)"
	switch {
	case g.msg && g.o == enc:
		opName = "Seal"
		sig = "func(nr int, rk *[240]byte, mk *[3][16]byte, nonce *byte, nonceLen int, bits *[16]byte, dst, src *byte, n, r int) (t0, t1 uint64)"
	case g.msg:
		opName = "Open"
		sig = "func(nr int, rk *[240]byte, mk *[3][16]byte, ek *[240]byte, emk *[3][16]byte, nonce *byte, nonceLen int, bits *[16]byte, dst, src *byte, n, r int) (t0, t1 uint64)"
	case g.o == hash:
		sig = "func(nr int, rk *[240]byte, mk *[3][16]byte, x, sum *[16]byte, src *byte, n int)"
	}
	TEXT("raocb"+opName+g.w.name, NOSPLIT, sig)
	Pragma("noescape")
	if g.o != hash && g.w.w != 4 {
		g.masks = AllocLocal(8 * 16 * g.w.w)
	}
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("mk"), mk)
	if !g.msg {
		Load(Param("x"), xp)
		Load(Param("sum"), sump)
	}
	if g.o != hash {
		Load(Param("dst"), dst)
	}
	Load(Param("src"), src)
	Load(Param("n"), n)

	r := g.r
	if g.msg {
		g.base()
	} else {
		// x arrives as two 8-byte stores: loading it whole would wait for
		// them to reach the cache instead of forwarding each.
		VMOVQ(Mem{Base: xp}, X0)
		VPINSRQ(U8(1), Mem{Base: xp, Disp: 8}, X0, X0)
	}
	g.mov(bswap32, g.v(r.bsw))
	g.mov(steps[g.w.w], g.v(r.step))
	switch g.w.w {
	case 1:
		VMOVDQA(X0, g.v(r.ctr))
	case 2:
		VINSERTI128(U8(1), X0, Y0, g.v(r.ctr))
	case 4:
		VSHUFI64X2(U8(0), Z0, Z0, g.v(r.ctr))
	}
	VPSHUFB(g.v(r.bsw), g.v(r.ctr), g.v(r.ctr))
	g.bcast(Mem{Base: mk}, g.v(r.r1))
	g.bcast(Mem{Base: mk, Disp: 16}, g.v(r.r2))
	if g.o == hash {
		MOVQ(nr, t1)
		SHLQ(U8(4), t1)
		g.bcast(Mem{Base: rk, Index: t1, Scale: 1}, g.v(r.kl))
	} else {
		g.bcast(Mem{Base: mk, Disp: 32}, g.v(r.kl))
	}
	if g.msg {
		g.extras()
	}
	if g.w.w > 1 {
		VPADDD(laneIdx, g.v(r.ctr), g.v(r.ctr))
	}
	g.xor(g.v(r.acc), g.v(r.acc), g.v(r.acc))

	G := 8 * g.w.w
	tail, done := g.label("tail"), g.label("done")
	if g.w.w == 4 {
		g.pipelined(tail, done)
	} else {
		loop := g.label("loop")
		Label(loop)
		CMPQ(n, U32(G))
		JB(LabelRef(tail))
		g.body(8, false, nil)
		g.advance()
		JMP(LabelRef(loop))
	}

	// Fewer than G blocks; the last vector may be partial.
	Label(tail)
	TESTQ(n, n)
	JZ(LabelRef(done))
	var f *fused
	if g.msg {
		f = &tailFused
	}
	tailDone := g.label("taildone")
	switch g.w.w {
	case 1:
		for v := 1; v < 8; v++ {
			skip := g.label("skip")
			CMPQ(n, U32(v))
			JNE(LabelRef(skip))
			g.body(v, false, nil)
			JMP(LabelRef(tailDone))
			Label(skip)
		}
	case 2:
		// v vectors, the last one a single block when n is odd.
		for cnt := 1; cnt < G; cnt++ {
			skip := g.label("skip")
			CMPQ(n, U32(cnt))
			JNE(LabelRef(skip))
			g.body((cnt+1)/2, cnt%2 == 1, nil)
			JMP(LabelRef(tailDone))
			Label(skip)
		}
	case 4:
		// K1 selects the blocks of the last vector.
		LEAQ(Mem{Base: n, Disp: -1}, t1)
		ANDQ(U8(3), t1)
		LEAQ(kmask, t2)
		MOVL(Mem{Base: t2, Index: t1, Scale: 4}, t2.As32())
		KMOVW(t2.As32(), K1)
		LEAQ(Mem{Base: n, Disp: 3}, t1)
		SHRQ(U8(2), t1)
		for v := 1; v <= 8; v++ {
			skip := g.label("skip")
			CMPQ(t1, U32(v))
			JNE(LabelRef(skip))
			g.body(v, true, f)
			JMP(LabelRef(tailDone))
			Label(skip)
		}
	}
	Label(tailDone)

	Label(done)
	if g.msg && g.o == enc {
		g.sealEnd()
		return
	}
	switch g.w.w {
	case 4:
		// Fold in the VEX registers: Z17 has no VEX encoding.
		VMOVDQU64(g.v(r.acc), Z0)
		VEXTRACTI64X4(U8(1), Z0, Y1)
		VPXOR(Y1, Y0, Y0)
		VEXTRACTI128(U8(1), Y0, X1)
		VPXOR(X1, X0, X0)
	case 2:
		VEXTRACTI128(U8(1), g.v(r.acc), X1)
		VPXOR(X1, g.x(r.acc), X0)
	case 1:
		VMOVDQA(g.v(r.acc), X0)
	}
	if g.msg {
		g.openEnd()
		return
	}
	VPXOR(Mem{Base: sump}, X0, X0)
	VMOVDQU(X0, Mem{Base: sump})
	VZEROUPPER()
	RET()
}

// advance moves src and dst past a group.
func (g *gen) advance() {
	G := 8 * g.w.w
	ADDQ(U32(16*G), src)
	if g.o != hash {
		ADDQ(U32(16*G), dst)
	}
	SUBQ(U32(G), n)
}

// The zmm kernels' main loop computes the masks of the next group while
// the current one goes through its rounds, so that the AES unit always has
// independent work: a group's own masks, two rounds deep, would otherwise
// delay its first cipher round. The next group's masks live in nextRegs,
// which the loop takes from the tail's constants (restored after it); R1,
// R2, the byte swap and the lane step come from memory.
var nextRegs = []int{18, 19, 21, 22, 23, 24, 25, 26}

const pipedKey = 27

// heldKeys hold round keys 1, 2, ... in every lane through the main loop;
// the later keys are broadcast as each round needs them.
var heldKeys = []int{28, 29, 30, 31}

// pipelined emits the zmm main loop over whole groups; it falls through to
// the tail with fewer than a group left, or, in a message kernel whose last
// group ends the message, runs the extra blocks there and jumps to done.
func (g *gen) pipelined(tail, done string) {
	r := g.r
	G := 8 * g.w.w
	rs := AllocLocal(128) // R1 and R2 ^ K0 in every lane
	VMOVDQU64(g.v(r.r1), rs)
	VMOVDQU64(g.v(r.r2), rs.Offset(64))
	CMPQ(n, U32(G))
	JB(LabelRef(tail))
	for i, k := range heldKeys {
		VBROADCASTI32X4(Mem{Base: rk, Disp: 16 * (i + 1)}, g.v(k))
	}
	// The first masks take R1 and R2 from registers free until the first
	// group: from the stack, they would wait for the stores above to
	// retire.
	VMOVDQA64(g.v(r.r1), Z8)
	VMOVDQA64(g.v(r.r2), Z9)
	for _, op := range g.maskOps(Z8, Z9) {
		op()
	}
	loop, last := g.label("piped"), g.label("pipedlast")
	Label(loop)
	CMPQ(n, U32(2*G))
	JB(LabelRef(last))
	g.pipedBody(g.maskOps(rs, rs.Offset(64)), nil)
	g.advance()
	JMP(LabelRef(loop))
	Label(last)
	if g.msg {
		partial := g.label("pipedpartial")
		CMPQ(n, U32(G))
		JNE(LabelRef(partial))
		g.pipedBody(nil, &pipedFused)
		JMP(LabelRef(done))
		Label(partial)
	}
	g.pipedBody(nil, nil)
	g.advance()
	// Restore what the tail expects in the registers the masks used.
	VMOVDQU64(rs, g.v(r.r1))
	VMOVDQU64(rs.Offset(64), g.v(r.r2))
	VMOVDQU64(bswap32, g.v(r.bsw))
	VMOVDQU64(steps[4], g.v(r.step))
}

// maskOps returns the steps that compute the masks Δ ^ K0 of the group
// after the counter into nextRegs, with R1 and R2 ^ K0 in r1 and r2, in an
// order that respects their dependencies.
func (g *gen) maskOps(r1, r2 Op) []func() {
	r := g.r
	var ops []func()
	for k := 0; k < 8; k++ {
		d := g.v(nextRegs[k])
		ops = append(ops, func() {
			VPSHUFB(bswap32, g.v(r.ctr), d)
			VPADDD(steps[4], g.v(r.ctr), g.v(r.ctr))
		})
	}
	for _, key := range []Op{r1, r2} {
		for k := 0; k < 8; k++ {
			d := g.v(nextRegs[k])
			ops = append(ops, func() { VAESENC(key, d, d) })
		}
	}
	return ops
}

// pipedBody processes a whole group whose masks are in nextRegs, and runs
// ops, the next group's mask steps, spread over its first eight rounds, and
// the extra blocks in f if not nil.
func (g *gen) pipedBody(ops []func(), f *fused) {
	r := g.r
	next := func(k int) VecPhysical { return g.v(nextRegs[k]) }
	srcAt := func(k int) Mem { return Mem{Base: src, Disp: 64 * k} }
	for k := 0; k < 8; k++ {
		if g.o != hash {
			VPXORQ(g.v(r.kl), next(k), g.v(8+k))
		}
		if g.o != enc {
			VPXORQ(srcAt(k), next(k), g.v(k))
			continue
		}
		// The checksum takes the plaintext two blocks at a time, from the
		// registers it is masked in.
		VMOVDQU64(srcAt(k), g.v(k))
		if k%2 == 1 {
			VPTERNLOGD(U8(0x96), g.v(k-1), g.v(k), g.v(r.acc))
			VPXORQ(g.v(k-1), next(k-1), g.v(k-1))
			VPXORQ(g.v(k), next(k), g.v(k))
		}
	}
	if f != nil {
		g.fuseStart(f)
	}
	round := func(i int) {
		key := g.v(pipedKey)
		if i <= len(heldKeys) {
			key = g.v(heldKeys[i-1])
		} else {
			VBROADCASTI32X4(Mem{Base: rk, Disp: 16 * i}, key)
		}
		for k := 0; k < 8; k++ {
			if g.o == dec {
				VAESDEC(key, g.v(k), g.v(k))
			} else {
				VAESENC(key, g.v(k), g.v(k))
			}
		}
		if f != nil {
			g.fuseRound(f, key, i)
		}
	}
	per := (len(ops) + 7) / 8
	for i := 1; i < 10; i++ {
		round(i)
		for j := 0; j < per && len(ops) > 0; j++ {
			ops[0]()
			ops = ops[1:]
		}
	}
	final := g.label("pipedfinal")
	CMPQ(nr, U8(10))
	JE(LabelRef(final))
	round(10)
	round(11)
	CMPQ(nr, U8(12))
	JE(LabelRef(final))
	round(12)
	round(13)
	Label(final)
	if f != nil {
		g.fuseFinal(f)
	}
	for k := 0; k < 8; k++ {
		key := g.v(8 + k)
		if g.o == hash {
			key = g.v(r.kl)
		}
		if g.o == dec {
			VAESDECLAST(key, g.v(k), g.v(k))
		} else {
			VAESENCLAST(key, g.v(k), g.v(k))
		}
		if g.o != hash {
			VMOVDQU64(g.v(k), Mem{Base: dst, Disp: 64 * k})
		}
	}
	if g.o != enc {
		for k := 0; k < 8; k += 2 {
			VPTERNLOGD(U8(0x96), g.v(k), g.v(k+1), g.v(r.acc))
		}
	}
}

// body processes nv vectors; if partial, the last one is not full: for zmm
// K1 selects its blocks, for ymm it is the single block of its low lane.
// With f not nil (zmm) it also runs the extra blocks in f.
func (g *gen) body(nv int, partial bool, f *fused) {
	r := g.r
	wb := 16 * g.w.w // bytes per vector
	isPartial := func(k int) bool { return partial && k == nv-1 }
	srcAt := func(k int) Mem { return Mem{Base: src, Disp: k * wb} }
	dstAt := func(k int) Mem { return Mem{Base: dst, Disp: k * wb} }
	// load puts the source vector k into register d, zeroing the lanes of a
	// partial vector that hold no block, and never reading past them.
	load := func(k int, d VecPhysical) {
		switch {
		case isPartial(k) && g.w.w == 4:
			VMOVDQU64_Z(srcAt(k), K1, d)
		case isPartial(k):
			VMOVDQU(srcAt(k), d.AsX())
		default:
			g.mov(srcAt(k), d)
		}
	}
	// The masks of the vectors, Δ ^ K0, in the data registers.
	for k := 0; k < nv; k++ {
		VPSHUFB(g.v(r.bsw), g.v(r.ctr), g.v(k))
		VPADDD(g.v(r.step), g.v(r.ctr), g.v(r.ctr))
	}
	for k := 0; k < nv; k++ {
		VAESENC(g.v(r.r1), g.v(k), g.v(k))
	}
	for k := 0; k < nv; k++ {
		VAESENC(g.v(r.r2), g.v(k), g.v(k))
	}
	// The last round keys: Δ ^ Klast.
	if g.o != hash {
		for k := 0; k < nv; k++ {
			if g.w.w == 4 {
				VPXORQ(g.v(r.kl), g.v(k), g.v(8+k))
			} else {
				VPXOR(g.v(r.kl), g.v(k), g.v(r.key))
				VMOVDQU(g.v(r.key), g.masks.Offset(k*wb))
			}
		}
	}
	// The masked inputs; for enc, the checksum of the plaintext.
	switch {
	case g.o == enc && g.w.w == 4:
		for k := 0; k < nv; k += 2 {
			load(k, g.v(r.ld0))
			VPXORQ(g.v(r.ld0), g.v(k), g.v(k))
			if k+1 == nv {
				VPXORQ(g.v(r.ld0), g.v(r.acc), g.v(r.acc))
				break
			}
			load(k+1, g.v(r.ld1))
			VPXORQ(g.v(r.ld1), g.v(k+1), g.v(k+1))
			VPTERNLOGD(U8(0x96), g.v(r.ld0), g.v(r.ld1), g.v(r.acc))
		}
	case g.o == enc:
		for k := 0; k < nv; k++ {
			load(k, g.v(r.ld0))
			VPXOR(g.v(r.ld0), g.v(k), g.v(k))
			VPXOR(g.v(r.ld0), g.v(r.acc), g.v(r.acc))
		}
	default:
		for k := 0; k < nv; k++ {
			if isPartial(k) {
				load(k, g.v(r.ld0))
				g.xor(g.v(r.ld0), g.v(k), g.v(k))
			} else {
				g.xor(srcAt(k), g.v(k), g.v(k))
			}
		}
	}

	if f != nil {
		g.fuseStart(f)
	}
	round := func(i int) {
		var key Op
		var kreg VecPhysical
		switch g.w.w {
		case 1:
			key = Mem{Base: rk, Disp: 16 * i}
		default:
			kreg = g.v([]int{r.key, r.key2}[i%2])
			g.bcast(Mem{Base: rk, Disp: 16 * i}, kreg)
			key = kreg
		}
		for k := 0; k < nv; k++ {
			if g.o == dec {
				VAESDEC(key, g.v(k), g.v(k))
			} else {
				VAESENC(key, g.v(k), g.v(k))
			}
		}
		if f != nil {
			g.fuseRound(f, kreg, i)
		}
	}
	for i := 1; i < 10; i++ {
		round(i)
	}
	final := g.label("final")
	CMPQ(nr, U8(10))
	JE(LabelRef(final))
	round(10)
	round(11)
	CMPQ(nr, U8(12))
	JE(LabelRef(final))
	round(12)
	round(13)
	Label(final)
	if f != nil {
		g.fuseFinal(f)
	}

	for k := 0; k < nv; k++ {
		var key Op = g.v(r.kl)
		switch {
		case g.o == hash:
		case g.w.w == 4:
			key = g.v(8 + k)
		default:
			key = g.masks.Offset(k * wb)
		}
		if g.o == dec {
			VAESDECLAST(key, g.v(k), g.v(k))
		} else {
			VAESENCLAST(key, g.v(k), g.v(k))
		}
		if g.o == hash {
			continue
		}
		switch {
		case isPartial(k) && g.w.w == 4:
			VMOVDQU64(g.v(k), K1, dstAt(k))
		case isPartial(k):
			VMOVDQU(g.v(k).AsX(), dstAt(k))
		default:
			g.mov(g.v(k), dstAt(k))
		}
	}
	if g.o == enc {
		return
	}
	// The checksum of the outputs, with the lanes of a partial vector that
	// hold no block cleared first.
	if partial {
		k := nv - 1
		if g.w.w == 4 {
			VMOVDQU64_Z(g.v(k), K1, g.v(k))
		} else {
			VMOVDQA(g.v(k).AsX(), g.v(k).AsX())
		}
	}
	k := 0
	if g.w.w == 4 {
		for ; k+1 < nv; k += 2 {
			VPTERNLOGD(U8(0x96), g.v(k), g.v(k+1), g.v(r.acc))
		}
	}
	for ; k < nv; k++ {
		g.xor(g.v(k), g.v(r.acc), g.v(r.acc))
	}
}
