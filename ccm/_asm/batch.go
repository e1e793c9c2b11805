package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The batch kernels run 16 messages side by side, four to a zmm register
// (lane j of group g is lane 4g+j), one block of each per step: 16
// independent CBC-MAC chains and 16 keystream blocks, enough AES work to
// keep the VAES unit busy where one message leaves it mostly idle. The
// lanes share nothing but the key; each has its own source and destination
// pointer, advanced by a common offset within a stretch of steps.
//
// The Go code formats each message as a job: E(B_0) and E(A_0), which it
// encrypts for all jobs in one call, and a list of runs of blocks (the
// formatted associated data, the rest of the associated data, the message,
// its padded final block; the VAES512 kernels read and write a partial
// final block in place, by byte masks, so that the rest of the associated
// data and the message are one run each), each with its source,
// destination, the low half of its counter block (the job has the high
// half) and, for open, the bytes of its mask, ended by an empty run; the
// kernel stores the tag (all 16 bytes) where the job says: in the job, or
// after a sealed message. The kernel schedules the jobs itself, so that one
// call seals or opens a whole list of messages: it runs as many steps as
// the shortest run left in a busy lane (at most maxSteps), then moves each
// lane whose run ended to its next run, or its next job, until no job is
// left.
//
// Each step does for every lane, with K the keystream of its counter block
// and T its source block:
//
//	seal: X = E(X ^ T), out = T ^ K
//	open: out = T ^ K, X = E(X ^ (mask ? out : T))
//
// Open's mask is all ones for message blocks (MAC the plaintext), zero for
// the associated data (MAC the block itself), and ones over the plaintext
// bytes of a final partial block (whose zero padding is the source's). Open
// computes the keystream of the next step beside each MAC step but a
// stretch's last, since the MAC needs this step's plaintext; and it loads
// all lanes' blocks of a step before it stores any, as a load from src+off
// after a store to dst+off waits whenever the buffers lie alike in their
// 4 KiB pages (4K aliasing).

// Offsets in the lanes, run and job structs of batch_amd64.go.
const (
	lanesX       = 0
	lanesCtr     = 256
	lanesMask    = 512
	lanesSrc     = 768
	lanesDst     = 896
	lanesN       = 1024
	lanesStep    = 1152
	lanesCur     = 1280
	lanesJob     = 1408
	lanesLast    = 1536
	lanesKMask   = 1664
	lanesJobs    = 1792
	lanesNJobs   = 1800
	lanesScratch = 1808
	lanesSize    = 6800

	runSrc   = 0
	runDst   = 8
	runN     = 16
	runCtrLo = 24
	runMask  = 32
	runLast  = 36
	runSize  = 40

	jobB0A0   = 240
	jobTagDst = 248
	jobCtrHi  = 256
	jobSize   = 328

	maxSteps = 160
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

// Registers of the scheduler (batchSchedule), beside lp and rk.
var (
	work    = R8  // vecPass: the lanes left to visit, a bit each; n is set after
	nextJob = RAX // the next job; nr is no longer needed
	endJob  = R13 // the end of the jobs
	steps   = RDX // the steps just run
	stepsB  = R10 // the bytes of steps blocks
	least   = R9  // the fewest blocks left in a busy lane's run
	lj      = R11 // 8 times the lane
	cur     = R12 // the lane's run
	tmp     = RSI // off, free between stretches
	tmpX    = X12 // of bt[0] or k.t[0], likewise
)

var bswap4, ctrOne4, maskBytes, laneShifts Mem

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
	// Sixteen bytes from maskBytes+16-m are m bytes of ones, then zeros.
	maskBytes = GLOBL("maskBytes", RODATA|NOPTR)
	DATA(0, U64(^uint64(0)))
	DATA(8, U64(^uint64(0)))
	DATA(16, U64(0))
	DATA(24, U64(0))
	// The shift of each lane's 16 mask bits to its place in a register.
	laneShifts = GLOBL("laneShifts", RODATA|NOPTR)
	for i := range 8 {
		DATA(8*i, U64(16*(i%4)))
	}
}

