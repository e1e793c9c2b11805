package main

import (
	"strconv"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The lane kernels, ocbSealLanes and ocbOpenLanes (zmm), seal or open 16
// messages side by side, one per 128-bit lane of four zmm registers (lane k
// of register r holds message 4r+k), each message shorter than 4096 bytes.
// A message's steps wait on each other (Ktop, the blocks, the pad, the tag);
// across messages they do not, so each step runs for all 16 at once: the 16
// Ktops in one pass of the AES pipeline (one Ktop where their nonces share
// it: see laneKtops), then block j of every message that has one (j = 1,
// 2, ...; each lane's 16-byte loads and stores from its own pointer, masked
// where some lane has no block j), then the pads of the final partial
// blocks (byte masks), then the 16 tags. The offsets of block
// j differ by message only in Offset_0, so every lane takes the same
// L_ntz(j). While every lane has blocks j and j+1, both run in one pass:
// eight registers in flight. The Go side (lanes_amd64.go) groups the
// messages (batchutil.RunLanes) and adds HASH(A) to the tags; the lanes it
// marks (16-byte tags, no associated data) have their tags stored at the
// end of their output by the seal kernel, compared with the received ones
// by the open kernel.
//
// The kernels take their messages from the batch (batch.Message, whose
// layout ocb's tests pin: msg* below) by 16 indexes, and fill their lanes'
// table in their own frame, 64-byte aligned (ln* below), themselves: src,
// dst and nonce pointers (16 each), the text lengths (16 uint32; past the
// group's n messages, idle lanes, lane 0's whole blocks: see laneTable) and
// the marked lanes (a bit each, uint32). Before the table the frame holds,
// per register, each lane's whole blocks n and partial bytes r, in every
// byte of the lane, a count of the run kernels' and two flags (the group's
// nonces share Ktop: see laneOffsets; its lanes have one length: see
// likeParts); after it, the last Ktop input a run kernel enciphered and
// its Ktops (see laneKtops). What the caller reads
// goes to its laneOut (out* below, which ocb's tests pin): the tags, the
// marked lanes whose tags differ (a bit each, uint32, when opening) and the
// marked lanes. (In the caller's frame, the whole would be zeroed each call:
// about 5% of a batch of 64 messages of 64 bytes in profiles.) The run
// kernels (see lanes) take full groups of messages in a row by place,
// without indexes or the table's pointers (their lengths, gathered, go to
// the table for the steps that take them one by one), and run the next
// group in the same call: a batch of like messages in one call.
const (
	lnSrc   = 0
	lnDst   = 128
	lnNonce = 256
	lnLen   = 384
	lnTags  = 448
	lnN     = 0
	lnR     = 256
	lnRuns  = 512
	lnOne   = 516
	lnLike  = 517
	lnTable = 576
	lnKin   = 1088
	lnKtop  = 1152
	lnSize  = lnKtop + 64

	outTag  = 0
	outFail = 256
	outDone = 260
	outSize = 264

	msgSize  = 104
	msgNonce = 0
	msgADLen = 32
	msgIn    = 48
	msgInLen = 56
	msgOut   = 72
	msgOK    = 96
)

// laneRun is set while the run kernels are generated, which take their
// lanes' pointers from the messages themselves, 16 in a row (msgSize
// apart, lp at the first), in place of the table: see lanes.
var laneRun bool

// laneField is where lane i's pointer f (lnSrc, lnDst or lnNonce) is.
func laneField(f, i int) Mem {
	if laneRun {
		return Mem{Base: lp, Disp: msgSize*i + map[int]int{lnSrc: msgIn, lnDst: msgOut, lnNonce: msgNonce}[f]}
	}
	return Mem{Base: lp, Disp: f + 8*i}
}

// laneLen is where lane i's text length is, in the table; laneTags where
// the marked lanes are (copied to out.done at the group's end).
func laneLen(i int) Mem { return Mem{Base: lo, Disp: lnTable + lnLen + 4*i} }

var laneTags = Mem{Base: lo, Disp: lnTable + lnTags}

// Registers of the lane kernels.
var (
	lKeys = RBX // the round keys in the registers
	lEK   = R10 // encryption round keys
	lp    = RSI // the lanes
	lEnds = RDI // L_* and L_$
	lMax  = R8  // the most whole blocks of a message
	lJ    = R9  // block index j, from 1
	lJ16  = R11 // 16(j-1), the block's position
	lT    = R12
	lU    = R14
	lMin  = RCX // the fewest whole blocks of a message
	lo    = R13 // the frame's aligned area
)

// lX, lOff and lSum are the states, offsets and checksums of the four
// registers; lKey(i) round key i; Z12 to Z16 temporaries.
func lX(r int) VecPhysical   { return []VecPhysical{Z0, Z1, Z2, Z3}[r] }
func lOff(r int) VecPhysical { return []VecPhysical{Z4, Z5, Z6, Z7}[r] }
func lSum(r int) VecPhysical { return []VecPhysical{Z8, Z9, Z10, Z11}[r] }
func lKey(i int) VecPhysical {
	return []VecPhysical{Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
}

// Constants of the lane kernels, 64 bytes each (a 16-byte pattern in every
// lane, or per register): see tables.
var lenIdx, ktopMask4, rev128x4, rev64x4, bottom4, iota4, low4, b80, lenPerm Mem

func laneTables() {
	rep := func(name string, lo, hi uint64) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		for i := 0; i < 4; i++ {
			DATA(16*i, U64(lo))
			DATA(16*i+8, U64(hi))
		}
		return m
	}
	ktopMask4 = rep("ktopMask4", ^uint64(0), 0xc0ffffffffffffff)
	rev128x4 = rep("rev128x4", 0x08090a0b0c0d0e0f, 0x0001020304050607)
	rev64x4 = rep("rev64x4", 0x0001020304050607, 0x08090a0b0c0d0e0f)
	// bottom4 moves byte 15 (the nonce's last) into the low byte of both
	// qwords, zeros elsewhere.
	bottom4 = rep("bottom4", 0x808080808080800f, 0x808080808080800f)
	iota4 = rep("iota4", 0x0706050403020100, 0x0f0e0d0c0b0a0908)
	low4 = rep("low4", 0x0000000f0000000f, 0x0000000f0000000f)
	b80 = rep("b80", 0x8080808080808080, 0x8080808080808080)
	// lenIdx: the offsets of the 16 messages' In lengths from the first's.
	lenIdx = GLOBL("lenIdx", RODATA|NOPTR)
	for k := 0; k < 16; k++ {
		DATA(4*k, U32(uint32(msgSize*k+msgInLen)))
	}
	// lenPerm[r] takes length 4r+k into the four dwords of lane k.
	lenPerm = GLOBL("lenPerm", RODATA|NOPTR)
	for r := 0; r < 4; r++ {
		for k := 0; k < 4; k++ {
			v := uint64(4*r+k) * 0x0000000100000001
			DATA(64*r+16*k, U64(v))
			DATA(64*r+16*k+8, U64(v))
		}
	}
}

// lanes generates a lane kernel, or with run a run kernel: groups of 16
// messages in a row, from msgs on, runs of them one after the other (the
// next 16 messages for each), which stops early after a group whose lanes
// are not all marked or whose tags (opening) differ somewhere, for the
// caller to finish it (its tags, done and fail in out); it returns the
// groups it ran.
func lanes(o op, run bool) {
	laneRun = run
	kind, group := "Lanes", "idx *[16]int, n"
	if run {
		kind, group = "Run", "runs"
	}
	name, keys := "ocbSeal"+kind+"VAES512", "rk *[240]byte"
	if o == dec {
		name, keys = "ocbOpen"+kind+"VAES512", "rk, ek *[240]byte"
	}
	sig := "func(nr int, " + keys + ", l *[32][16]byte, ends *[2][16]byte, bits *[16]byte, nonceLen int, msgs *byte, " + group + ", sub int, mark uint32, out *[" + strconv.Itoa(outSize) + "]byte)"
	if run {
		sig += " int"
	}
	// (A frame this large takes the stack check NOSPLIT would forgo.)
	TEXT(name, 0, sig)
	Pragma("noescape")
	LEAQ(AllocLocal((lnSize+63+7)&^7), lo)
	ADDQ(U8(63), lo)
	ANDQ(I8(-64), lo)
	if run {
		Load(Param("msgs"), lp)
		MOVL(U32(0), Mem{Base: lo, Disp: lnRuns})
	} else {
		laneTable()
	}
	Load(Param("nr"), nr)
	Load(Param("rk"), lKeys)
	if o == dec {
		Load(Param("ek"), lEK)
	} else {
		MOVQ(lKeys, lEK)
	}
	Load(Param("l"), ltab)
	Load(Param("ends"), lEnds)
	loadKeys(lEK)

	// The Ktops: a run kernel's first group's here, the others' beside
	// their previous group's tags (see the tags below).
	if run {
		laneMarks()
		runLengths()
	}
	laneMasks()
	laneNonces(lp, lX)
	laneKtops()
	if run {
		Label("lanes_group_" + name)
	}
	laneOffsets(run)

	// From the lengths (the run kernels': runLengths's, in the last
	// checksum's register until here), each lane's whole blocks n (< 256)
	// and partial bytes r: the fewest and the most n of a lane (blocks up
	// to the fewest need no masks), in lU the lanes with r > 0; then, only
	// where the steps that take them run, n (lanes' n differ: masked
	// blocks) and r (some r > 0: partial blocks) in every byte of each
	// lane.
	lens := Z12
	if run {
		lens = lSum(3)
	} else {
		VMOVDQU64(Mem{Base: lp, Disp: lnLen}, lens)
	}
	VPSRLD(U8(4), lens, Z13)
	// Lanes of one n (a batch of like messages) need no reduction, whose
	// shuffles take the vector port the AES rounds leave: lane 0's n,
	// broadcast, equals every lane's.
	reduced := "lanes_reduced_" + name
	VPBROADCASTD(X13, Z14)
	VPCMPEQD(Z14, Z13, K1)
	VMOVD(X13, lMin.As32())
	MOVL(lMin.As32(), lMax.As32())
	KORTESTW(K1, K1)
	JCS(LabelRef(reduced))
	laneReduce(VPMINUD, Z13, lMin)
	laneReduce(VPMAXUD, Z13, lMax)
	Label(reduced)
	VPTESTMD(low4, lens, K1)
	KMOVW(K1, lU.As32())
	VPXORQ(Z16, Z16, Z16)
	nDone, rDone := "lanes_n_done_"+name, "lanes_r_done_"+name
	CMPQ(lMin, lMax)
	JE(LabelRef(nDone))
	for r := 0; r < 4; r++ {
		VMOVDQU64(lenPerm.Offset(64*r), Z14)
		VPERMD(Z13, Z14, Z14)
		VPSHUFB(Z16, Z14, Z14)
		VMOVDQU64(Z14, Mem{Base: lo, Disp: lnN + 64*r})
	}
	Label(nDone)
	TESTL(lU.As32(), lU.As32())
	JZ(LabelRef(rDone))
	// Lanes of one length (a batch of like messages) take their partial
	// blocks' masks from lane 0's r (see the partial blocks below), not
	// per lane from these.
	VPBROADCASTD(lens.AsX(), Z14)
	VPCMPEQD(Z14, lens, K1)
	KORTESTW(K1, K1)
	SETCS(Mem{Base: lo, Disp: lnLike})
	JCS(LabelRef(rDone))
	for r := 0; r < 4; r++ {
		VMOVDQU64(lenPerm.Offset(64*r), Z14)
		VPERMD(lens, Z14, Z14)
		VPANDD(low4, Z14, Z14)
		VPSHUFB(Z16, Z14, Z14)
		VMOVDQU64(Z14, Mem{Base: lo, Disp: lnR + 64*r})
	}
	Label(rDone)
	if run {
		VPXORQ(lSum(3), lSum(3), lSum(3))
	}

	// Block j of every lane with n >= j: Offset_j = Offset_{j-1} ^
	// L_ntz(j) (one for all), the block enciphered (deciphered) with it,
	// checksummed before (after).
	if o == dec {
		loadKeys(lKeys)
	}
	blocksDone := "lanes_blocks_done_" + name
	TESTQ(lMax, lMax)
	JZ(LabelRef(blocksDone))
	MOVL(U32(1), lJ.As32())
	XORL(lJ16.As32(), lJ16.As32())
	loop := "lanes_loop_" + name
	masked := "lanes_masked_" + name
	next := "lanes_next_" + name
	// K5 to K7 select the dwords of lanes 1 to 3 in the loop.
	for k := 1; k < 4; k++ {
		MOVL(U32(0xf<<(4*k)), lT.As32())
		KMOVW(lT.As32(), []Op{K5, K6, K7}[k-1])
	}
	// Pairs of blocks, j and j+1, while every lane has both: eight
	// registers in flight.
	pairs := "lanes_pairs_" + name
	Label(pairs)
	LEAQ(Mem{Base: lJ, Disp: 1}, lT)
	CMPQ(lT, lMin)
	JA(LabelRef(loop))
	lanePairs(o)
	ADDQ(U8(2), lJ)
	ADDQ(U8(32), lJ16)
	JMP(LabelRef(pairs))
	Label(loop)
	CMPQ(lJ, lMax)
	JA(LabelRef(blocksDone))
	VPBROADCASTB(lJ.As32(), Z13)
	BSFQ(lJ, lT)
	SHLQ(U8(4), lT)
	VBROADCASTI32X4(Mem{Base: ltab, Index: lT, Scale: 1}, Z12)
	CMPQ(lJ, lMin)
	JA(LabelRef(masked))
	laneBlocks(o, true)
	JMP(LabelRef(next))
	Label(masked)
	laneBlocks(o, false)
	Label(next)
	INCQ(lJ)
	ADDQ(U8(16), lJ16)
	JMP(LabelRef(loop))
	Label(blocksDone)
	if o == dec {
		loadKeys(lEK)
	}
	laneMasks()

	// The final partial blocks, in lanes with r > 0: Offset_* = Offset_n ^
	// L_*, the text XORed with E(Offset_*), the checksum taking the
	// plaintext padded.
	partsDone, unlike := "lanes_parts_done_"+name, "lanes_parts_unlike_"+name
	TESTL(lU.As32(), lU.As32())
	JZ(LabelRef(partsDone))
	VBROADCASTI32X4(Mem{Base: lEnds}, Z12)
	CMPB(Mem{Base: lo, Disp: lnLike}, U8(0))
	JE(LabelRef(unlike))
	likeParts(o)
	JMP(LabelRef(partsDone))
	Label(unlike)
	VMOVDQU64(iota4, Z16)
	for r := 0; r < 4; r++ {
		VMOVDQU64(Mem{Base: lo, Disp: lnR + 64*r}, Z13)
		VPTESTMD(Z13, Z13, K2)
		VPXORD(Z12, lOff(r), K2, lOff(r))
		VPXORQ(lKey(0), lOff(r), lX(r))
	}
	laneRounds(false)
	for r := 0; r < 4; r++ {
		VMOVDQU64(Mem{Base: lo, Disp: lnR + 64*r}, Z13)
		// K1: the r bytes of each lane; K2: byte r, where r > 0.
		VPCMPUB(U8(1), Z13, Z16, K1)
		VPTESTMB(Z13, Z13, K2)
		VPCMPEQB(Z13, Z16, K2, K2)
		// Each lane's bytes move by a 16-byte masked load or store at its
		// own place (K3: lane k's bits of K1, shifted down), put in or
		// taken out of its lane by a shuffle: a 64-byte access would span
		// other places, such as the output just written, which loads must
		// then wait for (5-6% of a group of 44 bytes, measured).
		partLanes(r, X15, func(k int) Op {
			KSHIFTRQ(U8(16*k), K1, K3)
			return K3
		})
		if o == dec {
			VMOVDQU8_Z(lX(r), K1, Z14)
		}
		VMOVDQU8_Z(b80, K2, Z15)
		VPTERNLOGQ(U8(0x96), Z14, Z15, lSum(r))
	}
	Label(partsDone)

	// The tags, E(Checksum ^ Offset_m ^ L_$), HASH(A) left to the caller.
	// A run kernel's go through the AES rounds beside the next group's
	// Ktops (lanes' own, when this group is the run's last, which leaves
	// the rounds' registers as full at no risk of reading past the run):
	// eight registers in flight where four would wait on each other. Until
	// the stop below, the next group's work is only in registers. The
	// tags take the checksums' registers, the Ktops the states'.
	tag := lX
	if run {
		tag = lSum
	}
	VBROADCASTI32X4(Mem{Base: lEnds, Disp: 16}, Z12)
	for r := 0; r < 4; r++ {
		VPTERNLOGQ(U8(0x96), Z12, lOff(r), lSum(r))
		VPXORQ(lKey(0), lSum(r), tag(r))
	}
	if o == dec {
		laneReceived()
	}
	if run {
		next := lJ16
		LEAQ(Mem{Base: lp, Disp: 16 * msgSize}, next)
		MOVL(Mem{Base: lo, Disp: lnRuns}, lT.As32())
		INCL(lT.As32())
		Load(Param("runs"), lU)
		CMPQ(lT, lU)
		CMOVQEQ(lp, next)
		laneNonces(next, lX)
		laneKtops(tag(0), tag(1), tag(2), tag(3))
	} else {
		laneRounds(false)
	}
	Load(Param("out"), lJ16)
	for r := 0; r < 4; r++ {
		VMOVDQU64(tag(r), Mem{Base: lJ16, Disp: outTag + 64*r})
	}
	if o == enc {
		// The marked lanes' tags, which are whole, to Dst+Len.
		MOVL(laneTags, lU.As32())
		for i := 0; i < 16; i++ {
			skip := "lanes_tag" + strconv.Itoa(i) + "_" + name
			BTL(U8(i), lU.As32())
			JCC(LabelRef(skip))
			MOVQ(laneField(lnDst, i), lT)
			MOVL(laneLen(i), lJ.As32())
			// (Lane 0 of a register is its xmm: no shuffle.)
			if m := (Mem{Base: lT, Index: lJ, Scale: 1}); i%4 == 0 {
				VMOVDQU(tag(i/4).AsX(), m)
			} else {
				VEXTRACTI32X4(U8(i%4), tag(i/4), m)
			}
			Label(skip)
		}
	} else {
		// The marked lanes' tags, which are whole, against those received
		// (laneReceived's): every byte compared, whole registers at once,
		// into a mask of the lanes that match (the outcome is no secret,
		// the bytes are), and from it each message's OK and, in lMin, the
		// marked lanes whose tags differ. The run kernels set every lane's
		// OK, false where unmarked (the caller's to finish), without a
		// branch; the lane kernels skip unmarked lanes, among them the idle
		// ones, whose indexes are other messages'.
		for r := 0; r < 4; r++ {
			VPXORQ(tag(r), lRecv(r), lRecv(r))
			VPTESTNMQ(lRecv(r), lRecv(r), []Op{K1, K2, K3, K4}[r])
		}
		// Bits 2i and 2i+1 of eq: the qwords of lane i that match; then
		// bit 2i: lane i is marked and matches.
		eq, t := lMax, lT
		KUNPCKBW(K1, K2, K1)
		KUNPCKBW(K3, K4, K3)
		KUNPCKWD(K1, K3, K1)
		KMOVD(K1, eq.As32())
		MOVL(eq.As32(), t.As32())
		SHRL(U8(1), t.As32())
		ANDL(t.As32(), eq.As32())
		MOVL(laneTags, lU.As32())
		MOVL(U32(0x55555555), t.As32())
		PDEPL(t.As32(), lU.As32(), lMin.As32())
		ANDL(lMin.As32(), eq.As32())
		PEXTL(t.As32(), eq.As32(), lMin.As32())
		ANDNL(lU.As32(), lMin.As32(), lMin.As32())
		if !run {
			Load(Param("msgs"), RBX)
			Load(Param("idx"), RDX)
		}
		oks, oksDone := "lanes_oks_"+name, "lanes_oks_done_"+name
		if run {
			// Where every lane is marked and matches (a batch with nothing
			// left to finish), 16 stores, without the bit tests and SETs
			// whose uops take the AES rounds' port (3% of a group of 64
			// bytes, measured).
			MOVL(eq.As32(), t.As32())
			ANDL(U32(0x55555555), t.As32())
			CMPL(t.As32(), U32(0x55555555))
			JNE(LabelRef(oks))
			for i := 15; i >= 0; i-- {
				MOVB(U8(1), Mem{Base: lp, Disp: msgSize*i + msgOK})
			}
			JMP(LabelRef(oksDone))
			Label(oks)
		}
		for i := 15; i >= 0; i-- {
			skip := "lanes_tag" + strconv.Itoa(i) + "_" + name
			ok := Mem{Base: lp, Disp: msgSize*i + msgOK}
			if !run {
				BTL(U8(i), lU.As32())
				JCC(LabelRef(skip))
				IMUL3Q(U8(msgSize), Mem{Base: RDX, Disp: 8 * i}, RAX)
				ok = Mem{Base: RAX, Index: RBX, Scale: 1, Disp: msgOK}
			}
			BTL(U8(2*i), eq.As32())
			SETCS(ok)
			if !run {
				Label(skip)
			}
		}
		if run {
			Label(oksDone)
		}
		MOVL(lMin.As32(), Mem{Base: lJ16, Disp: outFail})
	}
	MOVL(lU.As32(), Mem{Base: lJ16, Disp: outDone})
	if run {
		// The next group, unless this one is the last or the caller's to
		// finish.
		stop := "lanes_stop_" + name
		INCL(Mem{Base: lo, Disp: lnRuns})
		MOVL(Mem{Base: lo, Disp: lnRuns}, lT.As32())
		CMPL(laneTags, U32(0xffff))
		JNE(LabelRef(stop))
		if o == dec {
			TESTL(lMin.As32(), lMin.As32())
			JNZ(LabelRef(stop))
		}
		Load(Param("runs"), lU)
		CMPQ(lT, lU)
		JE(LabelRef(stop))
		ADDQ(U32(16*msgSize), lp)
		// Its marks and lengths: its Ktops are in the states.
		laneMarks()
		runLengths()
		laneMasks()
		JMP(LabelRef("lanes_group_" + name))
		Label(stop)
		Store(lT, ReturnIndex(0))
	}
	VZEROUPPER()
	RET()
}

// likeParts runs the final partial blocks of a group whose lanes all have
// one length, so one r > 0: each lane's masks are lane 0's, made once from
// r (K1: the r bytes of each lane, K2: byte r; the padding's 0x80s in Z15),
// where lanes of their own lengths take 9 mask ops a register and the
// lengths' spread into every byte (6-8% of a group of 44 bytes, measured).
func likeParts(o op) {
	rb, ones, t := lJ, lJ16, lT
	MOVL(laneLen(0), rb.As32())
	ANDL(U8(15), rb.As32())
	MOVQ(U64(0x0001000100010001), ones)
	SHLXQ(rb, ones, t)
	KMOVQ(t, K2)
	SUBQ(ones, t)
	KMOVQ(t, K1)
	VMOVDQU8_Z(b80, K2, Z15)
	for r := 0; r < 4; r++ {
		VPXORQ(Z12, lOff(r), lOff(r))
		VPXORQ(lKey(0), lOff(r), lX(r))
	}
	laneRounds(false)
	for r := 0; r < 4; r++ {
		partLanes(r, X16, func(int) Op { return K1 })
		if o == dec {
			VMOVDQU8_Z(lX(r), K1, Z14)
		}
		VPTERNLOGQ(U8(0x96), Z14, Z15, lSum(r))
	}
}

// partLanes XORs register r's partial blocks into their lanes of the state,
// loaded into Z14 (zeros past each lane's bytes), and stores them, lane k
// under the mask in the low 16 bits of mask(k) (lane 0's under K1), by way
// of tmp.
func partLanes(r int, tmp VecPhysical, mask func(k int) Op) {
	for _, load := range []bool{true, false} {
		field := lnDst
		if load {
			field = lnSrc
		}
		for k := 0; k < 4; k++ {
			MOVQ(laneField(field, 4*r+k), lT)
			MOVL(laneLen(4*r+k), lU.As32())
			ANDL(U32(0xff0), lU.As32())
			m := Mem{Base: lT, Index: lU, Scale: 1}
			switch {
			case load && k == 0:
				VMOVDQU8_Z(m, K1, X14)
			case load:
				VMOVDQU8_Z(m, mask(k), tmp)
				VINSERTI32X4(U8(k), tmp, Z14, Z14)
			case k == 0:
				VMOVDQU8(lX(r).AsX(), K1, m)
			default:
				k3 := mask(k)
				VEXTRACTI32X4(U8(k), lX(r), tmp)
				VMOVDQU8(tmp, k3, m)
			}
		}
		if load {
			VPXORQ(Z14, lX(r), lX(r))
		}
	}
}

// laneNonces loads the nonce blocks of the group whose lanes' pointers
// are at p (the table or, in a run, the messages) into the offsets'
// registers: bits, with the nonce's bytes loaded under a mask (K1, in
// every lane) at the block's end; then Ktop's input into ktop.
func laneNonces(p GPPhysical, ktop func(int) VecPhysical) {
	Load(Param("nonceLen"), lU)
	MOVL(U32(16), ECX)
	SUBL(lU.As32(), ECX)
	MOVL(U32(0xffff), lT.As32())
	SHLL(CL, lT.As32())
	ANDL(U32(0xffff), lT.As32())
	MOVQ(U64(0x0001000100010001), lJ)
	IMULQ(lJ, lT)
	KMOVQ(lT, K1)
	// K4+k: the nonce's bytes in lane k, until the blocks' masks.
	for k := 0; k < 4; k++ {
		KANDQ(K1, []Op{K4, K5, K6, K7}[k], []Op{K4, K5, K6, K7}[k])
	}
	Load(Param("bits"), lT)
	VBROADCASTI32X4(Mem{Base: lT}, Z12)
	for r := 0; r < 4; r++ {
		VMOVDQA64(Z12, lOff(r))
		for k := 0; k < 4; k++ {
			m := laneField(lnNonce, 4*r+k)
			m.Base = p
			MOVQ(m, lT)
			VMOVDQU8(Mem{Base: lT, Index: lU, Scale: 1, Disp: -16 - 16*k}, []Op{K4, K5, K6, K7}[k], lOff(r))
		}
		VMOVDQA64(lOff(r), ktop(r))
		// (X & ktopMask) ^ K0
		VPTERNLOGQ(U8(0x6c), ktopMask4, lKey(0), ktop(r))
	}
}

// laneKtops enciphers the Ktops' inputs, which laneNonces left in the
// states, beside the rounds of with (a run kernel's tags, or none). Where
// every lane's input equals lane 0's (nonces that differ at most in their 6
// bottom bits: one nonce for all, or counters within an aligned window of
// 64, as protocols give), one register's rounds serve all 16 lanes (the
// first state's, with lnOne set for laneOffsets): 10 to 14 AES rounds a
// group where 40 to 56 were. (The branch is on nonces, which are public.)
// A run kernel keeps the first register's input and Ktops in its frame
// (lnKin, lnKtop: a pair that always agrees, written by every group that
// enciphers), and a next group whose shared input equals them (counters
// in one window of 64, as protocols give, span 4 groups) takes those Ktops
// without rounds: its previous group's tags then run alone.
func laneKtops(with ...VecPhysical) {
	laneLabels++
	split, done := "lanes_ktop_split_"+itoa(laneLabels), "lanes_ktop_done_"+itoa(laneLabels)
	miss := "lanes_ktop_miss_" + itoa(laneLabels)
	kin, ktop, one := Mem{Base: lo, Disp: lnKin}, Mem{Base: lo, Disp: lnKtop}, Mem{Base: lo, Disp: lnOne}
	// K2: the qwords equal to lane 0's, across the four registers.
	VSHUFI64X2(U8(0), lX(0), lX(0), Z12)
	VPCMPEQQ(lX(0), Z12, K2)
	for r := 1; r < 4; r++ {
		VPCMPEQQ(lX(r), Z12, K2, K2)
	}
	KORTESTB(K2, K2)
	JCC(LabelRef(split))
	MOVB(U8(1), one)
	// (A run's first group, whose frame holds no pair yet, has no with.)
	if len(with) > 0 {
		VPCMPEQQ(kin, lX(0), K3)
		KORTESTB(K3, K3)
		JCC(LabelRef(miss))
		laneRoundsOf(false, with)
		VMOVDQA64(ktop, lX(0))
		JMP(LabelRef(done))
		Label(miss)
	}
	encipher(kin, ktop, append(with[:len(with):len(with)], lX(0)))
	JMP(LabelRef(done))
	Label(split)
	MOVB(U8(0), one)
	encipher(kin, ktop, append(with, lX(0), lX(1), lX(2), lX(3)))
	Label(done)
}

// encipher runs the AES rounds of xs, the first state's Ktop input among
// them, which a run kernel keeps at kin with its Ktops at ktop.
func encipher(kin, ktop Mem, xs []VecPhysical) {
	if laneRun {
		VMOVDQA64(lX(0), kin)
	}
	laneRoundsOf(false, xs)
	if laneRun {
		VMOVDQA64(lX(0), ktop)
	}
}

// laneOffsets computes Offset_0 per lane, as message.go does for one (the
// shift c, the nonce's 6 bottom bits, now varies by lane), from the Ktops
// in the states and the nonce blocks in the offsets' registers: Stretch =
// Ktop || (Ktop[1..64] ^ Ktop[9..72]) as big-endian qwords s0, s1, s2,
// and Offset_0's byte-reversed qwords [s1, s0]<<c | [s2, s1]>>(64-c), by
// VBMI2's funnel shifts (whose counts are taken mod 64); one Stretch for
// all where the lanes share Ktop (lnOne). It zeroes the checksums but a run
// kernel's last, which holds the lengths.
func laneOffsets(run bool) {
	laneLabels++
	split, done := "lanes_offsets_split_"+itoa(laneLabels), "lanes_offsets_done_"+itoa(laneLabels)
	MOVL(U32(0x55), lT.As32())
	KMOVW(lT.As32(), K2)
	CMPB(Mem{Base: lo, Disp: lnOne}, U8(0))
	JE(LabelRef(split))
	// One Ktop in the first state: one Stretch for all.
	stretch(lX(0))
	for r := 0; r < 4; r++ {
		VPSHUFB(bottom4, lOff(r), Z15)
		VMOVDQA64(Z12, Z14)
		VPSHLDVQ(Z15, Z13, Z14)
		VPSHUFB(rev128x4, Z14, lOff(r))
		if !run || r < 3 {
			VPXORQ(lSum(r), lSum(r), lSum(r))
		}
	}
	JMP(LabelRef(done))
	Label(split)
	for r := 0; r < 4; r++ {
		stretch(lX(r))
		VPSHUFB(bottom4, lOff(r), Z15)
		VPSHLDVQ(Z15, Z13, Z12)
		VPSHUFB(rev128x4, Z12, lOff(r))
		if !run || r < 3 {
			VPXORQ(lSum(r), lSum(r), lSum(r))
		}
	}
	Label(done)
}

// stretch leaves the Stretch of the Ktops in x as big-endian qwords, Z12:
// [s1, s0] (qword 0 first), Z13: [s2, s1], s2 = s0 ^ (s0<<8 | s1>>56) (K2
// the even qwords, Z14 a temporary).
func stretch(x VecPhysical) {
	VPSHUFB(rev64x4, x, Z13)
	VPSHUFD(U8(0x4e), Z13, Z12)
	VPSHLDQ(U8(8), Z12, Z13, Z14)
	VPXORQ(Z14, Z13, K2, Z13)
}

// lRecv(r) holds the received tags of register r's lanes (opening).
func lRecv(r int) VecPhysical { return []VecPhysical{Z13, Z14, Z15, Z16}[r] }

// laneReceived loads the tags received of the marked lanes, at Src+Len,
// into lRecv (unmarked lanes' bytes are left as they were, or zero), while
// the AES rounds of the tags leave the load ports idle. Where every lane is
// marked, each tag is whole: a 16-byte load, put in its lane by VINSERTI32X4
// (a byte-masked load of the 64 bytes at Src+Len-16k, which spans others'
// places, such as the output just written, waits on those stores: 2-3% of
// a group of 44 or 64 bytes, measured). Otherwise each lane's bytes come
// by such a masked load (K4+k: lane k of a register, ANDed with the marked
// lanes' bytes, whose tags may be shorter or their messages idle lanes'),
// which suppresses faults on the rest.
func laneReceived() {
	laneLabels++
	some, done := "lanes_recv_some_"+itoa(laneLabels), "lanes_recv_done_"+itoa(laneLabels)
	marks, spread := lU, lMax
	load := func(r, k int, mask Op) {
		MOVQ(laneField(lnSrc, 4*r+k), lT)
		MOVL(laneLen(4*r+k), lJ.As32())
		m := Mem{Base: lT, Index: lJ, Scale: 1, Disp: -16 * k}
		if k == 0 {
			VMOVDQU8_Z(m, mask, lRecv(r))
		} else {
			VMOVDQU8(m, mask, lRecv(r))
		}
	}
	MOVL(laneTags, marks.As32())
	CMPL(marks.As32(), U32(0xffff))
	JNE(LabelRef(some))
	for r := 0; r < 4; r++ {
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnSrc, 4*r+k), lT)
			MOVL(laneLen(4*r+k), lJ.As32())
			m := Mem{Base: lT, Index: lJ, Scale: 1}
			if k == 0 {
				// (EVEX, which reaches X16.)
				VMOVDQU64(m, lRecv(r).AsX())
			} else {
				VINSERTI32X4(U8(k), m, lRecv(r), lRecv(r))
			}
		}
	}
	JMP(LabelRef(done))
	Label(some)
	MOVQ(U64(0x0001000100010001), spread)
	for r := 0; r < 4; r++ {
		// K1: the bytes of register r's marked lanes.
		MOVL(marks.As32(), lT.As32())
		if r > 0 {
			SHRL(U8(4*r), lT.As32())
		}
		PDEPQ(spread, lT, lT)
		IMUL3Q(U32(0xffff), lT, lT)
		KMOVQ(lT, K1)
		for k := 0; k < 4; k++ {
			KANDQ(K1, []Op{K4, K5, K6, K7}[k], K3)
			load(r, k, K3)
		}
	}
	Label(done)
}

