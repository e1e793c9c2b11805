package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The message kernels, raocbSealVAES512 and raocbOpenVAES512, seal or open
// a whole message of n > 0 whole blocks and a final partial block of r < 16
// bytes, and return E(Σ ^ Δ(B, m+3)), the tag before HASH(A) is added. Left
// to separate calls, the steps around the blocks are serial: B = E(Nonce)
// before the first mask, the pad after the last block, the tag after Σ. The
// kernels format Nonce and compute B in their prologue, where the key and
// constant broadcasts hide under its latency, and the pad's mask,
// Δ(B, f+1), and the tag's, Δ(B, m+3), beside the first group's masks. The
// pad's block cipher call runs beside the last group's rounds; so does the
// tag's when sealing, since Σ is complete once the last group's plaintext
// is loaded. Opening waits for the last group's output for Σ and encrypts
// the tag after it. The partial block moves under AVX-512 byte masks, which
// touch no byte past it.

// Registers of the message kernels besides the kernels' own: the final
// partial block in src and dst, and where its padding starts in padBit.
var (
	partSrc = R12
	partDst = R13
	padding = R11
)

// fused are the registers of the extra blocks that run beside a message's
// last group: x the blocks (enc: the tag and the pad in a ymm; dec: the pad
// in an xmm), t0 and t1 temporaries and kl the last encryption round key.
type fused struct{ x, t0, t1, kl VecPhysical }

var (
	// In the pipelined last group, the next group's mask registers are free
	// once its inputs are masked.
	pipedFused = fused{Z18, Z19, Z21, Z22}
	tailFused  = fused{Z31, Z28, Z29, Z30}
)

// result holds the extra blocks after the last group: with the extra blocks
// in their own registers in both kinds of groups, the end of the kernel
// would need two copies.
var result = Z31

// base computes B = E(Nonce) into X0.
func (g *gen) base() {
	g.ek = rk
	if g.o == dec {
		g.ek = RDX
		Load(Param("ek"), g.ek)
	}
	// Nonce is N, ending the block, ORed with bits: the 16 bytes that end
	// with N, loaded under a mask of N's bytes (byteMask[16-len], inverted),
	// which cannot fault on the others.
	Load(Param("nonce"), t1)
	Load(Param("nonceLen"), t2)
	LEAQ(Mem{Base: t1, Index: t2, Scale: 1, Disp: -16}, t1)
	NEGQ(t2)
	LEAQ(byteMask.Offset(32), padding)
	MOVWLZX(Mem{Base: padding, Index: t2, Scale: 2}, t2.As32())
	KMOVW(t2.As32(), K3)
	KNOTW(K3, K3)
	VMOVDQU8_Z(Mem{Base: t1}, K3, X0)
	Load(Param("bits"), t2)
	VPOR(Mem{Base: t2}, X0, X0)
	VPXOR(Mem{Base: g.ek}, X0, X0)
	g.encRounds(X0)
}

// encRounds applies encryption rounds 1 to nr, with the keys at ek, to x.
func (g *gen) encRounds(x VecPhysical) {
	for i := 1; i < 10; i++ {
		VAESENC(Mem{Base: g.ek, Disp: 16 * i}, x, x)
	}
	last := g.label("enclast")
	CMPQ(nr, U8(10))
	JE(LabelRef(last))
	VAESENC(Mem{Base: g.ek, Disp: 160}, x, x)
	VAESENC(Mem{Base: g.ek, Disp: 176}, x, x)
	CMPQ(nr, U8(12))
	JE(LabelRef(last))
	VAESENC(Mem{Base: g.ek, Disp: 192}, x, x)
	VAESENC(Mem{Base: g.ek, Disp: 208}, x, x)
	Label(last)
	MOVQ(nr, t1)
	SHLQ(U8(4), t1)
	VAESENCLAST(Mem{Base: g.ek, Index: t1, Scale: 1}, x, x)
}

