package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The batch kernels run 16 messages side by side, four to a zmm register
// (lane j of group g is lane 4g+j), one block of each per step: 16
// independent CBC-MAC chains and 16 keystream blocks, enough AES work to
// keep the VAES unit busy where one message leaves it mostly idle. The
// lanes share nothing but the key; each has its own source and destination
// pointer, advanced by a common offset, and the Go code gives a lane its
// next run of blocks (B_0 and the formatted associated data, the message,
// its padded final block) between calls.
//
// Each step does for every lane, with K the keystream of its counter block
// and T its source block:
//
//	seal: X = E(X ^ T), out = T ^ K
//	open: out = T ^ K, X = E(X ^ (mask ? out : T))
//
// Open's mask is all ones for message blocks (MAC the plaintext), zero for
// B_0 and the associated data (MAC the block itself) and the plaintext's
// bytes in the final partial block. Open computes the keystream of the next
// step beside each MAC step, since the MAC needs this step's plaintext.

// Offsets in the lanes struct of batch_amd64.go.
const (
	lanesX    = 0
	lanesCtr  = 256
	lanesMask = 512
	lanesSrc  = 768
	lanesDst  = 896
)

var (
	bx    = []VecPhysical{Z0, Z1, Z2, Z3}     // MAC values
	bctr  = []VecPhysical{Z4, Z5, Z6, Z7}     // counter blocks, byte-reversed
	bks   = []VecPhysical{Z8, Z9, Z10, Z11}   // keystream blocks
	bt    = []VecPhysical{Z12, Z13, Z14, Z15} // source blocks
	btx   = []VecPhysical{X12, X13, X14, X15}
	bkeys = []VecPhysical{Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30}
	bbsw  = Z31
)

var (
	lp  = RCX // *lanes
	off = RSI // offset of the step's blocks from the lanes' pointers
	ptr = RDI
)

var bswap4, ctrOne4 Mem

func batchData() {
	bswap4 = GLOBL("bswapMask4", RODATA|NOPTR)
	for i := 0; i < 4; i++ {
		DATA(16*i, U64(0x08090a0b0c0d0e0f))
		DATA(16*i+8, U64(0x0001020304050607))
	}
	ctrOne4 = GLOBL("ctrOne4", RODATA|NOPTR)
	for i := 0; i < 4; i++ {
		DATA(16*i, U64(1))
		DATA(16*i+8, U64(0))
	}
}

// batchPrologue loads the arguments, the lanes' MAC values and counters.
func batchPrologue(name string) {
	TEXT(name, NOSPLIT, "func(nr int, rk *[240]byte, l *[1024]byte, n int)")
	Pragma("noescape")
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("l"), lp)
	Load(Param("n"), n)
	VMOVDQU64(bswap4, bbsw)
	for g := range 4 {
		VMOVDQU64(Mem{Base: lp, Disp: lanesX + 64*g}, bx[g])
		VMOVDQU64(Mem{Base: lp, Disp: lanesCtr + 64*g}, bctr[g])
		VPSHUFB(bbsw, bctr[g], bctr[g])
	}
	XORQ(off, off)
}

// batchEpilogue stores the MAC values and counters.
func batchEpilogue() {
	for g := range 4 {
		VMOVDQU64(bx[g], Mem{Base: lp, Disp: lanesX + 64*g})
		VPSHUFB(bbsw, bctr[g], bctr[g])
		VMOVDQU64(bctr[g], Mem{Base: lp, Disp: lanesCtr + 64*g})
	}
	VZEROUPPER()
	RET()
}

func batchKeys(rounds int) {
	for r := 0; r <= rounds; r++ {
		VBROADCASTI32X4(Mem{Base: rk, Disp: 16 * r}, bkeys[r])
	}
}

// gather loads the step's source blocks of group g into bt[g].
func gather(g int) {
	for j := range 4 {
		MOVQ(Mem{Base: lp, Disp: lanesSrc + 8*(4*g+j)}, ptr)
		blk := Mem{Base: ptr, Index: off, Scale: 1}
		if j == 0 {
			VMOVDQU(blk, btx[g])
		} else {
			VINSERTI32X4(U8(j), blk, bt[g], bt[g])
		}
	}
}

// scatter stores the blocks of v, of group g, to the lanes' destinations.
func scatter(g int, v VecPhysical) {
	for j := range 4 {
		MOVQ(Mem{Base: lp, Disp: lanesDst + 8*(4*g+j)}, ptr)
		VEXTRACTI32X4(U8(j), v, Mem{Base: ptr, Index: off, Scale: 1})
	}
}

// keystreamStart sets the keystream registers to the counter blocks after
// AddRoundKey and steps the counters.
func keystreamStart() {
	for g := range 4 {
		VPSHUFB(bbsw, bctr[g], bks[g])
		VPADDQ(ctrOne4, bctr[g], bctr[g])
		VPXORQ(bkeys[0], bks[g], bks[g])
	}
}

// batchRounds runs rounds 1..rounds of the registers of each set.
func batchRounds(rounds int, sets ...[]VecPhysical) {
	for r := 1; r <= rounds; r++ {
		for g := range 4 {
			for _, s := range sets {
				if r < rounds {
					VAESENC(bkeys[r], s[g], s[g])
				} else {
					VAESENCLAST(bkeys[r], s[g], s[g])
				}
			}
		}
	}
}

func sealBatch() {
	batchPrologue("sealBatchVAES512")
	perKeySize("sealBatch", func(rounds int) {
		loop := label("sealBatch", rounds, "loop")
		batchKeys(rounds)
		Label(loop)
		for g := range 4 {
			gather(g)
			VPTERNLOGQ(U8(0x96), bt[g], bkeys[0], bx[g]) // X ^ T ^ K0
		}
		keystreamStart()
		batchRounds(rounds, bx, bks)
		for g := range 4 {
			VPXORQ(bt[g], bks[g], bks[g])
			scatter(g, bks[g])
		}
		ADDQ(U8(16), off)
		DECQ(n)
		JNZ(LabelRef(loop))
		batchEpilogue()
	})
}

func openBatch() {
	batchPrologue("openBatchVAES512")
	perKeySize("openBatch", func(rounds int) {
		loop := label("openBatch", rounds, "loop")
		batchKeys(rounds)
		keystreamStart()
		batchRounds(rounds, bks)
		Label(loop)
		// All loads before the stores: a load from src+off after a store
		// to dst+off waits whenever the buffers lie alike in their 4 KiB
		// pages (4K aliasing).
		for g := range 4 {
			gather(g)
		}
		for g := range 4 {
			VPXORQ(bt[g], bks[g], bks[g])
			scatter(g, bks[g])
			// T = mask ? out : T, then X ^ T ^ K0.
			VPTERNLOGQ(U8(0xd8), Mem{Base: lp, Disp: lanesMask + 64*g}, bks[g], bt[g])
			VPTERNLOGQ(U8(0x96), bt[g], bkeys[0], bx[g])
		}
		keystreamStart()
		batchRounds(rounds, bx, bks)
		ADDQ(U8(16), off)
		DECQ(n)
		JNZ(LabelRef(loop))
		// The last iteration stepped the counters once too often.
		for g := range 4 {
			VPSUBQ(ctrOne4, bctr[g], bctr[g])
		}
		batchEpilogue()
	})
}