// laneMarks marks the lanes of a run kernel's group (in the table) as
// laneTable does.
func laneMarks() {
	plain, t := lT, lU
	XORL(plain.As32(), plain.As32())
	for k := 15; k >= 0; k-- {
		CMPQ(Mem{Base: lp, Disp: msgSize*k + msgADLen}, U8(1))
		ADCL(plain.As32(), plain.As32())
	}
	Load(Param("mark"), t)
	ANDL(plain.As32(), t.As32())
	MOVL(t.As32(), laneTags)
}

// runLengths leaves in the last checksum's register the text lengths of a
// run kernel's group as dwords, gathered from the messages (In's less sub;
// one gather of the lengths' low dwords, which hold them whole, where two
// of the qwords took 2% more of a group of 64 bytes) before the steps that
// cover the gather's wait (the first group's nonces and Ktops, the others'
// offsets), and stores them in the table for the steps that take them one
// by one.
func runLengths() {
	KXNORW(K1, K1, K1)
	VMOVDQU64(lenIdx, Z15)
	VPGATHERDD(Mem{Base: lp, Index: Z15, Scale: 1}, K1, Z12)
	Load(Param("sub"), lT)
	VPBROADCASTD(lT.As32(), Z13)
	VPSUBD(Z13, Z12, lSum(3))
	VMOVDQU64(lSum(3), laneLen(0))
}