// batchTEXT starts a batch kernel and loads its arguments.
func batchTEXT(name string) {
	TEXT(name, NOSPLIT, fmt.Sprintf("func(nr int, rk *[240]byte, l *[%d]byte)", lanesSize))
	Pragma("noescape")
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("l"), lp)
}

// laneMem returns the field at disp of lane lj in lanes: an array of 8-byte
// values (scale 1) or of blocks (scale 2).
func laneMem(disp int, scale uint8) Mem {
	return Mem{Base: lp, Index: lj, Scale: scale, Disp: disp}
}

// batchSchedule runs the jobs of lanes on nl lanes, with stretch running n
// steps of the kernel (it must keep RAX, RBX, RCX, RDX, R10 and R13).
//
// In each pass over the lanes, every busy lane subtracts the steps just run
// from its run and advances its pointers (its destination only where the
// run's step mask is all ones: runs that only MAC write to the scratch); a
// lane whose run ends loads its next run, or at the empty run after its
// last stores its job's tag and takes the next job (its MAC value starting
// at E(B_0)), or goes idle on the scratch. Then the kernel runs the fewest
// steps left in a busy lane. Only open reads the lanes' masks. On 16 lanes
// (zmm, vecPass) the lanes that go on are stepped together, and only those
// whose run ended, or idle ones while jobs are left, one at a time.
func batchSchedule(name string, rounds, nl int, open bool, stretch func()) {
	lbl := func(what string) string { return label(name, rounds, what) }
	vec := nl == 16
	MOVQ(Mem{Base: lp, Disp: lanesJobs}, nextJob)
	MOVQ(Mem{Base: lp, Disp: lanesNJobs}, endJob)
	IMUL3Q(U32(jobSize), endJob, endJob)
	ADDQ(nextJob, endJob)
	XORL(steps.As32(), steps.As32())
	XORL(stepsB.As32(), stepsB.As32())

	Label(lbl("sched"))
	if vec {
		vecPass()
		JMP(LabelRef(lbl("work")))
	} else {
		MOVQ(I32(-1), least)
		XORL(lj.As32(), lj.As32())
		Label(lbl("lane"))
		MOVQ(laneMem(lanesCur, 1), cur)
		TESTQ(cur, cur)
		JZ(LabelRef(lbl("refill")))
		SUBQ(steps, laneMem(lanesN, 1))
		JZ(LabelRef(lbl("ended")))
		ADDQ(stepsB, laneMem(lanesSrc, 1))
		MOVQ(laneMem(lanesStep, 1), tmp)
		ANDQ(stepsB, tmp)
		ADDQ(tmp, laneMem(lanesDst, 1))
		JMP(LabelRef(lbl("least")))
	}
	// The run ended (its pointers are not needed): the next run, or the
	// job's end.
	Label(lbl("ended"))
	ADDQ(U8(runSize), cur)
	MOVQ(cur, laneMem(lanesCur, 1))
	CMPQ(Mem{Base: cur, Disp: runN}, U8(0))
	JNE(LabelRef(lbl("load")))
	// The tag: X ^ E(A_0).
	Label(lbl("jobdone"))
	MOVQ(laneMem(lanesJob, 1), tmp)
	MOVQ(Mem{Base: tmp, Disp: jobB0A0}, ptr)
	VMOVDQU(laneMem(lanesX, 2), tmpX)
	VPXOR(Mem{Base: ptr, Disp: 16}, tmpX, tmpX)
	MOVQ(Mem{Base: tmp, Disp: jobTagDst}, tmp)
	VMOVDQU(tmpX, Mem{Base: tmp})

	Label(lbl("refill"))
	CMPQ(nextJob, endJob)
	JAE(LabelRef(lbl("idle")))
	MOVQ(nextJob, cur)
	MOVQ(cur, laneMem(lanesCur, 1))
	MOVQ(cur, laneMem(lanesJob, 1))
	ADDQ(U32(jobSize), nextJob)
	MOVQ(Mem{Base: cur, Disp: jobB0A0}, ptr)
	VMOVDQU(Mem{Base: ptr}, tmpX)
	VMOVDQU(tmpX, laneMem(lanesX, 2))
	// A job without runs (no associated data, no message) is done.
	CMPQ(Mem{Base: cur, Disp: runN}, U8(0))
	JE(LabelRef(lbl("jobdone")))

	Label(lbl("load"))
	for _, f := range []struct{ run, lane int }{{runSrc, lanesSrc}, {runDst, lanesDst}, {runN, lanesN}} {
		MOVQ(Mem{Base: cur, Disp: f.run}, tmp)
		MOVQ(tmp, laneMem(f.lane, 1))
	}
	// The step: -1 where the mask is not 0.
	MOVL(Mem{Base: cur, Disp: runMask}, tmp.As32())
	NEGQ(tmp)
	SBBQ(tmp, tmp)
	MOVQ(tmp, laneMem(lanesStep, 1))
	MOVQ(laneMem(lanesJob, 1), ptr)
	MOVQ(Mem{Base: ptr, Disp: jobCtrHi}, tmp)
	MOVQ(tmp, laneMem(lanesCtr, 2))
	MOVQ(Mem{Base: cur, Disp: runCtrLo}, tmp)
	MOVQ(tmp, laneMem(lanesCtr+8, 2))
	if open {
		MOVLQSX(Mem{Base: cur, Disp: runMask}, tmp)
		LEAQ(maskBytes.Offset(16), ptr)
		SUBQ(tmp, ptr)
		VMOVDQU(Mem{Base: ptr}, tmpX)
		VMOVDQU(tmpX, laneMem(lanesMask, 2))
	}
	if nl == 16 {
		MOVL(Mem{Base: cur, Disp: runLast}, tmp.As32())
		MOVQ(tmp, laneMem(lanesLast, 1))
	}

	Label(lbl("least"))
	CMPQ(laneMem(lanesN, 1), least)
	CMOVQCS(laneMem(lanesN, 1), least)
	JMP(LabelRef(lbl("next")))

	Label(lbl("idle"))
	MOVQ(U32(0), laneMem(lanesCur, 1))
	LEAQ(Mem{Base: lp, Disp: lanesScratch}, tmp)
	MOVQ(tmp, laneMem(lanesSrc, 1))
	MOVQ(tmp, laneMem(lanesDst, 1))

	Label(lbl("next"))
	if vec {
		Label(lbl("work"))
		TESTL(work.As32(), work.As32())
		JZ(LabelRef(lbl("run")))
		BSFL(work.As32(), lj.As32())
		SHLL(U8(3), lj.As32())
		LEAL(Mem{Base: work, Disp: -1}, tmp.As32())
		ANDL(tmp.As32(), work.As32())
		MOVQ(laneMem(lanesCur, 1), cur)
		TESTQ(cur, cur)
		JZ(LabelRef(lbl("refill")))
		JMP(LabelRef(lbl("ended")))
		Label(lbl("run"))
	} else {
		ADDQ(U8(8), lj)
		CMPQ(lj, U8(8*nl))
		JB(LabelRef(lbl("lane")))
	}

	CMPQ(least, I8(-1))
	JE(LabelRef(lbl("done")))
	MOVQ(U32(maxSteps), steps)
	CMPQ(least, steps)
	CMOVQCS(least, steps)
	MOVQ(steps, stepsB)
	SHLQ(U8(4), stepsB)
	MOVQ(steps, n)
	stretch()
	JMP(LabelRef(lbl("sched")))
	Label(lbl("done"))
}

