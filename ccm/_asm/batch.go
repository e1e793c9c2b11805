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
// B_0 and the associated data (MAC the block itself), and ones over the
// plaintext bytes of a final partial block (whose zero padding is the
// source's). Open computes the keystream of the next step beside each MAC
// step, since the MAC needs this step's plaintext; and it loads all lanes'
// blocks of a step before it stores any, as a load from src+off after a
// store to dst+off waits whenever the buffers lie alike in their 4 KiB pages
// (4K aliasing).

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

// batchTEXT starts a batch kernel and loads its arguments.
func batchTEXT(name string) {
	TEXT(name, NOSPLIT, "func(nr int, rk *[240]byte, l *[1024]byte, n int)")
	Pragma("noescape")
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("l"), lp)
	Load(Param("n"), n)
}

// batchPrologue loads the arguments, the lanes' MAC values and counters.
func batchPrologue(name string) {
	batchTEXT(name)
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

// batchRounds runs rounds 1..rounds, with round key r at key(r), of the
// registers of each set.
func batchRounds(rounds int, key func(r int) Op, sets ...[]VecPhysical) {
	for r := 1; r <= rounds; r++ {
		for g := range 4 {
			for _, s := range sets {
				if r < rounds {
					VAESENC(key(r), s[g], s[g])
				} else {
					VAESENCLAST(key(r), s[g], s[g])
				}
			}
		}
	}
}

func zmmKey(r int) Op { return bkeys[r] }

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
		batchRounds(rounds, zmmKey, bx, bks)
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
		batchRounds(rounds, zmmKey, bks)
		Label(loop)
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
		batchRounds(rounds, zmmKey, bx, bks)
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

// The VEX kernels run fewer lanes in the 16 registers AVX has, two to a
// ymm register with VAES (8 lanes) or one to an xmm register with AES-NI
// (4 lanes), four registers a set as above; the round keys and constants
// are memory operands (for ymm a copy of the key schedule on the stack, each
// key twice), and open selects what it MACs with AND and XOR.
type vexWidth struct {
	name  string
	lanes int // per register
	reg   func(i int) VecPhysical
}

var (
	xmmWidth = vexWidth{"AVX", 1, func(i int) VecPhysical {
		return []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}[i]
	}}
	ymmWidth = vexWidth{"VAES256", 2, func(i int) VecPhysical {
		return []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}[i]
	}}
)

// vexKernel holds what one VEX kernel's code needs.
type vexKernel struct {
	vexWidth
	x, ctr, ks, t []VecPhysical
	keys          Mem // round key r at keys + r*(16*lanes)
	bytes         int // bytes of a register
}

func newVexKernel(w vexWidth) *vexKernel {
	k := &vexKernel{vexWidth: w, bytes: 16 * w.lanes}
	for i := range 4 {
		k.x = append(k.x, w.reg(i))
		k.ctr = append(k.ctr, w.reg(4+i))
		k.ks = append(k.ks, w.reg(8+i))
		k.t = append(k.t, w.reg(12+i))
	}
	return k
}

func (k *vexKernel) key(r int) Op { return k.keys.Offset(r * k.bytes) }

// prologue loads the arguments, the MAC values and counters, and for ymm
// copies the key schedule, each key twice, to the stack.
func (k *vexKernel) prologue(name string) {
	batchTEXT(name)
	k.keys = Mem{Base: rk}
	if k.lanes > 1 {
		k.keys = AllocLocal(15 * k.bytes)
		for r := range 15 {
			VBROADCASTI128(Mem{Base: rk, Disp: 16 * r}, Y0)
			VMOVDQU(Y0, k.key(r))
		}
	}
	for g := range 4 {
		VMOVDQU(Mem{Base: lp, Disp: lanesX + k.bytes*g}, k.x[g])
		VMOVDQU(Mem{Base: lp, Disp: lanesCtr + k.bytes*g}, k.ctr[g])
		VPSHUFB(bswap4, k.ctr[g], k.ctr[g])
	}
	XORQ(off, off)
}