// laneTable fills the lanes' table (at lp, in the frame) from the messages
// msgs[idx[k]]. A lane of k >= n, idle, then takes lane 0's pointers and
// whole blocks: it reads the same input and writes the same output, byte
// for byte, in the same steps (each step loads every lane's block before it
// stores any), so that it neither lowers the fewest blocks of a lane, which
// gates the pairs of blocks, nor raises the most; its tag goes unused. Lane
// k is marked (its tag finished by the kernel) where bit k of mark is set
// (the caller's: 16-byte tags, lanes below n) and its message has no
// associated data.
func laneTable() {
	base, idx, n, sub := lT, lU, lJ, lJ16
	m, t, plain := RAX, RDX, R10
	Load(Param("msgs"), base)
	Load(Param("idx"), idx)
	Load(Param("sub"), sub)
	LEAQ(Mem{Base: lo, Disp: lnTable}, lp)
	XORL(plain.As32(), plain.As32())
	// From the last lane down, which shifts each lane's bit of plain into
	// place.
	for k := 15; k >= 0; k-- {
		IMUL3Q(U8(msgSize), Mem{Base: idx, Disp: 8 * k}, m)
		ADDQ(base, m)
		for _, f := range [][2]int{{msgIn, lnSrc}, {msgOut, lnDst}, {msgNonce, lnNonce}} {
			MOVQ(Mem{Base: m, Disp: f[0]}, t)
			MOVQ(t, Mem{Base: lp, Disp: f[1] + 8*k})
		}
		MOVQ(Mem{Base: m, Disp: msgInLen}, t)
		SUBQ(sub, t)
		MOVL(t.As32(), Mem{Base: lp, Disp: lnLen + 4*k})
		// Bit k of plain: lane k has no associated data (the carry of
		// its length less 1).
		CMPQ(Mem{Base: m, Disp: msgADLen}, U8(1))
		ADCL(plain.As32(), plain.As32())
	}
	Load(Param("mark"), t)
	ANDL(plain.As32(), t.As32())
	MOVL(t.As32(), Mem{Base: lp, Disp: lnTags})
	idleLanes(n)
}

