package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The message kernels, ocbSeal and ocbOpen for each width, seal or open a
// whole message of n >= 0 whole blocks and a final partial block of r < 16
// bytes with up to 64 bytes of associated data, and return the tag,
// E(Checksum ^ Offset_m ^ L_$) ^ HASH(A), at full length. Left to separate
// calls, the steps around the blocks wait on each other: Ktop before the
// first offset, the pad after the last block's offset, the tag after the
// checksum. The kernels format the nonce and encipher Ktop in their
// prologue, where the key broadcasts (zmm) and the hash of the associated
// data hide under its latency, and run the pad, E(Offset_*), beside the last
// (partial) group's rounds; so does the tag when sealing, since the checksum
// is complete once the last group's plaintext is loaded. Opening waits for
// the last group's output for the checksum and enciphers the tag after it.
// The nonce, the associated data and the partial block move under AVX-512
// byte masks (zmm), or (ymm, xmm) load by 8, 4, 2 and 1-byte inserts (the
// associated data's whole blocks whole) and store through a stack buffer by
// moves of those sizes: no byte outside them is touched.

// Registers of the message kernels besides the block kernels' own.
var (
	ek      = R10 // encryption round keys (rk when sealing)
	partSrc = R11 // the final partial block in src and dst
	partDst = R14
	ends    = RDX // L_* and L_$, in ltab's register once the groups are done
	rr      = R9  // r, in idx's register once the groups are done
)

// Vector registers of the zmm message kernels: rKL the last round key,
// broadcast (enc); rX the blocks beside the tail; rT2 a temporary.
var (
	rT2 = Z16
	rKL = Z30
	rX  = Z31
)

// Constants: byteMask[r] selects the first r bytes of a block; the 16 bytes
// of padBit from 16-r on are the padding of a final block of r bytes;
// the 64 bytes of padBit64 from 64-n on, those of n bytes of associated data;
// the 16 bytes of ones16 from 16-r on keep the first r bytes of a block;
// ktopMask clears the nonce's 6 bottom bits; rev128 reverses the bytes of
// a block, rev64 those of each half.
var byteMask, padBit, padBit64, ones16, ktopMask, rev128, rev64 Mem

func tables() {
	byteMask = GLOBL("byteMask", RODATA|NOPTR)
	for r := 0; r < 16; r++ {
		DATA(2*r, U16(1<<r-1))
	}
	padBit = GLOBL("padBit", RODATA|NOPTR)
	for i, v := range []uint64{0, 0, 0x80, 0} {
		DATA(8*i, U64(v))
	}
	padBit64 = GLOBL("padBit64", RODATA|NOPTR)
	for i := 0; i < 16; i++ {
		v := uint64(0)
		if i == 8 {
			v = 0x80
		}
		DATA(8*i, U64(v))
	}
	ones16 = GLOBL("ones16", RODATA|NOPTR)
	DATA(0, U64(^uint64(0)))
	DATA(8, U64(^uint64(0)))
	DATA(16, U64(0))
	DATA(24, U64(0))
	ktopMask = GLOBL("ktopMask", RODATA|NOPTR)
	DATA(0, U64(^uint64(0)))
	DATA(8, U64(0xc0ffffffffffffff))
	rev128 = GLOBL("rev128", RODATA|NOPTR)
	DATA(0, U64(0x08090a0b0c0d0e0f))
	DATA(8, U64(0x0001020304050607))
	rev64 = GLOBL("rev64", RODATA|NOPTR)
	DATA(0, U64(0x0001020304050607))
	DATA(8, U64(0x08090a0b0c0d0e0f))
}

