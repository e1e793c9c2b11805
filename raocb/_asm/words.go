package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// maskedWords writes raocbMaskedAVX, the per-message serial steps (pads,
// tag, a final block of associated data) in registers: one block given and
// returned as little-endian words, so that nothing waits for a block
// assembled in memory by narrower stores.
func maskedWords() {
	TEXT("raocbMaskedAVX", NOSPLIT, "func(nr int, rk *[240]byte, mk *[3][16]byte, x0, x1, in0, in1 uint64) (r0, r1 uint64)")
	Pragma("noescape")
	Doc("raocbMaskedAVX returns E(in ^ Δ(x)), with rk the encryption round keys and mk their maskKeys.")
	nr, rk, mk, w := Load(Param("nr"), RCX), Load(Param("rk"), RAX), Load(Param("mk"), RBX), RDX
	Load(Param("x0"), w)
	VMOVQ(w, X0)
	Load(Param("x1"), w)
	VPINSRQ(U8(1), w, X0, X0)
	Load(Param("in0"), w)
	VMOVQ(w, X1)
	Load(Param("in1"), w)
	VPINSRQ(U8(1), w, X1, X1)
	// Δ ^ K0 = AESENC(AESENC(x, R1), R2 ^ K0), then the masked input.
	VAESENC(Mem{Base: mk}, X0, X0)
	VAESENC(Mem{Base: mk, Disp: 16}, X0, X0)
	VPXOR(X1, X0, X0)
	for r := 1; r < 10; r++ {
		VAESENC(Mem{Base: rk, Disp: 16 * r}, X0, X0)
	}
	last := "masked_last"
	CMPQ(nr, U8(10))
	JE(LabelRef(last))
	VAESENC(Mem{Base: rk, Disp: 160}, X0, X0)
	VAESENC(Mem{Base: rk, Disp: 176}, X0, X0)
	ADDQ(U8(32), rk)
	CMPQ(nr, U8(12))
	JE(LabelRef(last))
	VAESENC(Mem{Base: rk, Disp: 160}, X0, X0)
	VAESENC(Mem{Base: rk, Disp: 176}, X0, X0)
	ADDQ(U8(32), rk)
	Label(last)
	VAESENCLAST(Mem{Base: rk, Disp: 160}, X0, X0)
	VMOVQ(X0, w)
	Store(w, Return("r0"))
	VPEXTRQ(U8(1), X0, w)
	Store(w, Return("r1"))
	RET()
}

// prefetch writes prefetchLines, which asks for every cache line of n > 0
// bytes at p at once: a range read from a random place in a large message
// then waits for memory about once, not once per stretch that the hardware
// prefetcher has yet to detect. It fetches into L2 (PREFETCHT1), whose miss
// queue holds the whole range where L1's would hold a third of it: on Zen 4
// this cut a cold 4 KiB DecryptBlocks by a fifth, PREFETCHT0 by a twentieth.
func prefetch() {
	TEXT("prefetchLines", NOSPLIT, "func(p *byte, n int)")
	Pragma("noescape")
	p, n := Load(Param("p"), RAX), Load(Param("n"), RCX)
	ADDQ(p, n)
	// The last line first: a range that crosses a page boundary then starts
	// both address translations at once.
	PREFETCHT1(Mem{Base: n, Disp: -1})
	ANDQ(I8(-64), p)
	loop := "prefetch_loop"
	Label(loop)
	PREFETCHT1(Mem{Base: p})
	ADDQ(U8(64), p)
	CMPQ(p, n)
	JB(LabelRef(loop))
	RET()
}