// idleLanes gives the lanes from n (a register) to 15 lane 0's pointers
// and whole blocks in the lanes' table at lp: a loop that full groups skip.
func idleLanes(n GPPhysical) {
	laneLabels++
	loop, done := "lanes_idle_"+itoa(laneLabels), "lanes_idle_done_"+itoa(laneLabels)
	src, dst, nonce, whole := RAX, RDX, R10, RBX
	Load(Param("n"), n)
	MOVQ(Mem{Base: lp, Disp: lnSrc}, src)
	MOVQ(Mem{Base: lp, Disp: lnDst}, dst)
	MOVQ(Mem{Base: lp, Disp: lnNonce}, nonce)
	MOVL(Mem{Base: lp, Disp: lnLen}, whole.As32())
	ANDL(I32(-16), whole.As32())
	Label(loop)
	CMPQ(n, U8(16))
	JAE(LabelRef(done))
	MOVQ(src, Mem{Base: lp, Index: n, Scale: 8, Disp: lnSrc})
	MOVQ(dst, Mem{Base: lp, Index: n, Scale: 8, Disp: lnDst})
	MOVQ(nonce, Mem{Base: lp, Index: n, Scale: 8, Disp: lnNonce})
	MOVL(whole.As32(), Mem{Base: lp, Index: n, Scale: 4, Disp: lnLen})
	INCQ(n)
	JMP(LabelRef(loop))
	Label(done)
}