// vecPass steps the busy lanes of 16, eight to a register (the MAC and
// keystream registers are free between stretches): n -= steps, src +=
// steps blocks, dst likewise where the run's step mask is all ones (idle
// lanes stay on the scratch); sets least to the fewest blocks left in a
// lane that goes on, and work to the lanes whose run ended, and the idle
// ones while jobs are left, for the scheduler's loop to visit in turn.
func vecPass() {
	st, stB, max := bks[0], bks[1], bks[2]
	ended := []Register{K3, K4}
	VPBROADCASTQ(steps, st)
	VPBROADCASTQ(stepsB, stB)
	VPTERNLOGQ(U8(0xff), max, max, max)
	for h := range 2 {
		busy, on, left := K1, K2, []VecPhysical{bt[0], bt[1]}[h]
		cur, n, p := bks[3], bt[2], bt[3]
		field := func(disp int) Mem { return Mem{Base: lp, Disp: disp + 64*h} }
		VMOVDQU64(field(lanesCur), cur)
		VPTESTMQ(cur, cur, busy)
		VMOVDQU64(field(lanesN), n)
		VPSUBQ(st, n, busy, n)
		VMOVDQU64(n, field(lanesN))
		VPTESTNMQ(n, n, busy, ended[h])
		VPTESTMQ(n, n, busy, on)
		VMOVDQA64(max, left)
		VMOVDQA64(n, on, left)
		VPADDQ(field(lanesSrc), stB, p)
		VMOVDQU64(p, busy, field(lanesSrc))
		VPANDQ(field(lanesStep), stB, p)
		VPADDQ(field(lanesDst), p, p)
		VMOVDQU64(p, busy, field(lanesDst))
		if h == 0 {
			KMOVW(busy, work.As32())
		} else {
			KMOVW(busy, tmp.As32())
			SHLL(U8(8), tmp.As32())
			ORL(tmp.As32(), work.As32())
		}
	}
	// The fewest of the lanes that go on: halves, quarters, pairs.
	VPMINUQ(bt[1], bt[0], bt[0])
	for _, imm := range []uint8{0x4e, 0xb1} {
		VSHUFI64X2(U8(imm), bt[0], bt[0], bt[1])
		VPMINUQ(bt[1], bt[0], bt[0])
	}
	VPSHUFD(U8(0x4e), bt[0], bt[1])
	VPMINUQ(bt[1], bt[0], bt[0])
	VMOVQ(bt[0].(Vec).AsX(), least)
	// work: the ended lanes, and the idle ones while jobs are left.
	KMOVW(ended[0], cur.As32())
	KMOVW(ended[1], tmp.As32())
	SHLL(U8(8), tmp.As32())
	ORL(tmp.As32(), cur.As32())
	NOTL(work.As32())
	ANDL(U32(0xffff), work.As32())
	XORL(tmp.As32(), tmp.As32())
	CMPQ(nextJob, endJob)
	CMOVLCS(work.As32(), tmp.As32())
	ORL(cur.As32(), tmp.As32())
	MOVL(tmp.As32(), work.As32())
}

