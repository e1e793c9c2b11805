// Command ocb generates ocb_amd64.s: the fused OCB3 kernels for whole blocks.
//
// Each kernel processes n whole blocks that follow block index i of a message
// (or of the associated data), i a multiple of 32. Offsets stay in registers:
// a group of G blocks (8 vectors of W blocks) takes the offsets of its first
// G-1 blocks from the per-key table rel (rel[j] = offset of block j+1 of a
// group relative to the offset before the group), and only its last block
// needs L_ntz, one table lookup per group. The offsets are folded into the
// first and last round keys (base^K0 and base^Klast, broadcast once per
// group), and XORs of three values use VPTERNLOGD where AVX-512 has it.
//
// Widths: xmm (AES-NI with AVX encoding, W=1), ymm (VAES, W=2) and zmm (VAES
// with AVX-512, W=4; the round keys live in registers).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../ocb_amd64.s -pkg ocb

type op int

const (
	enc  op = iota // dst = E(src^O)^O, sum ^= src
	dec            // dst = D(src^O)^O, sum ^= dst
	hash           // sum ^= E(src^O)
)

type width struct {
	name string
	w    int // blocks per vector
	vec  func(i int) VecPhysical
}

var (
	xmm = width{"AVX", 1, func(i int) VecPhysical {
		return []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}[i]
	}}
	ymm = width{"VAES256", 2, func(i int) VecPhysical {
		return []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}[i]
	}}
	zmm = width{"VAES512", 4, func(i int) VecPhysical {
		return []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
			Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
	}}
	xmmRegs = []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}
)

// General-purpose registers.
var (
	nr   = RAX // rounds
	rk   = RBX // round keys
	rel  = RCX // relative offsets
	ltab = RDX // L_i
	src  = RSI
	dst  = RDI
	n    = R8 // blocks left
	idx  = R9 // index of the block before the next one
	t1   = R12
	last = R13 // 16*nr: the last round key's offset
)

// Vector registers by role; x(k) are the data vectors 0..7.
const (
	rB0   = 8  // broadcast base^K0
	rB1   = 9  // broadcast base^Klast (enc, dec) or Klast (hash)
	rAcc  = 10 // checksum or AD sum
	rT    = 11 // temporary
	rLast = 12 // relative offsets of the group's last vector
	rNew  = 13 // relative offset of the group's last block (xmm)
	rBase = 14 // offset before the next block (xmm)
	rKey  = 15 // round key (ymm)
	zKey0 = 16 // zmm: round key r lives in Z(zKey0+r), r = 1..13
)

type gen struct {
	w      width
	o      op
	labels int

	// fuse marks the tail of a message kernel, whose body also runs the
	// blocks beside it (see message.go).
	fuse bool
	hash Mem // the message kernels' HASH(A) (zmm)
	buf  Mem // their stack buffer for partial blocks (ymm)
}

func main() {
	ConstraintExpr("!purego")
	tables()
	for _, w := range []width{xmm, ymm, zmm} {
		for _, o := range []op{enc, dec, hash} {
			g := &gen{w: w, o: o}
			g.function()
		}
	}
	for _, w := range []width{xmm, ymm, zmm} {
		for _, o := range []op{enc, dec} {
			g := &gen{w: w, o: o}
			g.message()
		}
	}
	laneTables()
	lanes(enc, false)
	lanes(dec, false)
	lanes(enc, true)
	lanes(dec, true)
	Generate()
}

func (g *gen) v(i int) VecPhysical { return g.w.vec(i) }
func (g *gen) x(i int) VecPhysical { return xmmRegs[i] }

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

// xor3 sets d ^= a ^ b.
func (g *gen) xor3(a, b Op, d VecPhysical) {
	if g.w.w == 4 {
		VPTERNLOGD(U8(0x96), a, b, d)
		return
	}
	VPXOR(a, b, g.v(rT))
	VPXOR(g.v(rT), d, d)
}