func (g *gen) message() {
	name, keys := "ocbSeal", "rk *[240]byte"
	if g.o == dec {
		name, keys = "ocbOpen", "rk, ek *[240]byte"
	}
	TEXT(name+g.w.name, NOSPLIT, "func(nr int, "+keys+", rel, l *[32][16]byte, ends *[2][16]byte, nonce *byte, nonceLen int, bits *[16]byte, dst, src *byte, n, r int, ad *byte, adLen int) (t0, t1 uint64)")
	Pragma("noescape")
	if !g.wide() {
		g.buf = AllocLocal(16)
	}
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	if g.o == dec {
		Load(Param("ek"), ek)
	} else {
		MOVQ(rk, ek)
	}
	MOVQ(nr, last)
	SHLQ(U8(4), last)

	// The nonce block is N, ending the block, ORed with bits: the 16 bytes
	// that end with N, loaded under a mask of N's bytes, which cannot fault
	// on the others (ymm, xmm: inserted piece by piece). Its
	// last byte's 6 bottom bits are the (public) shift c into Stretch,
	// in X4 (c) and X5 (64-c).
	Load(Param("nonce"), t1)
	Load(Param("nonceLen"), partSrc)
	if g.wide() {
		MOVL(U32(16), ECX)
		SUBL(partSrc.As32(), ECX)
		MOVL(U32(0xffffffff), partDst.As32())
		SHLXL(ECX, partDst.As32(), partDst.As32())
		KMOVW(partDst.As32(), K3)
		LEAQ(Mem{Base: t1, Index: partSrc, Scale: 1, Disp: -16}, t1)
		VMOVDQU8_Z(Mem{Base: t1}, K3, X0)
		VMOVDQU(ktopMask, X7)
		Load(Param("bits"), partDst)
		// (X0 & X7) | bits
		VPTERNLOGQ(U8(0xea), Mem{Base: partDst}, X7, X0)
		ADDQ(U8(16), t1)
	} else {
		g.loadBytes(X0, t1, partSrc, true)
		ADDQ(partSrc, t1)
		VPAND(ktopMask, X0, X0)
		Load(Param("bits"), partDst)
		VPOR(Mem{Base: partDst}, X0, X0)
	}
	VPXOR(Mem{Base: ek}, X0, X0)
	g.encRounds(X0)
	MOVBLZX(Mem{Base: t1, Disp: -1}, ECX)
	ANDL(U8(63), ECX)
	VMOVQ(RCX, X4)
	NEGL(ECX)
	ADDL(U8(64), ECX)
	VMOVQ(RCX, X5)
	VMOVDQU(rev128, X6)
	Load(Param("rel"), rel)
	g.keys()
	if g.wide() {
		g.hashAD()
	} else {
		g.hashADNarrow()
	}
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	XORL(idx.As32(), idx.As32())
	VPXOR(g.x(rAcc), g.x(rAcc), g.x(rAcc))

	// Stretch = Ktop || (Ktop[1..64] ^ Ktop[9..72]), as big-endian words
	// s0, s1, s2, and Offset_0 = Stretch[1+c..128+c]: as 64-bit lanes, R =
	// [s1, s0] and S = [s2, s1] make the offset's byte-reversed lanes
	// R<<c | S>>(64-c), where a shift by 64 gives zero (one count for both
	// lanes, in the low qword of X4 and X5).
	VPSHUFB(X6, X0, X1)
	VPSHUFB(rev64, X0, X2)
	VPSLLQ(U8(8), X2, X3)
	VPSRLQ(U8(56), X1, X7)
	// X3 = (X3 | X7) ^ X2: s2 in the low lane.
	if g.wide() {
		VPTERNLOGQ(U8(0x56), X2, X7, X3)
	} else {
		VPOR(X7, X3, X3)
		VPXOR(X2, X3, X3)
	}
	VPBLENDW(U8(0x0f), X3, X2, X3)
	VPSLLQ(X4, X1, X1)
	VPSRLQ(X5, X3, X3)
	VPOR(X3, X1, X1)
	VPSHUFB(X6, X1, g.x(rBase))
	Load(Param("l"), ltab)

	tail := g.label("tail")
	g.groups(tail)
	Label(tail)
	g.beside()
	g.fuse = true
	tailDone := g.tail()
	g.fuse = false
	Label(tailDone)
	if g.o == enc {
		g.sealEnd()
	} else {
		g.openEnd()
	}
}