// extras computes e0 from the counter register, which holds the byte-swapped
// B in every lane, and sets up the final partial block, if any: partSrc and
// partDst point at it, K2 selects its bytes and padding at its padding.
func (g *gen) extras() {
	r := g.r
	rr := padding
	Load(Param("r"), rr)
	// The indices m+3 and f+1: f = n, and m = f+1 with a partial block.
	LEAQ(Mem{Base: n, Disp: 4}, t1)
	CMPQ(rr, U8(1))
	SBBQ(U8(0), t1)
	LEAQ(Mem{Base: n, Disp: 1}, t2)
	VPBROADCASTD(t1.As32(), X1)
	VPBROADCASTD(t2.As32(), X2)
	VINSERTI128(U8(1), X2, Y1, Y1)
	VPADDD(g.v(r.ctr).AsY(), Y1, Y1)
	VPSHUFB(g.v(r.bsw).AsY(), Y1, Y1)
	VAESENC(g.v(r.r1).AsY(), Y1, Y1)
	if g.o == enc {
		VAESENC(g.v(r.r2).AsY(), Y1, Y1)
	} else {
		// The masks of the encryption keys.
		Load(Param("emk"), t1)
		VBROADCASTI128(Mem{Base: t1, Disp: 16}, Y2)
		VAESENC(Y2, Y1, Y1)
	}
	whole := g.label("whole")
	TESTQ(rr, rr)
	JZ(LabelRef(whole))
	MOVQ(n, t1)
	SHLQ(U8(4), t1)
	LEAQ(Mem{Base: src, Index: t1, Scale: 1}, partSrc)
	LEAQ(Mem{Base: dst, Index: t1, Scale: 1}, partDst)
	LEAQ(byteMask, t2)
	MOVWLZX(Mem{Base: t2, Index: rr, Scale: 2}, t2.As32())
	KMOVW(t2.As32(), K2)
	LEAQ(padBit.Offset(16), t2)
	SUBQ(rr, t2)
	MOVQ(t2, padding)
	if g.o == enc {
		// The padded partial block joins Σ in the tag's input.
		VMOVDQU(Mem{Base: padding}, X2)
		VMOVDQU8(Mem{Base: partSrc}, K2, X2)
		VPXOR(Y2, Y1, Y1)
	}
	Label(whole)
	g.e0 = AllocLocal(32)
	VMOVDQU(Y1, g.e0)
}

// fuseStart starts the extra blocks in a last group, after its inputs are
// loaded, when Σ is complete (enc).
func (g *gen) fuseStart(f *fused) {
	MOVQ(nr, t1)
	SHLQ(U8(4), t1)
	if g.o == dec {
		VMOVDQU64(g.e0.Offset(16), f.x.AsX())
		return
	}
	acc := g.v(g.r.acc)
	VEXTRACTI64X4(U8(1), acc, f.t0.AsY())
	VPXORQ(f.t0.AsY(), acc.AsY(), f.t0.AsY())
	VEXTRACTI32X4(U8(1), f.t0.AsY(), f.t1.AsX())
	VPXORQ(f.t1.AsX(), f.t0.AsX(), f.t0.AsX())
	VPXORQ(g.e0, f.t0.AsY(), f.x.AsY())
	VBROADCASTI32X4(Mem{Base: rk, Index: t1, Scale: 1}, f.kl.AsY())
}

// fuseRound applies round i to the extra blocks; key holds it in every lane
// (enc).
func (g *gen) fuseRound(f *fused, key VecPhysical, i int) {
	if g.o == dec {
		VAESENC(Mem{Base: g.ek, Disp: 16 * i}, f.x.AsX(), f.x.AsX())
		return
	}
	VAESENC(key.AsY(), f.x.AsY(), f.x.AsY())
}

// fuseFinal applies the last round to the extra blocks and leaves them in
// result.
func (g *gen) fuseFinal(f *fused) {
	if g.o == dec {
		VAESENCLAST(Mem{Base: g.ek, Index: t1, Scale: 1}, f.x.AsX(), f.x.AsX())
	} else {
		VAESENCLAST(f.kl.AsY(), f.x.AsY(), f.x.AsY())
	}
	if f.x != result {
		VMOVDQA64(f.x.AsY(), result.AsY())
	}
}

// sealEnd encrypts the partial block, if any, with the pad in the high lane
// of result, and returns the tag in its low lane.
func (g *gen) sealEnd() {
	store := g.label("store")
	Load(Param("r"), t1)
	TESTQ(t1, t1)
	JZ(LabelRef(store))
	VEXTRACTI32X4(U8(1), result.AsY(), X0)
	VMOVDQU8_Z(Mem{Base: partSrc}, K2, X1)
	VPXOR(X1, X0, X0)
	VMOVDQU8(X0, K2, Mem{Base: partDst})
	Label(store)
	VMOVDQA64(result.AsX(), X0)
	g.ret()
}

// openEnd decrypts the partial block, if any, with the pad in result, adds
// it to Σ in X0, and returns E(Σ ^ Δ(B, m+3)).
func (g *gen) openEnd() {
	tag := g.label("tag")
	Load(Param("r"), t1)
	TESTQ(t1, t1)
	JZ(LabelRef(tag))
	VMOVDQU8_Z(Mem{Base: partSrc}, K2, X1)
	VPXORQ(result.AsX(), X1, X1)
	VMOVDQU8(X1, K2, Mem{Base: partDst})
	VMOVDQU(Mem{Base: padding}, X2)
	VMOVDQU8(X1, K2, X2)
	VPXOR(X2, X0, X0)
	Label(tag)
	VPXOR(g.e0, X0, X0)
	g.encRounds(X0)
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