// gather loads the step's source blocks of group g into bt[g]. Masked
// (the last step of a stretch, where a lane's run may end in a partial
// block), it loads only the bytes of each lane's kmask (in its place in the
// register, from 16j bytes before lane j's block: masked bytes are not
// read, nor fault), the rest zero, and leaves the group's mask in K2+g.
func gather(g int, masked bool) {
	kg := []Register{K2, K3, K4, K5}[g]
	for j := range 4 {
		MOVQ(Mem{Base: lp, Disp: lanesSrc + 8*(4*g+j)}, ptr)
		blk := Mem{Base: ptr, Index: off, Scale: 1}
		switch {
		case masked:
			KMOVQ(Mem{Base: lp, Disp: lanesKMask + 8*(4*g+j)}, K1)
			blk.Disp = -16 * j
			if j == 0 {
				VMOVDQU8_Z(blk, K1, bt[g])
				KMOVQ(K1, kg)
			} else {
				VMOVDQU8(blk, K1, bt[g])
				KORQ(K1, kg, kg)
			}
		case j == 0:
			VMOVDQU(blk, btx[g])
		default:
			VINSERTI32X4(U8(j), blk, bt[g], bt[g])
		}
	}
}

// scatter stores the blocks of v, of group g, to the lanes' destinations;
// masked, only the bytes of each lane's kmask.
func scatter(g int, v VecPhysical, masked bool) {
	for j := range 4 {
		MOVQ(Mem{Base: lp, Disp: lanesDst + 8*(4*g+j)}, ptr)
		blk := Mem{Base: ptr, Index: off, Scale: 1}
		if masked {
			KMOVQ(Mem{Base: lp, Disp: lanesKMask + 8*(4*g+j)}, K1)
			blk.Disp = -16 * j
			VMOVDQU8(v, K1, blk)
		} else {
			VEXTRACTI32X4(U8(j), v, blk)
		}
	}
}