// laneReduce leaves in r what op (VPMINUD, VPMAXUD) makes of the 16
// dwords of z, which it keeps (Z14 and Z15 the temporaries).
func laneReduce(op func(...Op), z VecPhysical, r GPPhysical) {
	VEXTRACTI64X4(U8(1), z, Y14)
	op(Y14, z.AsY(), Y15)
	VEXTRACTI128(U8(1), Y15, X14)
	op(X14, X15, X15)
	VPSHUFD(U8(0x4e), X15, X14)
	op(X14, X15, X15)
	VPSHUFD(U8(0xb1), X15, X14)
	op(X14, X15, X15)
	VMOVD(X15, r.As32())
}

// loadKeys broadcasts the 15 round keys at p into their registers (past
// the last round, whatever follows it in the schedule). The open kernels
// reload them twice a group (the decryption keys for the blocks, then the
// encryption keys), which 15 registers cannot hold both of: measured free,
// as the seal kernel with the same reloads runs as fast as without.
func loadKeys(p GPPhysical) {
	for i := 0; i < 15; i++ {
		VBROADCASTI32X4(Mem{Base: p, Disp: 16 * i}, lKey(i))
	}
}

var laneLabels int

// laneRounds applies rounds 1 to nr to the four states, which hold the
// block XOR round key 0.
func laneRounds(decrypt bool) {
	laneRoundsOf(decrypt, []VecPhysical{Z0, Z1, Z2, Z3})
}