// broadcast fills vector register d with copies of xmm register s (the low
// lane of d's register file entry s).
func (g *gen) broadcast(s int, d VecPhysical) {
	switch g.w.w {
	case 1:
		VMOVDQA(g.x(s), d)
	case 2:
		VINSERTI128(U8(1), g.x(s), g.v(s), d)
	case 4:
		VSHUFI64X2(U8(0), g.v(s), g.v(s), d)
	}
}

func (g *gen) function() {
	opName := [...]string{"Enc", "Dec", "Hash"}[g.o]
	// The offset and the checksum travel as little-endian words in general
	// registers: Go builds them from 8-byte stores, which a 16-byte load
	// could not take by store forwarding.
	words := "off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)"
	sig := "func(nr int, rk *[240]byte, rel *[32][16]byte, l *[32][16]byte, dst, src *byte, n int, i uint64, " + words
	if g.o == hash {
		sig = "func(nr int, rk *[240]byte, rel *[32][16]byte, l *[32][16]byte, src *byte, n int, i uint64, " + words
	}
	TEXT("ocb"+opName+g.w.name, NOSPLIT, sig)
	Pragma("noescape")
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("rel"), rel)
	Load(Param("l"), ltab)
	if g.o != hash {
		Load(Param("dst"), dst)
	}
	Load(Param("src"), src)
	Load(Param("n"), n)
	Load(Param("i"), idx)

	MOVQ(nr, last)
	SHLQ(U8(4), last)
	Load(Param("off0"), t1)
	VMOVQ(t1, g.x(rBase))
	Load(Param("off1"), t1)
	VPINSRQ(U8(1), t1, g.x(rBase), g.x(rBase))
	VPXOR(g.x(rAcc), g.x(rAcc), g.x(rAcc))
	g.keys()
	tail, done := g.label("tail"), g.label("done")
	g.groups(tail)
	Label(tail)
	TESTQ(n, n)
	JZ(LabelRef(done))
	tailDone := g.tail()
	Label(tailDone)
	MOVQ(n, t1)
	SHLQ(U8(4), t1)
	VPXOR(Mem{Base: rel, Index: t1, Scale: 1, Disp: -16}, g.x(rBase), g.x(rBase))

	Label(done)
	switch g.w.w {
	case 4:
		VEXTRACTI64X4(U8(1), g.v(rAcc), g.x(rT).AsY())
		VPXOR(g.x(rT).AsY(), g.x(rAcc).AsY(), g.x(rAcc).AsY())
		fallthrough
	case 2:
		VEXTRACTI128(U8(1), g.x(rAcc).AsY(), g.x(rT))
		VPXOR(g.x(rT), g.x(rAcc), g.x(rAcc))
	}
	Load(Param("sum0"), t1)
	VMOVQ(t1, g.x(rT))
	Load(Param("sum1"), t1)
	VPINSRQ(U8(1), t1, g.x(rT), g.x(rT))
	VPXOR(g.x(rT), g.x(rAcc), g.x(rAcc))
	for _, r := range []struct {
		x      int
		lo, hi string
	}{{rBase, "o0", "o1"}, {rAcc, "s0", "s1"}} {
		VMOVQ(g.x(r.x), t1)
		Store(t1, Return(r.lo))
		VPEXTRQ(U8(1), g.x(r.x), t1)
		Store(t1, Return(r.hi))
	}
	VZEROUPPER()
	RET()
}

// keys broadcasts the round keys 1 to 13 (zmm) and, for hash, the last one.
func (g *gen) keys() {
	if g.w.w == 4 {
		for r := 1; r <= 13; r++ {
			VBROADCASTI32X4(Mem{Base: rk, Disp: 16 * r}, g.v(zKey0+r))
		}
	}
	if g.o == hash {
		switch g.w.w {
		case 1:
			VMOVDQU(Mem{Base: rk, Index: last, Scale: 1}, g.v(rB1))
		case 2:
			VBROADCASTI128(Mem{Base: rk, Index: last, Scale: 1}, g.v(rB1))
		case 4:
			VBROADCASTI32X4(Mem{Base: rk, Index: last, Scale: 1}, g.v(rB1))
		}
	}
}