// hashAD computes HASH(A) of associated data of up to 64 bytes, whose
// blocks, the last one padded, take one zmm register, and leaves it in the
// stack slot g.hash. It depends on neither Ktop nor the message, and runs
// under Ktop's latency. Block i (from 1) takes Offset_i = rel[i-1], a final
// partial block rel[an-1] ^ L_* for an whole blocks before it.
func (g *gen) hashAD() {
	g.hash = AllocLocal(16)
	ad, adLen, a := partSrc, partDst, Z15
	Load(Param("ad"), ad)
	Load(Param("adLen"), adLen)
	VPXOR(a.AsX(), a.AsX(), a.AsX())
	none := g.label("noad")
	TESTQ(adLen, adLen)
	JZ(LabelRef(none))
	// The bytes of A under a mask, and the padding's 1 bit at byte adLen,
	// which lands in a lane that holds no block when adLen is a multiple of
	// 16.
	MOVQ(I32(-1), t1)
	BZHIQ(adLen, t1, t1)
	KMOVQ(t1, K4)
	VMOVDQU8_Z(Mem{Base: ad}, K4, a)
	LEAQ(padBit64.Offset(64), t1)
	SUBQ(adLen, t1)
	VPORQ(Mem{Base: t1}, a, a)
	// K5 selects the ceil(adLen/16) blocks (qword pairs).
	LEAQ(Mem{Base: adLen, Disp: 15}, t1)
	SHRQ(U8(4), t1)
	ADDQ(t1, t1)
	MOVQ(I32(-1), ad)
	BZHIQ(t1, ad, ad)
	KMOVB(ad.As32(), K5)
	// The offsets: rel[0..3], and in a partial block's lane rel[an-1] ^ L_*.
	VMOVDQU64(Mem{Base: rel}, rT2)
	whole := g.label("adwhole")
	TESTQ(U32(15), adLen)
	JZ(LabelRef(whole))
	Load(Param("ends"), ad)
	VMOVDQU(Mem{Base: ad}, X1)
	SHRQ(U8(4), adLen)
	first := g.label("adfirst")
	JZ(LabelRef(first))
	MOVQ(adLen, t1)
	SHLQ(U8(4), t1)
	VPXOR(Mem{Base: rel, Index: t1, Scale: 1, Disp: -16}, X1, X1)
	Label(first)
	VSHUFI64X2(U8(0), Z1, Z1, Z1)
	LEAQ(Mem{Base: adLen, Index: adLen, Scale: 1}, ad)
	MOVL(U32(3), t1.As32())
	SHLXL(ad.As32(), t1.As32(), t1.As32())
	KMOVB(t1.As32(), K6)
	VMOVDQA64(Z1, K6, rT2)
	Label(whole)
	VBROADCASTI32X4(Mem{Base: ek}, rKL)
	VPTERNLOGD(U8(0x96), rKL, rT2, a)
	final := g.label("adlast")
	for r := 1; r <= 13; r++ {
		key := g.v(zKey0 + r)
		if g.o == dec {
			// The registers hold the decryption keys.
			VBROADCASTI32X4(Mem{Base: ek, Disp: 16 * r}, rKL)
			key = rKL
		}
		VAESENC(key, a, a)
		if r == 9 || r == 11 {
			CMPQ(nr, U8(r+1))
			JE(LabelRef(final))
		}
	}
	Label(final)
	VBROADCASTI32X4(Mem{Base: ek, Index: last, Scale: 1}, rKL)
	VAESENCLAST(rKL, a, a)
	VMOVDQU64_Z(a, K5, a)
	VEXTRACTI64X4(U8(1), a, rT2.AsY())
	VPXORQ(rT2.AsY(), a.AsY(), a.AsY())
	VEXTRACTI32X4(U8(1), a.AsY(), rT2.AsX())
	VPXORQ(rT2.AsX(), a.AsX(), a.AsX())
	Label(none)
	VMOVDQU(a.AsX(), g.hash)
}

// wide reports whether g is a zmm kernel, with AVX-512.
func (g *gen) wide() bool { return g.w.w == 4 }