// laneRoundsOf applies rounds 1 to nr to the states xs.
func laneRoundsOf(decrypt bool, xs []VecPhysical) {
	laneLabels++
	round, final := VAESENC, VAESENCLAST
	if decrypt {
		round, final = VAESDEC, VAESDECLAST
	}
	all := func(f func(Op, Op, Op), i int) {
		for _, x := range xs {
			f(lKey(i), x, x)
		}
	}
	l10 := "lanes_r10_" + itoa(laneLabels)
	l12 := "lanes_r12_" + itoa(laneLabels)
	done := "lanes_rdone_" + itoa(laneLabels)
	for i := 1; i < 10; i++ {
		all(round, i)
	}
	CMPQ(nr, U8(10))
	JE(LabelRef(l10))
	all(round, 10)
	all(round, 11)
	CMPQ(nr, U8(12))
	JE(LabelRef(l12))
	all(round, 12)
	all(round, 13)
	all(final, 14)
	JMP(LabelRef(done))
	Label(l12)
	all(final, 12)
	JMP(LabelRef(done))
	Label(l10)
	all(final, 10)
	Label(done)
}

func itoa(i int) string {
	const d = "0123456789"
	if i < 10 {
		return d[i : i+1]
	}
	return itoa(i/10) + d[i%10:i%10+1]
}