// groups processes whole groups of G blocks while n >= G, then jumps to
// tail.
func (g *gen) groups(tail string) {
	G := 8 * g.w.w
	loop := g.label("loop")
	Label(loop)
	CMPQ(n, U32(G))
	JB(LabelRef(tail))
	g.bases()
	// The group's last block is block idx+G: its offset needs L_ntz(idx+G).
	ADDQ(U32(G), idx)
	BSFQ(idx, t1)
	SHLQ(U8(4), t1)
	VMOVDQU(Mem{Base: rel, Disp: 16 * (G - 2)}, g.x(rNew))
	VPXOR(Mem{Base: ltab, Index: t1, Scale: 1}, g.x(rNew), g.x(rNew))
	switch g.w.w {
	case 1:
		VMOVDQA(g.x(rNew), g.v(rLast))
	case 2:
		VMOVDQU(Mem{Base: rel, Disp: 16 * (G - 2)}, g.v(rLast))
		VINSERTI128(U8(1), g.x(rNew), g.v(rLast), g.v(rLast))
	case 4:
		VMOVDQU64(Mem{Base: rel, Disp: 16 * (G - 4)}, g.v(rLast))
		VINSERTI32X4(U8(3), g.x(rNew), g.v(rLast), g.v(rLast))
	}
	g.body(8, true, false)
	VPXOR(g.x(rNew), g.x(rBase), g.x(rBase))
	ADDQ(U32(16*G), src)
	if g.o != hash {
		ADDQ(U32(16*G), dst)
	}
	SUBQ(U32(G), n)
	JMP(LabelRef(loop))
}

// tail processes the n < G blocks left: no L lookup, and the last vector
// may be partial. It returns the label that ends it. The message kernels
// (zmm) also take n = 0, where only the blocks beside the tail run.
func (g *gen) tail() (tailDone string) {
	G := 8 * g.w.w
	g.bases()
	tailDone = g.label("taildone")
	switch g.w.w {
	case 1:
		first := 1
		if g.fuse {
			first = 0
		}
		for v := first; v < 8; v++ {
			skip := g.label("skip")
			CMPQ(n, U32(v))
			JNE(LabelRef(skip))
			g.body(v, false, false)
			JMP(LabelRef(tailDone))
			Label(skip)
		}
	case 2:
		if g.fuse {
			skip := g.label("skip")
			TESTQ(n, n)
			JNZ(LabelRef(skip))
			g.body(0, false, false)
			JMP(LabelRef(tailDone))
			Label(skip)
		}
		// v vectors, the last one a single block when n is odd.
		for v := 1; v <= 8; v++ {
			for _, half := range []bool{true, false} {
				cnt := 2 * v
				if half {
					cnt--
				}
				if cnt > G-1 {
					continue
				}
				skip := g.label("skip")
				CMPQ(n, U32(cnt))
				JNE(LabelRef(skip))
				g.body(v, false, half)
				JMP(LabelRef(tailDone))
				Label(skip)
			}
		}
	case 4:
		// K1 selects the valid blocks (qword pairs) of the last vector.
		LEAQ(Mem{Base: n, Disp: -1}, t1)
		ANDQ(U8(3), t1)
		LEAQ(Mem{Base: t1, Index: t1, Scale: 1, Disp: 2}, t1)
		MOVQ(U32(1), RAX)
		SHLXQ(t1, RAX, RAX)
		DECQ(RAX)
		KMOVB(EAX, K1)
		MOVQ(last, nr)
		SHRQ(U8(4), nr)
		LEAQ(Mem{Base: n, Disp: 3}, t1)
		SHRQ(U8(2), t1)
		first := 1
		if g.fuse {
			first = 0
		}
		for v := first; v <= 8; v++ {
			skip := g.label("skip")
			CMPQ(t1, U32(v))
			JNE(LabelRef(skip))
			g.body(v, false, true)
			JMP(LabelRef(tailDone))
			Label(skip)
		}
	}
	return tailDone
}