// loadBytes loads count < 16 bytes from src into x, at the start of the
// block or, with right, at its end, and zeros elsewhere: for each count (a
// tree of branches on it) by 8, 4, 2 and 1-byte inserts at aligned places,
// which touch no byte outside them and, unlike copying through the stack,
// leave no small stores for a 16-byte load to wait on.
func (g *gen) loadBytes(x VecPhysical, src, count GPPhysical, right bool) {
	done := g.label("loaded")
	VPXOR(x, x, x)
	var tree func(lo, hi int)
	tree = func(lo, hi int) {
		if lo == hi {
			start, end := 0, lo
			if right {
				start, end = 16-lo, 16
			}
			for pos := start; pos < end; {
				for _, size := range []int{8, 4, 2, 1} {
					if pos%size != 0 || pos+size > end {
						continue
					}
					m := Mem{Base: src, Disp: pos - start}
					switch size {
					case 8:
						VPINSRQ(U8(pos/8), m, x, x)
					case 4:
						VPINSRD(U8(pos/4), m, x, x)
					case 2:
						VPINSRW(U8(pos/2), m, x, x)
					case 1:
						VPINSRB(U8(pos), m, x, x)
					}
					pos += size
					break
				}
			}
			JMP(LabelRef(done))
			return
		}
		mid := (lo + hi) / 2
		upper := g.label("upper")
		CMPQ(count, U8(mid))
		JA(LabelRef(upper))
		tree(lo, mid)
		Label(upper)
		tree(mid+1, hi)
	}
	tree(0, 15)
	Label(done)
}

// copyBytes copies count < 16 bytes from src to dst, 8, 4, 2 and 1 at a
// time, at offsets off, off+8, ... from them (off is set by the caller and
// advances), through tmp: no byte outside them is touched.
func (g *gen) copyBytes(dst, src Mem, count, off, tmp GPPhysical) {
	for _, c := range []struct {
		n   int
		mov func(Op, Op)
		r   Register
	}{{8, MOVQ, tmp}, {4, MOVL, tmp.As32()}, {2, MOVW, tmp.As16()}, {1, MOVB, tmp.As8()}} {
		skip := g.label("copy")
		TESTQ(U32(c.n), count)
		JZ(LabelRef(skip))
		c.mov(src.Idx(off, 1), c.r)
		c.mov(c.r, dst.Idx(off, 1))
		if c.n > 1 {
			ADDQ(U8(c.n), off)
		}
		Label(skip)
	}
}

// hashADNarrow is hashAD for the ymm and xmm kernels: up to four blocks in
// X8 to X11, the whole ones loaded whole and a final partial one by
// loadBytes, each with its own rounds on keys from memory.
func (g *gen) hashADNarrow() {
	g.hash = AllocLocal(16)
	ad, ar, an, k0, part := partSrc, partDst, t1, X13, X14
	blk := func(j int) VecPhysical { return g.x(8 + j) }
	Load(Param("ad"), ad)
	Load(Param("adLen"), ar)
	VPXOR(X12, X12, X12)
	none := g.label("noad")
	TESTQ(ar, ar)
	JZ(LabelRef(none))
	MOVQ(ar, an)
	SHRQ(U8(4), an)
	ANDQ(U8(15), ar)
	VMOVDQU(Mem{Base: ek}, k0)
	for j := 0; j < 4; j++ {
		skip := g.label("adskip")
		CMPQ(an, U8(j))
		JBE(LabelRef(skip))
		VPXOR(Mem{Base: ad, Disp: 16 * j}, k0, blk(j))
		VPXOR(Mem{Base: rel, Disp: 16 * j}, blk(j), blk(j))
		Label(skip)
	}
	rounds := g.label("adrounds")
	TESTQ(ar, ar)
	JZ(LabelRef(rounds))
	// The partial block, padded, with the offset rel[an-1] ^ L_*, in the
	// register of block an; then an counts it too.
	SHLQ(U8(4), an)
	ADDQ(an, ad)
	g.loadBytes(part, ad, ar, false)
	LEAQ(padBit.Offset(16), ends)
	SUBQ(ar, ends)
	VPOR(Mem{Base: ends}, part, part)
	Load(Param("ends"), ends)
	VPXOR(Mem{Base: ends}, part, part)
	VPXOR(k0, part, part)
	first := g.label("adfirst")
	TESTQ(an, an)
	JZ(LabelRef(first))
	VPXOR(Mem{Base: rel, Index: an, Scale: 1, Disp: -16}, part, part)
	Label(first)
	placed := g.label("adplaced")
	for j := 0; j < 4; j++ {
		next := g.label("adnext")
		CMPQ(an, U8(16*j))
		JNE(LabelRef(next))
		VMOVDQA(part, blk(j))
		JMP(LabelRef(placed))
		Label(next)
	}
	Label(placed)
	SHRQ(U8(4), an)
	INCQ(an)
	// The rounds run on all four registers; those past the blocks are
	// left out of the sum.
	Label(rounds)
	final := g.label("adlast")
	for r := 1; r <= 13; r++ {
		for j := 0; j < 4; j++ {
			VAESENC(Mem{Base: ek, Disp: 16 * r}, blk(j), blk(j))
		}
		if r == 9 || r == 11 {
			CMPQ(nr, U8(r+1))
			JE(LabelRef(final))
		}
	}
	Label(final)
	for j := 0; j < 4; j++ {
		VAESENCLAST(Mem{Base: ek, Index: last, Scale: 1}, blk(j), blk(j))
	}
	VMOVDQA(blk(0), X12)
	summed := g.label("adsummed")
	for j := 1; j < 4; j++ {
		CMPQ(an, U8(j))
		JBE(LabelRef(summed))
		VPXOR(blk(j), X12, X12)
	}
	Label(summed)
	Label(none)
	VMOVDQU(X12, g.hash)
}