// laneMasks sets each lane's kmask for the last step of the stretch of
// steps: its run's mask of bytes in the final block where the run ends
// with the stretch, else all 16 bytes, shifted to the lane's place in its
// register (an idle lane's mask does not matter); and clears ZF if any
// lane's mask is not all 16 bytes. It uses the registers of bt.
func laneMasks() {
	full, st, lo, hi := bt[0], bt[1], bt[2], bt[3]
	MOVL(U32(0xffff), ptr.As32())
	VPBROADCASTQ(ptr, full)
	VPBROADCASTQ(steps, st)
	VMOVDQA64(full, lo)
	VMOVDQA64(full, hi)
	VPCMPEQQ(Mem{Base: lp, Disp: lanesN}, st, K1)
	VPCMPEQQ(Mem{Base: lp, Disp: lanesN + 64}, st, K2)
	VMOVDQU64(Mem{Base: lp, Disp: lanesLast}, K1, lo)
	VMOVDQU64(Mem{Base: lp, Disp: lanesLast + 64}, K2, hi)
	VPCMPUQ(U8(4), full, lo, K1) // not equal
	VPCMPUQ(U8(4), full, hi, K2)
	VPSLLVQ(laneShifts, lo, lo)
	VPSLLVQ(laneShifts, hi, hi)
	VMOVDQU64(lo, Mem{Base: lp, Disp: lanesKMask})
	VMOVDQU64(hi, Mem{Base: lp, Disp: lanesKMask + 64})
	KORTESTW(K1, K2)
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

// zmmKernel emits a VAES512 kernel, of open or seal: body runs n steps
// from off 0 with the MAC values and counters in registers, the last with
// the lanes' kmasks if masked.
func zmmKernel(name string, open bool, body func(rounds int, masked bool)) {
	batchTEXT(name)
	VMOVDQU64(bswap4, bbsw)
	perKeySize(name, func(rounds int) {
		for r := 0; r <= rounds; r++ {
			VBROADCASTI32X4(Mem{Base: rk, Disp: 16 * r}, bkeys[r])
		}
		batchSchedule(name, rounds, 16, open, func() {
			for g := range 4 {
				VMOVDQU64(Mem{Base: lp, Disp: lanesX + 64*g}, bx[g])
				VMOVDQU64(Mem{Base: lp, Disp: lanesCtr + 64*g}, bctr[g])
				VPSHUFB(bbsw, bctr[g], bctr[g])
			}
			XORQ(off, off)
			// Stretches that end no run in a partial block (all of a
			// batch of whole-block messages) take the loop without
			// masks.
			plain, stored := label(name, rounds, "plain"), label(name, rounds, "stored")
			laneMasks()
			JZ(LabelRef(plain))
			body(rounds, true)
			JMP(LabelRef(stored))
			Label(plain)
			body(rounds, false)
			Label(stored)
			for g := range 4 {
				VMOVDQU64(bx[g], Mem{Base: lp, Disp: lanesX + 64*g})
				VPSHUFB(bbsw, bctr[g], bctr[g])
				VMOVDQU64(bctr[g], Mem{Base: lp, Disp: lanesCtr + 64*g})
			}
		})
		VZEROUPPER()
		RET()
	})
}

// stepLoop emits a kernel's loop of n steps: step(false, false) for all
// but the last, and step(masked, true) for the last (where a run may end in
// a partial block, and open computes no keystream for a next step); seal
// without masks runs all n in the loop.
func stepLoop(name string, rounds int, masked, open bool, step func(masked, last bool)) {
	if !masked && !open {
		loop := label(name, rounds, "loop")
		Label(loop)
		step(false, false)
		ADDQ(U8(16), off)
		DECQ(n)
		JNZ(LabelRef(loop))
		return
	}
	what := "loop"
	if masked {
		what = "mloop"
	}
	loop, last := label(name, rounds, what), label(name, rounds, what+"last")
	DECQ(n)
	JZ(LabelRef(last))
	Label(loop)
	step(false, false)
	ADDQ(U8(16), off)
	DECQ(n)
	JNZ(LabelRef(loop))
	Label(last)
	step(masked, true)
}

func sealBatch() {
	zmmKernel("sealBatchVAES512", false, func(rounds int, masked bool) {
		stepLoop("sealBatch", rounds, masked, false, func(masked, _ bool) {
			for g := range 4 {
				gather(g, masked)
				VPTERNLOGQ(U8(0x96), bt[g], bkeys[0], bx[g]) // X ^ T ^ K0
			}
			keystreamStart()
			batchRounds(rounds, zmmKey, bx, bks)
			for g := range 4 {
				VPXORQ(bt[g], bks[g], bks[g])
				scatter(g, bks[g], masked)
			}
		})
	})
}

func openBatch() {
	zmmKernel("openBatchVAES512", true, func(rounds int, masked bool) {
		keystreamStart()
		batchRounds(rounds, zmmKey, bks)
		stepLoop("openBatch", rounds, masked, true, func(masked, last bool) {
			for g := range 4 {
				gather(g, masked)
			}
			for g := range 4 {
				VPXORQ(bt[g], bks[g], bks[g])
				scatter(g, bks[g], masked)
				// T = mask ? out : T, then X ^ T ^ K0.
				VPTERNLOGQ(U8(0xd8), Mem{Base: lp, Disp: lanesMask + 64*g}, bks[g], bt[g])
				if masked {
					// The output's padding of a partial block is
					// keystream, not zeros.
					VMOVDQU8_Z(bt[g], []Register{K2, K3, K4, K5}[g], bt[g])
				}
				VPTERNLOGQ(U8(0x96), bt[g], bkeys[0], bx[g])
			}
			if last {
				// No keystream for a step after the stretch.
				batchRounds(rounds, zmmKey, bx)
				return
			}
			keystreamStart()
			batchRounds(rounds, zmmKey, bx, bks)
		})
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

// kernel emits the VEX kernel name, as zmmKernel; for ymm it first copies
// the key schedule, each key twice, to the stack.
func (k *vexKernel) kernel(name string, open bool, body func(rounds int)) {
	batchTEXT(name)
	k.keys = Mem{Base: rk}
	if k.lanes > 1 {
		k.keys = AllocLocal(15 * k.bytes)
		for r := range 15 {
			VBROADCASTI128(Mem{Base: rk, Disp: 16 * r}, Y0)
			VMOVDQU(Y0, k.key(r))
		}
	}
	perKeySize(name, func(rounds int) {
		batchSchedule(name, rounds, 4*k.lanes, open, func() {
			for g := range 4 {
				VMOVDQU(Mem{Base: lp, Disp: lanesX + k.bytes*g}, k.x[g])
				VMOVDQU(Mem{Base: lp, Disp: lanesCtr + k.bytes*g}, k.ctr[g])
				VPSHUFB(bswap4, k.ctr[g], k.ctr[g])
			}
			XORQ(off, off)
			body(rounds)
			for g := range 4 {
				VMOVDQU(k.x[g], Mem{Base: lp, Disp: lanesX + k.bytes*g})
				VPSHUFB(bswap4, k.ctr[g], k.ctr[g])
				VMOVDQU(k.ctr[g], Mem{Base: lp, Disp: lanesCtr + k.bytes*g})
			}
		})
		VZEROUPPER()
		RET()
	})
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
	k.kernel(name, false, func(rounds int) {
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
	})
}

func openBatchVex(w vexWidth) {
	k := newVexKernel(w)
	name := "openBatch" + w.name
	k.kernel(name, true, func(rounds int) {
		k.keystreamStart()
		batchRounds(rounds, k.key, k.ks)
		stepLoop(name, rounds, false, true, func(_, last bool) {
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
			if last {
				batchRounds(rounds, k.key, k.x)
				return
			}
			k.keystreamStart()
			batchRounds(rounds, k.key, k.x, k.ks)
		})
	})
}