// bases sets B0 = base^K0 and, for enc and dec, B1 = base^Klast, broadcast.
func (g *gen) bases() {
	VPXOR(Mem{Base: rk}, g.x(rBase), g.x(rT))
	g.broadcast(rT, g.v(rB0))
	if g.o != hash {
		VPXOR(Mem{Base: rk, Index: last, Scale: 1}, g.x(rBase), g.x(rT))
		g.broadcast(rT, g.v(rB1))
	}
}

// body processes nv vectors. In a full group the last vector's relative
// offsets are in register rLast; otherwise they come from rel. partial
// marks a last vector that is not full: for zmm its blocks are selected by
// K1, for ymm it is the single block in its low lane.
func (g *gen) body(nv int, group, partial bool) {
	wb := 16 * g.w.w // bytes per vector
	relOp := func(k int) Op {
		if group && k == nv-1 {
			return g.v(rLast)
		}
		return Mem{Base: rel, Disp: k * wb}
	}
	isPartial := func(k int) bool { return partial && k == nv-1 }
	load := func(k int) {
		m := Mem{Base: src, Disp: k * wb}
		switch {
		case isPartial(k) && g.w.w == 4:
			VMOVDQU64_Z(m, K1, g.v(k))
		case isPartial(k):
			VMOVDQU(m, g.x(k))
		default:
			g.mov(m, g.v(k))
		}
	}
	store := func(k int) {
		m := Mem{Base: dst, Disp: k * wb}
		switch {
		case isPartial(k) && g.w.w == 4:
			VMOVDQU64(g.v(k), K1, m)
		case isPartial(k):
			VMOVDQU(g.x(k), m)
		default:
			g.mov(g.v(k), m)
		}
	}
	// clean zeroes the lanes of a partial vector that hold no block.
	clean := func(k int) {
		if !isPartial(k) {
			return
		}
		if g.w.w == 4 {
			VMOVDQU64_Z(g.v(k), K1, g.v(k))
		} else {
			VMOVDQA(g.x(k), g.x(k))
		}
	}
	accumulate := func() {
		k := 0
		if g.w.w == 4 {
			for ; k+1 < nv; k += 2 {
				VPTERNLOGD(U8(0x96), g.v(k+1), g.v(k), g.v(rAcc))
			}
		}
		for ; k < nv; k++ {
			g.xor(g.v(k), g.v(rAcc), g.v(rAcc))
		}
	}

	for k := 0; k < nv; k++ {
		load(k)
	}
	if g.o == enc {
		accumulate()
	}
	if g.fuse {
		g.fuseStart()
	}
	for k := 0; k < nv; k++ {
		g.xor3(relOp(k), g.v(rB0), g.v(k))
	}
	round := func(r int) {
		var key Op
		switch g.w.w {
		case 1:
			key = Mem{Base: rk, Disp: 16 * r}
		case 2:
			VBROADCASTI128(Mem{Base: rk, Disp: 16 * r}, g.v(rKey))
			key = g.v(rKey)
		case 4:
			key = g.v(zKey0 + r)
		}
		for k := 0; k < nv; k++ {
			if g.o == dec {
				VAESDEC(key, g.v(k), g.v(k))
			} else {
				VAESENC(key, g.v(k), g.v(k))
			}
		}
		if g.fuse {
			g.fuseRound(r)
		}
	}
	for r := 1; r < 10; r++ {
		round(r)
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
	if g.fuse {
		g.fuseFinal()
	}
	for k := 0; k < nv; k++ {
		key := g.v(rB1)
		if g.o != hash {
			g.xor(relOp(k), g.v(rB1), g.v(rT))
			key = g.v(rT)
		}
		if g.o == dec {
			VAESDECLAST(key, g.v(k), g.v(k))
		} else {
			VAESENCLAST(key, g.v(k), g.v(k))
		}
		if g.o != hash {
			store(k)
		}
		if g.o != enc {
			clean(k)
		}
	}
	if g.o != enc {
		accumulate()
	}
}