// encRounds applies encryption rounds 1 to nr, with the keys at ek, to x.
func (g *gen) encRounds(x VecPhysical) {
	for i := 1; i < 10; i++ {
		VAESENC(Mem{Base: ek, Disp: 16 * i}, x, x)
	}
	final := g.label("enclast")
	CMPQ(nr, U8(10))
	JE(LabelRef(final))
	VAESENC(Mem{Base: ek, Disp: 160}, x, x)
	VAESENC(Mem{Base: ek, Disp: 176}, x, x)
	CMPQ(nr, U8(12))
	JE(LabelRef(final))
	VAESENC(Mem{Base: ek, Disp: 192}, x, x)
	VAESENC(Mem{Base: ek, Disp: 208}, x, x)
	Label(final)
	VAESENCLAST(Mem{Base: ek, Index: last, Scale: 1}, x, x)
}

// beside prepares the blocks that run beside the tail, once the groups are
// done, from the tail's n blocks: Offset_* = Offset_n ^ L_* (for the pad)
// and Offset_m (for the tag), and the final partial block: partSrc and
// partDst point at it, K2 selects its bytes (none when r = 0) and, when
// sealing, X1 holds it padded (zero when r = 0). When sealing, the offsets
// are left relative to the offset before the tail, with the checksum's
// partial block in the tag's: the blocks beside the tail then start from
// B0 = base^K0, as the tail's own blocks do.
func (g *gen) beside() {
	off, x := g.pre().AsX(), g.fx()
	Load(Param("r"), rr)
	Load(Param("ends"), ends)
	if g.o == enc {
		VPXOR(off, off, off)
	} else {
		VMOVDQA(g.x(rBase), off)
	}
	MOVQ(n, t1)
	SHLQ(U8(4), t1)
	LEAQ(Mem{Base: src, Index: t1, Scale: 1}, partSrc)
	LEAQ(Mem{Base: dst, Index: t1, Scale: 1}, partDst)
	none := g.label("notail")
	JZ(LabelRef(none))
	VPXOR(Mem{Base: rel, Index: t1, Scale: 1, Disp: -16}, off, off)
	Label(none)
	if g.wide() {
		KXORW(K2, K2, K2)
	}
	VPXOR(X1, X1, X1)
	whole := g.label("whole")
	TESTQ(rr, rr)
	JZ(LabelRef(whole))
	if g.wide() {
		LEAQ(byteMask, t1)
		MOVWLZX(Mem{Base: t1, Index: rr, Scale: 2}, t1.As32())
		KMOVW(t1.As32(), K2)
		if g.o == enc {
			LEAQ(padBit.Offset(16), t1)
			SUBQ(rr, t1)
			VMOVDQU(Mem{Base: t1}, X1)
			VMOVDQU8(Mem{Base: partSrc}, K2, X1)
		}
	} else if g.o == enc {
		// The partial block, kept in the stack buffer for sealEnd, and
		// padded.
		g.loadBytes(X1, partSrc, rr, false)
		VMOVDQU(X1, g.buf)
		LEAQ(padBit.Offset(16), t1)
		SUBQ(rr, t1)
		VPOR(Mem{Base: t1}, X1, X1)
	}
	VPXOR(Mem{Base: ends}, off, off)
	Label(whole)
	if g.o == enc {
		if g.wide() {
			VPTERNLOGD(U8(0x96), Mem{Base: ends, Disp: 16}, off, X1)
			VBROADCASTI32X4(Mem{Base: ek, Index: last, Scale: 1}, rKL)
		} else {
			VPXOR(Mem{Base: ends, Disp: 16}, X1, X1)
			VPXOR(off, X1, X1)
		}
		if g.w.w == 1 {
			VMOVDQA(X1, x)
		} else {
			VINSERTI128(U8(1), off, Y1, g.pre().AsY())
		}
		return
	}
	// Opening, rk are the decryption keys: B0 is base^K0 of those.
	if g.wide() {
		VPXORQ(Mem{Base: ek}, off, x.AsX())
	} else {
		VPXOR(Mem{Base: ek}, off, x.AsX())
	}
	VPXOR(Mem{Base: ends, Disp: 16}, off, off)
	VPXOR(Mem{Base: ek}, off, off)
}