// laneMasks sets K4+k to select the bytes of lane k.
func laneMasks() {
	for k := 0; k < 4; k++ {
		MOVQ(U64(uint64(0xffff)<<(16*k)), lT)
		KMOVQ(lT, []Op{K4, K5, K6, K7}[k])
	}
}

// laneBlocks runs step j of the loop over the blocks: where fast, every
// lane has block j, and its loads and stores need no masks.
func laneBlocks(o op, fast bool) {
	for r := 0; r < 4; r++ {
		if !fast {
			// K2: the dwords of lanes with n >= j. The lanes' blocks move
			// by 16-byte loads and stores, masked by the lane's 4 bits of
			// K2.
			VPCMPUD(U8(2), Mem{Base: lo, Disp: lnN + 64*r}, Z13, K2)
		}
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnSrc, 4*r+k), lT)
			m := Mem{Base: lT, Index: lJ16, Scale: 1}
			switch {
			case fast && k == 0:
				VMOVDQU(m, lX(r).AsX())
			case fast:
				VBROADCASTI32X4(m, []Op{K5, K6, K7}[k-1], lX(r))
			case k == 0:
				VMOVDQU32_Z(m, K2, lX(r).AsX())
			default:
				KSHIFTRW(U8(4*k), K2, K3)
				VMOVDQU32_Z(m, K3, X14)
				VINSERTI32X4(U8(k), X14, lX(r), lX(r))
			}
		}
		if o == enc {
			VPXORQ(lX(r), lSum(r), lSum(r))
		}
		if fast {
			VPXORQ(Z12, lOff(r), lOff(r))
		} else {
			VPXORD(Z12, lOff(r), K2, lOff(r))
		}
		VPTERNLOGQ(U8(0x96), lKey(0), lOff(r), lX(r))
	}
	laneRounds(o == dec)
	for r := 0; r < 4; r++ {
		if !fast {
			VPCMPUD(U8(2), Mem{Base: lo, Disp: lnN + 64*r}, Z13, K2)
		}
		VPXORQ(lOff(r), lX(r), lX(r))
		switch {
		case o == dec && fast:
			VPXORQ(lX(r), lSum(r), lSum(r))
		case o == dec:
			VPXORD(lX(r), lSum(r), K2, lSum(r))
		}
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnDst, 4*r+k), lT)
			m := Mem{Base: lT, Index: lJ16, Scale: 1}
			switch {
			case fast && k == 0:
				VMOVDQU(lX(r).AsX(), m)
			case fast:
				VEXTRACTI32X4(U8(k), lX(r), m)
			case k == 0:
				VMOVDQU32(lX(r).AsX(), K2, m)
			default:
				// (VEXTRACTI32X4 would not suppress a masked store's
				// faults.)
				KSHIFTRW(U8(4*k), K2, K3)
				VEXTRACTI32X4(U8(k), lX(r), X14)
				VMOVDQU32(X14, K3, m)
			}
		}
	}
}