func (k *vexKernel) epilogue() {
	for g := range 4 {
		VMOVDQU(k.x[g], Mem{Base: lp, Disp: lanesX + k.bytes*g})
		VPSHUFB(bswap4, k.ctr[g], k.ctr[g])
		VMOVDQU(k.ctr[g], Mem{Base: lp, Disp: lanesCtr + k.bytes*g})
	}
	VZEROUPPER()
	RET()
}

func (k *vexKernel) gather(g int) {
	for j := range k.lanes {
		MOVQ(Mem{Base: lp, Disp: lanesSrc + 8*(k.lanes*g+j)}, ptr)
		blk := Mem{Base: ptr, Index: off, Scale: 1}
		if j == 0 {
			VMOVDQU(blk, k.t[g].(Vec).AsX())
		} else {
			VINSERTI128(U8(j), blk, k.t[g], k.t[g])
		}
	}
}

func (k *vexKernel) scatter(g int, v VecPhysical) {
	for j := range k.lanes {
		MOVQ(Mem{Base: lp, Disp: lanesDst + 8*(k.lanes*g+j)}, ptr)
		blk := Mem{Base: ptr, Index: off, Scale: 1}
		if j == 0 {
			VMOVDQU(v.(Vec).AsX(), blk)
		} else {
			VEXTRACTI128(U8(j), v, blk)
		}
	}
}

func (k *vexKernel) keystreamStart() {
	for g := range 4 {
		VPSHUFB(bswap4, k.ctr[g], k.ks[g])
		VPADDQ(ctrOne4, k.ctr[g], k.ctr[g])
		VPXOR(k.key(0), k.ks[g], k.ks[g])
	}
}

func sealBatchVex(w vexWidth) {
	k := newVexKernel(w)
	name := "sealBatch" + w.name
	k.prologue(name)
	perKeySize(name, func(rounds int) {
		loop := label(name, rounds, "loop")
		Label(loop)
		for g := range 4 {
			k.gather(g)
			VPXOR(k.t[g], k.x[g], k.x[g])
			VPXOR(k.key(0), k.x[g], k.x[g])
		}
		k.keystreamStart()
		batchRounds(rounds, k.key, k.x, k.ks)
		for g := range 4 {
			VPXOR(k.t[g], k.ks[g], k.ks[g])
			k.scatter(g, k.ks[g])
		}
		ADDQ(U8(16), off)
		DECQ(n)
		JNZ(LabelRef(loop))
		k.epilogue()
	})
}

func openBatchVex(w vexWidth) {
	k := newVexKernel(w)
	name := "openBatch" + w.name
	k.prologue(name)
	perKeySize(name, func(rounds int) {
		loop := label(name, rounds, "loop")
		k.keystreamStart()
		batchRounds(rounds, k.key, k.ks)
		Label(loop)
		for g := range 4 {
			k.gather(g)
		}
		for g := range 4 {
			VPXOR(k.t[g], k.ks[g], k.ks[g])
			k.scatter(g, k.ks[g])
			// X ^= T ^ (K & mask) ^ K0, with K = out ^ T.
			VPXOR(k.t[g], k.ks[g], k.ks[g])
			VPAND(Mem{Base: lp, Disp: lanesMask + k.bytes*g}, k.ks[g], k.ks[g])
			VPXOR(k.ks[g], k.x[g], k.x[g])
			VPXOR(k.t[g], k.x[g], k.x[g])
			VPXOR(k.key(0), k.x[g], k.x[g])
		}
		k.keystreamStart()
		batchRounds(rounds, k.key, k.x, k.ks)
		ADDQ(U8(16), off)
		DECQ(n)
		JNZ(LabelRef(loop))
		for g := range 4 {
			VPSUBQ(ctrOne4, k.ctr[g], k.ctr[g])
		}
		k.epilogue()
	})
}