// pre and fx are the registers of the blocks beside the tail: their inputs
// less the checksum (enc: the tag's in the low lane, the pad's in the high
// one; dec: the tag's), and the blocks themselves. The ymm and xmm kernels
// take registers that only the groups use; the xmm ones, sealing, hold the
// tag in fx and the pad in pre, which becomes its block.
func (g *gen) pre() VecPhysical {
	switch g.w.w {
	case 4:
		return Z15
	case 2:
		return Y13
	}
	return X13
}

func (g *gen) fx() VecPhysical {
	switch g.w.w {
	case 4:
		return rX
	case 2:
		return Y12
	}
	return X12
}

// fuseStart starts the blocks beside the tail after its inputs are loaded:
// when sealing, the tag's input is then complete.
func (g *gen) fuseStart() {
	if g.o == dec {
		return
	}
	acc, x := g.v(rAcc), g.fx()
	if g.wide() {
		VEXTRACTI64X4(U8(1), acc, rT2.AsY())
		VPXORQ(rT2.AsY(), acc.AsY(), rT2.AsY())
		VEXTRACTI32X4(U8(1), rT2.AsY(), x.AsX())
		VPXORQ(x.AsX(), rT2.AsX(), x.AsX())
		VPTERNLOGD(U8(0x96), g.v(rB0).AsY(), g.pre().AsY(), x.AsY())
		return
	}
	if g.w.w == 1 {
		VPXOR(g.x(rB0), g.pre(), g.pre())
		VPXOR(g.x(rB0), x, x)
		VPXOR(acc, x, x)
		return
	}
	// The body's temporary is free until the blocks' inputs are masked.
	VEXTRACTI128(U8(1), acc, g.x(rT))
	VPXOR(g.x(rT), acc.AsX(), g.x(rT))
	VPXOR(g.v(rT), g.pre(), x)
	VPXOR(g.v(rB0), x, x)
}

// fuseRound applies round r to the blocks beside the tail.
func (g *gen) fuseRound(r int) {
	x := g.fx()
	switch {
	case g.o == dec:
		VAESENC(Mem{Base: ek, Disp: 16 * r}, x.AsX(), x.AsX())
	case g.wide():
		VAESENC(g.v(zKey0+r).AsY(), x.AsY(), x.AsY())
	case g.w.w == 2:
		VAESENC(g.v(rKey), x, x)
	default:
		VAESENC(Mem{Base: ek, Disp: 16 * r}, x, x)
		VAESENC(Mem{Base: ek, Disp: 16 * r}, g.pre(), g.pre())
	}
}