// lanePairs runs blocks j and j+1 of every lane, in the states and Z12 to
// Z15 (lY): Offset_j = Offset_{j-1} ^ L_ntz(j) in the offsets, Offset_{j+1}
// = Offset_j ^ L_ntz(j+1), whose L stays in Z16. The offsets move on to
// Offset_{j+1} before the rounds, and block j's takes Offset_j back as
// Offset_{j+1} ^ L_ntz(j+1) in one VPTERNLOG: one vector op a register
// less than whitening both blocks from Offset_j.
func lanePairs(o op) {
	lY := func(r int) VecPhysical { return []VecPhysical{Z12, Z13, Z14, Z15}[r] }
	BSFQ(lJ, lT)
	SHLQ(U8(4), lT)
	VBROADCASTI32X4(Mem{Base: ltab, Index: lT, Scale: 1}, Z16)
	for r := 0; r < 4; r++ {
		VPXORQ(Z16, lOff(r), lOff(r))
	}
	// Each lane's blocks j and j+1 by one 32-byte load: lanes 0 and 1 in
	// the state ([X0, Y0, X1, Y1]), 2 and 3 in lY, dealt out by two
	// shuffles (the first by way of Z16): 4 vector ops a register where
	// loads into each 16-byte lane took 6.
	for r := 0; r < 4; r++ {
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnSrc, 4*r+k), lT)
			m := Mem{Base: lT, Index: lJ16, Scale: 1}
			if x := []VecPhysical{lX(r), lY(r)}[k/2]; k%2 == 0 {
				VMOVDQU(m, x.AsY())
			} else {
				VINSERTI64X4(U8(1), m, x, x)
			}
		}
		VSHUFI64X2(U8(0x88), lY(r), lX(r), Z16)
		VSHUFI64X2(U8(0xdd), lY(r), lX(r), lY(r))
		VMOVDQA64(Z16, lX(r))
		if o == enc {
			VPTERNLOGQ(U8(0x96), lX(r), lY(r), lSum(r))
		}
	}
	LEAQ(Mem{Base: lJ, Disp: 1}, lT)
	BSFQ(lT, lT)
	SHLQ(U8(4), lT)
	VBROADCASTI32X4(Mem{Base: ltab, Index: lT, Scale: 1}, Z16)
	for r := 0; r < 4; r++ {
		VPTERNLOGQ(U8(0x96), lKey(0), lOff(r), lX(r))
		VPXORQ(Z16, lOff(r), lOff(r))
		VPTERNLOGQ(U8(0x96), lKey(0), lOff(r), lY(r))
	}
	xs := []VecPhysical{Z0, Z1, Z2, Z3, Z12, Z13, Z14, Z15}
	laneRoundsOf(o == dec, xs)
	for r := 0; r < 4; r++ {
		VPTERNLOGQ(U8(0x96), Z16, lOff(r), lX(r))
		VPXORQ(lOff(r), lY(r), lY(r))
		if o == dec {
			VPTERNLOGQ(U8(0x96), lX(r), lY(r), lSum(r))
		}
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnDst, 4*r+k), lT)
			for h, x := range []VecPhysical{lX(r), lY(r)} {
				m := Mem{Base: lT, Index: lJ16, Scale: 1, Disp: 16 * h}
				if k == 0 {
					VMOVDQU(x.AsX(), m)
				} else {
					VEXTRACTI32X4(U8(k), x, m)
				}
			}
		}
	}
}