// fuseFinal applies the last round to the blocks beside the tail.
func (g *gen) fuseFinal() {
	x := g.fx()
	switch {
	case g.o == dec:
		VAESENCLAST(Mem{Base: ek, Index: last, Scale: 1}, x.AsX(), x.AsX())
	case g.wide():
		VAESENCLAST(rKL.AsY(), x.AsY(), x.AsY())
	case g.w.w == 2:
		VBROADCASTI128(Mem{Base: ek, Index: last, Scale: 1}, g.pre())
		VAESENCLAST(g.pre(), x, x)
	default:
		VAESENCLAST(Mem{Base: ek, Index: last, Scale: 1}, x, x)
		VAESENCLAST(Mem{Base: ek, Index: last, Scale: 1}, g.pre(), g.pre())
	}
}

// sealEnd encrypts the partial block, if any, with the pad in the high lane
// of the blocks beside the tail, and returns the tag in their low lane.
func (g *gen) sealEnd() {
	x := g.fx()
	store := g.label("store")
	if g.wide() {
		KORTESTW(K2, K2)
		JZ(LabelRef(store))
		VEXTRACTI32X4(U8(1), x.AsY(), X1)
		VMOVDQU8_Z(Mem{Base: partSrc}, K2, X2)
		VPXOR(X2, X1, X1)
		VMOVDQU8(X1, K2, Mem{Base: partDst})
		Label(store)
		VPXORQ(g.hash, x.AsX(), X0)
		g.ret()
		return
	}
	TESTQ(rr, rr)
	JZ(LabelRef(store))
	if g.w.w == 1 {
		VMOVDQA(g.pre(), X1)
	} else {
		VEXTRACTI128(U8(1), x, X1)
	}
	VPXOR(g.buf, X1, X1)
	VMOVDQU(X1, g.buf)
	XORL(ends.As32(), ends.As32())
	g.copyBytes(Mem{Base: partDst}, g.buf, rr, ends, t1)
	Label(store)
	VPXOR(g.hash, x.AsX(), X0)
	g.ret()
}

// openEnd decrypts the partial block, if any, with the pad beside the tail,
// adds it padded to the checksum, and returns the tag.
func (g *gen) openEnd() {
	acc, x := g.v(rAcc), g.fx()
	switch g.w.w {
	case 4:
		VEXTRACTI64X4(U8(1), acc, Y11)
		VPXOR(Y11, acc.AsY(), Y10)
		fallthrough
	case 2:
		VEXTRACTI128(U8(1), Y10, X11)
		VPXOR(X11, X10, X0)
	default:
		VMOVDQA(X10, X0)
	}
	VPXOR(g.pre().AsX(), X0, X0)
	tag := g.label("tag")
	if g.wide() {
		KORTESTW(K2, K2)
		JZ(LabelRef(tag))
		VMOVDQU8_Z(Mem{Base: partSrc}, K2, X1)
		VPXORQ(x.AsX(), X1, X1)
		VMOVDQU8(X1, K2, Mem{Base: partDst})
		VMOVDQU8_Z(X1, K2, X1)
	} else {
		TESTQ(rr, rr)
		JZ(LabelRef(tag))
		g.loadBytes(X1, partSrc, rr, false)
		VPXOR(x.AsX(), X1, X1)
		VMOVDQU(X1, g.buf)
		XORL(ends.As32(), ends.As32())
		g.copyBytes(Mem{Base: partDst}, g.buf, rr, ends, t1)
		// Keep the r bytes of the plaintext: 16 bytes of ones16 from 16-r.
		LEAQ(ones16.Offset(16), t1)
		SUBQ(rr, t1)
		VPAND(Mem{Base: t1}, X1, X1)
	}
	LEAQ(padBit.Offset(16), t1)
	SUBQ(rr, t1)
	VPOR(Mem{Base: t1}, X1, X1)
	VPXOR(X1, X0, X0)
	Label(tag)
	g.encRounds(X0)
	VPXOR(g.hash, X0, X0)
	g.ret()
}

// ret returns X0 as t0 and t1.
func (g *gen) ret() {
	VMOVQ(X0, t1)
	Store(t1, Return("t0"))
	VPEXTRQ(U8(1), X0, t1)
	Store(t1, Return("t1"))
	VZEROUPPER()
	RET()
}
