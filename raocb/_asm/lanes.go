package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The lane kernels, raocbSealLanes and raocbOpenLanes (zmm), seal or open
// 16 messages side by side, one per 128-bit lane of four zmm registers
// (lane k of register r holds message 4r+k), each shorter than 4096 bytes,
// as ocb's lane kernels do (ocb/_asm/batch.go): the 16 bases B = E(Nonce)
// in one pass of the AES pipeline, then block i of every message that has
// one (i = 0, 1, ...; each lane's 16-byte loads and stores from its own
// pointer, masked where some lane has no block i), then the pads of the
// final partial blocks (byte masks), then the 16 tags. The masks Δ(B, i) =
// AESENC(AESENC(B ⊞ i, R1), R2) of block i differ by lane only in B; the
// pad's index f+1 and the tag's m+3 are the lane's own. While every lane
// has blocks i and i+1, both run in one pass: eight registers in flight.
// The Go side (lanes_amd64.go) adds HASH(A) to the tags; the marked lanes
// (16-byte tags, no associated data) have their tags stored at the end of
// their output by the seal kernel, compared with the received ones by the
// open kernel.
//
// The kernels take their messages from the batch (batch.Message, whose
// layout raocb's tests pin: msg* below) by 16 indexes, and keep in their
// own frame, 64-byte aligned (ln* below): per register, each lane's
// partial bytes r in every byte of the lane, its whole blocks f and m (its
// blocks, the partial one counted) in every dword, the masks of the blocks
// in flight, and R1 and R2 broadcast; then the lanes' table they fill
// themselves: src, dst and nonce pointers (16 each), the text lengths (16
// uint32; past the group's n messages, idle lanes, lane 0's whole blocks:
// see laneTable) and the marked lanes (a bit each, uint32); then a count of
// the run kernels'. What the caller reads goes to its laneOut (out* below,
// which raocb's tests pin): the tags, the marked lanes and those whose tags
// differ (a bit each, uint32, when opening). (In the caller's frame, the
// whole would be zeroed each call, as ocb's measured: about 5% of a batch
// of 64 messages of 64 bytes.) The run kernels (see lanes) take full
// groups of messages in a row by place, without indexes or the table's
// pointers (their lengths, gathered, go to the table), and run the next
// group in the same call: a batch of like messages in one call, as ocb's
// run kernels do.
const (
	lnSrc   = 0
	lnDst   = 128
	lnNonce = 256
	lnLen   = 384
	lnTags  = 448
	lnR     = 0
	lnF     = 256
	lnM     = 512
	lnMask  = 768
	lnR1    = 1280
	lnR2    = 1344
	lnTable = 1408
	lnRuns  = lnTable + lnTags + 4
	lnSize  = lnRuns + 4

	outTag  = 0
	outDone = 256
	outFail = 260
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
	lo    = R13 // the frame's aligned area
	lMax  = R8  // the most whole blocks of a message
	lJ    = R9  // block index i, plus 1
	lJ16  = R11 // 16i, the block's position
	lT    = R12
	lU    = R14
	lMin  = RCX // the fewest whole blocks of a message
)

// lX, lB and lSum are the states, bases (B as little-endian dwords, for ⊞)
// and checksums of the four registers; lKey(i) round key i; Z12 to Z16
// temporaries (and the states of the second block of a pair).
func lX(r int) VecPhysical   { return []VecPhysical{Z0, Z1, Z2, Z3}[r] }
func lB(r int) VecPhysical   { return []VecPhysical{Z4, Z5, Z6, Z7}[r] }
func lSum(r int) VecPhysical { return []VecPhysical{Z8, Z9, Z10, Z11}[r] }
func lKey(i int) VecPhysical {
	return []VecPhysical{Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}[i]
}

// Constants of the lane kernels, 64 bytes each (a 16-byte pattern in every
// lane, or per register).
var iota4, low4, b80, dw1, dw3, dw15, lenIdx, lenPerm Mem

func laneTables() {
	rep := func(name string, lo, hi uint64) Mem {
		m := GLOBL(name, RODATA|NOPTR)
		for i := 0; i < 4; i++ {
			DATA(16*i, U64(lo))
			DATA(16*i+8, U64(hi))
		}
		return m
	}
	iota4 = rep("iota4", 0x0706050403020100, 0x0f0e0d0c0b0a0908)
	low4 = rep("low4", 0x0000000f0000000f, 0x0000000f0000000f)
	b80 = rep("b80", 0x8080808080808080, 0x8080808080808080)
	dw1 = rep("dw1", 0x0000000100000001, 0x0000000100000001)
	dw3 = rep("dw3", 0x0000000300000003, 0x0000000300000003)
	dw15 = rep("dw15", 0x0000000f0000000f, 0x0000000f0000000f)
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
	name, keys := "raocbSeal"+kind+"VAES512", "rk *[240]byte"
	if o == dec {
		name, keys = "raocbOpen"+kind+"VAES512", "rk, ek *[240]byte"
	}
	sig := "func(nr int, " + keys + ", r1, r2 *[16]byte, bits *[16]byte, nonceLen int, msgs *byte, " + group + ", sub int, mark uint32, out *[" + fmt.Sprint(outSize) + "]byte)"
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
	for i, p := range []string{"r1", "r2"} {
		Load(Param(p), lT)
		VBROADCASTI32X4(Mem{Base: lT}, Z12)
		VMOVDQU64(Z12, Mem{Base: lo, Disp: lnR1 + 64*i})
	}
	loadKeys(lEK)

	// B = E(Nonce): a run kernel's first group's here, the others' beside
	// their previous group's tags (see the tags below).
	if run {
		laneMarks()
		runLengths(lp)
		VMOVDQU64(Z12, laneLen(0))
	}
	laneMasks()
	laneNonces(lp)
	laneRounds(false)
	if run {
		Label("lanes_group_" + name)
	}
	for r := 0; r < 4; r++ {
		VPSHUFB(bswap32, lX(r), lB(r))
	}

	// r of every lane in each byte of the lane, f and m in each dword (f's
	// in the checksums' registers too).
	VMOVDQU64(laneLen(0), Z14)
	VPXORQ(Z16, Z16, Z16)
	for r := 0; r < 4; r++ {
		VMOVDQU64(lenPerm.Offset(64*r), Z13)
		VPERMD(Z14, Z13, Z13)
		VPADDD(dw15, Z13, lX(r))
		VPSRLD(U8(4), lX(r), lX(r))
		VMOVDQU64(lX(r), Mem{Base: lo, Disp: lnM + 64*r})
		VPANDD(low4, Z13, lX(r))
		VPSHUFB(Z16, lX(r), lX(r))
		VMOVDQU64(lX(r), Mem{Base: lo, Disp: lnR + 64*r})
		VPSRLD(U8(4), Z13, lSum(r))
		VMOVDQU64(lSum(r), Mem{Base: lo, Disp: lnF + 64*r})
	}
	// The fewest whole blocks of a lane, blocks up to there need no masks,
	// and the most; in lU the lanes with r > 0. Lanes of one f (a batch of
	// like messages) need no reductions, whose shuffles take the vector
	// port the AES rounds leave: lane 0's f, broadcast, equals every
	// lane's.
	VPTESTMD(low4, Z14, K1)
	KMOVW(K1, lU.As32())
	reduced := "lanes_reduced_" + name
	VPSRLD(U8(4), Z14, Z13)
	VPBROADCASTD(X13, Z15)
	VPCMPEQD(Z15, Z13, K1)
	VMOVD(X13, lMin.As32())
	MOVL(lMin.As32(), lMax.As32())
	KORTESTW(K1, K1)
	JCS(LabelRef(reduced))
	laneReduce(VPMINUD, lMin)
	laneReduce(VPMAXUD, lMax)
	Label(reduced)
	for r := 0; r < 4; r++ {
		VPXORQ(lSum(r), lSum(r), lSum(r))
	}

	// Block i of every lane with f > i: Δ(B, i), the block enciphered
	// (deciphered) with it, checksummed before (after).
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
	// Pairs of blocks, i and i+1, while every lane has both: eight
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
	VPBROADCASTD(lJ.As32(), Z13)
	LEAQ(Mem{Base: lJ, Disp: -1}, lT)
	VPBROADCASTD(lT.As32(), Z16)
	for r := 0; r < 4; r++ {
		VPADDD(Z16, lB(r), lX(r))
	}
	laneMasksOf()
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

	// The final partial blocks, in lanes with r > 0: the text XORed with
	// Pad = E(Δ(B, f+1)), the checksum taking the plaintext padded.
	partsDone := "lanes_parts_done_" + name
	TESTL(lU.As32(), lU.As32())
	JZ(LabelRef(partsDone))
	for r := 0; r < 4; r++ {
		VPADDD(Mem{Base: lo, Disp: lnF + 64*r}, lB(r), lX(r))
		VPADDD(dw1, lX(r), lX(r))
	}
	laneMasksOf()
	for r := 0; r < 4; r++ {
		VPXORQ(lKey(0), lX(r), lX(r))
	}
	laneRounds(false)
	VMOVDQU64(iota4, Z16)
	for r := 0; r < 4; r++ {
		VMOVDQU64(Mem{Base: lo, Disp: lnR + 64*r}, Z13)
		// K1: the r bytes of each lane; K2: byte r, where r > 0.
		VPCMPUB(U8(1), Z13, Z16, K1)
		VPTESTMB(Z13, Z13, K2)
		VPCMPEQB(Z13, Z16, K2, K2)
		VPXORQ(Z14, Z14, Z14)
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnSrc, 4*r+k), lT)
			MOVL(laneLen(4*r+k), lU.As32())
			ANDL(U32(0xff0), lU.As32())
			KANDQ(K1, []Op{K4, K5, K6, K7}[k], K3)
			VMOVDQU8(Mem{Base: lT, Index: lU, Scale: 1, Disp: -16 * k}, K3, partReg(Z14, k))
		}
		VPXORQ(Z14, lX(r), lX(r))
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnDst, 4*r+k), lT)
			MOVL(laneLen(4*r+k), lU.As32())
			ANDL(U32(0xff0), lU.As32())
			KANDQ(K1, []Op{K4, K5, K6, K7}[k], K3)
			VMOVDQU8(partReg(lX(r), k), K3, Mem{Base: lT, Index: lU, Scale: 1, Disp: -16 * k})
		}
		if o == dec {
			VMOVDQU8_Z(lX(r), K1, Z14)
		}
		VMOVDQU8_Z(b80, K2, Z13)
		VPTERNLOGQ(U8(0x96), Z14, Z13, lSum(r))
	}
	Label(partsDone)

	// The tags, E(Σ ^ Δ(B, m+3)), HASH(A) left to the caller. A run
	// kernel's go through the AES rounds beside the next group's E(Nonce)
	// (the lanes' own, when this group is the run's last, which leaves the
	// rounds' registers as full at no risk of reading past the run): eight
	// registers in flight where four would wait on each other, as in ocb's
	// run kernels. Until the stop below, the next group's work is only in
	// registers. The tags take the checksums' registers, the nonces the
	// states'.
	tag := lX
	if run {
		tag = lSum
	}
	for r := 0; r < 4; r++ {
		VPADDD(Mem{Base: lo, Disp: lnM + 64*r}, lB(r), lX(r))
		VPADDD(dw3, lX(r), lX(r))
	}
	laneMasksOf()
	for r := 0; r < 4; r++ {
		if run {
			VPTERNLOGQ(U8(0x96), lKey(0), lX(r), tag(r))
		} else {
			VPTERNLOGQ(U8(0x96), lKey(0), lSum(r), tag(r))
		}
	}
	if run {
		next := lJ16
		LEAQ(Mem{Base: lp, Disp: 16 * msgSize}, next)
		MOVL(Mem{Base: lo, Disp: lnRuns}, lT.As32())
		INCL(lT.As32())
		Load(Param("runs"), lU)
		CMPQ(lT, lU)
		CMOVQEQ(lp, next)
		laneNonces(next)
		runLengths(next)
		laneRoundsOf(false, []VecPhysical{Z8, Z9, Z10, Z11, Z0, Z1, Z2, Z3})
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
			skip := fmt.Sprintf("lanes_tag%d_%s", i, name)
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
		// at Src+Len: every byte compared, the message's OK set, and the
		// bit of a lane whose differ set in lMin (the outcome is no
		// secret, the bytes are). From the last lane down, each lane's
		// carry (set where marked and equal) shifts into lMin; then the
		// marked lanes without it.
		MOVL(laneTags, lU.As32())
		XORL(lMin.As32(), lMin.As32())
		if !run {
			Load(Param("msgs"), RBX)
			Load(Param("idx"), RDX)
		}
		for i := 15; i >= 0; i-- {
			skip := fmt.Sprintf("lanes_tag%d_%s", i, name)
			BTL(U8(i), lU.As32())
			JCC(LabelRef(skip))
			MOVQ(laneField(lnSrc, i), lT)
			MOVL(laneLen(i), lJ.As32())
			x := tag(i / 4).AsX()
			if i%4 != 0 {
				VEXTRACTI32X4(U8(i%4), tag(i/4), X15)
				x = X15
			}
			VPCMPEQB(Mem{Base: lT, Index: lJ, Scale: 1}, x, K1)
			ok := Mem{Base: lp, Disp: msgSize*i + msgOK}
			if !run {
				IMUL3Q(U8(msgSize), Mem{Base: RDX, Disp: 8 * i}, RAX)
				ok = Mem{Base: RAX, Index: RBX, Scale: 1, Disp: msgOK}
			}
			KORTESTW(K1, K1) // CF: all 16 bytes equal
			SETCS(ok)
			Label(skip)
			ADCL(lMin.As32(), lMin.As32())
		}
		ANDNL(lU.As32(), lMin.As32(), lMin.As32())
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
		// Its marks and lengths: its E(Nonce) is in the states, its
		// lengths in Z12.
		laneMarks()
		VMOVDQU64(Z12, laneLen(0))
		laneMasks()
		JMP(LabelRef("lanes_group_" + name))
		Label(stop)
		Store(lT, ReturnIndex(0))
	}
	VZEROUPPER()
	RET()
}

// laneNonces loads the nonce blocks of the group whose lanes' pointers are
// at p (the table or, in a run, the messages) into the states, XORed with
// round key 0: bits, with the nonce's bytes loaded under a mask (K1, in
// every lane) at the block's end.
func laneNonces(p GPPhysical) {
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
	VBROADCASTI32X4(Mem{Base: lT}, Z13)
	for r := 0; r < 4; r++ {
		// The nonces alone, by loads as narrow as partReg's (lane 0's
		// zeroing the rest), then bits, whose bytes are the others.
		for k := 0; k < 4; k++ {
			m := laneField(lnNonce, 4*r+k)
			m.Base = p
			MOVQ(m, lT)
			m = Mem{Base: lT, Index: lU, Scale: 1, Disp: -16 - 16*k}
			if k == 0 {
				VMOVDQU8_Z(m, K4, lX(r).AsX())
			} else {
				VMOVDQU8(m, []Op{K4, K5, K6, K7}[k], partReg(lX(r), k))
			}
		}
		VPTERNLOGQ(U8(0x96), Z13, lKey(0), lX(r))
	}
}

// laneMasksOf turns the four states, B ⊞ i as little-endian dwords, into
// the masks Δ(B, i).
func laneMasksOf() {
	laneMasksIn([]VecPhysical{Z0, Z1, Z2, Z3})
}

// laneMasksIn turns the states xs, B ⊞ i as little-endian dwords, into the
// masks Δ(B, i).
func laneMasksIn(xs []VecPhysical) {
	for _, x := range xs {
		VPSHUFB(bswap32, x, x)
	}
	for _, k := range []int{lnR1, lnR2} {
		for _, x := range xs {
			VAESENC(Mem{Base: lo, Disp: k}, x, x)
		}
	}
}

// laneTable fills the lanes' table (at lp, in the frame) from the messages
// msgs[idx[k]]. A lane of k >= n, idle, then takes lane 0's pointers and
// whole blocks, as in ocb's kernels (ocb/_asm/batch.go): the same input and
// output, byte for byte, in the same steps, which keeps it out of the
// fewest and the most blocks of a lane; its tag goes unused. Lane k is
// marked (its tag finished by the kernel: stored when sealing, compared
// when opening) where bit k of mark is set (the caller's: 16-byte tags,
// lanes below n) and its message has no associated data.
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
	MOVL(t.As32(), laneTags)
	idleLanes(n)
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

// runLengths gathers the text lengths of the run kernel's group at p (In's
// less sub) into Z12 as dwords, for the table: the first group's before
// its nonces' steps, each next one's before the AES rounds of the group
// before it (its tags and the next nonces), which cover the gathers' wait
// (measured, groups of 16 messages of 0 to 64 bytes: 3-12% faster sealing,
// 1-9% opening, than at the group's start, where every step of the group
// waited on them). One gather takes the lengths' low dwords, which hold
// them whole, as ocb's kernels do (two of the qwords, narrowed, took 2%
// more of an ocb group of 64 bytes).
func runLengths(p GPPhysical) {
	KXNORW(K1, K1, K1)
	VMOVDQU64(lenIdx, Z15)
	VPGATHERDD(Mem{Base: p, Index: Z15, Scale: 1}, K1, Z12)
	Load(Param("sub"), lT)
	VPBROADCASTD(lT.As32(), Z13)
	VPSUBD(Z13, Z12, Z12)
}

// idleLanes gives the lanes from n (a register) to 15 lane 0's pointers
// and whole blocks in the lanes' table at lp: a loop that full groups skip.
func idleLanes(n GPPhysical) {
	src, dst, nonce, whole := RAX, RDX, R10, RBX
	Load(Param("n"), n)
	MOVQ(Mem{Base: lp, Disp: lnSrc}, src)
	MOVQ(Mem{Base: lp, Disp: lnDst}, dst)
	MOVQ(Mem{Base: lp, Disp: lnNonce}, nonce)
	MOVL(Mem{Base: lp, Disp: lnLen}, whole.As32())
	ANDL(I32(-16), whole.As32())
	laneLabels++
	loop, done := fmt.Sprintf("lanes_idle_%d", laneLabels), fmt.Sprintf("lanes_idle_done_%d", laneLabels)
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

// laneReduce leaves in r what op (VPMINUD, VPMAXUD) makes of the 16 lanes
// of the checksums' registers, each of which holds one value in every dword
// (Z13 to Z15 its own).
func laneReduce(op func(...Op), r GPPhysical) {
	z := Z13
	op(lSum(1), lSum(0), z)
	op(lSum(3), lSum(2), Z15)
	op(Z15, z, z)
	VEXTRACTI64X4(U8(1), z, Y14)
	op(Y14, z.AsY(), z.AsY())
	VEXTRACTI128(U8(1), z.AsY(), X14)
	op(X14, z.AsX(), z.AsX())
	VMOVD(z.AsX(), r.As32())
}

// loadKeys broadcasts the 15 round keys at p into their registers (past
// the last round, whatever follows it in the schedule).
func loadKeys(p GPPhysical) {
	for i := 0; i < 15; i++ {
		VBROADCASTI32X4(Mem{Base: p, Disp: 16 * i}, lKey(i))
	}
}

// partReg is the part of x up to lane k, which a byte-masked load or store
// of lane k's partial block takes: its span from 16k bytes before the
// block splits fewer cache lines the narrower it is (measured, 44-byte
// messages: lanes 0 and 1 by xmm and ymm 1-2% faster than all by zmm).
// A load so narrow zeroes the lanes above, which it must precede.
func partReg(x VecPhysical, k int) Op {
	switch k {
	case 0:
		return x.AsX()
	case 1:
		return x.AsY()
	}
	return x
}

// laneMasks sets K4+k to select the bytes of lane k.
func laneMasks() {
	for k := 0; k < 4; k++ {
		MOVQ(U64(uint64(0xffff)<<(16*k)), lT)
		KMOVQ(lT, []Op{K4, K5, K6, K7}[k])
	}
}

// laneBlocks runs step i of the loop over the blocks, the masks in the
// states: where fast, every lane has block i, and its loads and stores need
// no masks.
func laneBlocks(o op, fast bool) {
	for r := 0; r < 4; r++ {
		VMOVDQU64(lX(r), Mem{Base: lo, Disp: lnMask + 64*r})
		if !fast {
			// K2: the dwords of lanes with f > i. The lanes' blocks move
			// by 16-byte loads and stores, masked by the lane's 4 bits of
			// K2.
			VPCMPUD(U8(2), Mem{Base: lo, Disp: lnF + 64*r}, Z13, K2)
		}
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnSrc, 4*r+k), lT)
			m := Mem{Base: lT, Index: lJ16, Scale: 1}
			switch {
			case fast && k == 0:
				VMOVDQU(m, X14)
			case fast:
				VBROADCASTI32X4(m, []Op{K5, K6, K7}[k-1], Z14)
			case k == 0:
				VMOVDQU32_Z(m, K2, X14)
			default:
				KSHIFTRW(U8(4*k), K2, K3)
				VMOVDQU32_Z(m, K3, X16)
				VINSERTI32X4(U8(k), X16, Z14, Z14)
			}
		}
		if o == enc {
			VPXORQ(Z14, lSum(r), lSum(r))
		}
		VPTERNLOGQ(U8(0x96), lKey(0), Z14, lX(r))
	}
	laneRounds(o == dec)
	for r := 0; r < 4; r++ {
		if !fast {
			VPCMPUD(U8(2), Mem{Base: lo, Disp: lnF + 64*r}, Z13, K2)
		}
		VPXORQ(Mem{Base: lo, Disp: lnMask + 64*r}, lX(r), lX(r))
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
				VEXTRACTI32X4(U8(k), lX(r), X16)
				VMOVDQU32(X16, K3, m)
			}
		}
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
	l10 := fmt.Sprintf("lanes_r10_%d", laneLabels)
	l12 := fmt.Sprintf("lanes_r12_%d", laneLabels)
	done := fmt.Sprintf("lanes_rdone_%d", laneLabels)
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

// lanePairs runs blocks i and i+1 of every lane (lJ = i+1), in the states
// and Z12 to Z15 (lY), their masks kept in the frame while the blocks load
// into the registers that held them: each lane's pointer loaded once for
// both. Lanes 1 to 3 load by merging broadcasts and store by
// VEXTRACTI32X4: measured beside VAESENC zmm (Sapphire Rapids), an extract
// to memory is a plain store, without a shuffle on port 5, while a masked
// load, zeroing or merging, takes a vector ALU uop as the merge does, and
// a masked zmm store to a lane's block less 16k bytes, which would spare
// the extract, mostly splits cache lines, at about an AES round each.
func lanePairs(o op) {
	lY := func(r int) VecPhysical { return []VecPhysical{Z12, Z13, Z14, Z15}[r] }
	LEAQ(Mem{Base: lJ, Disp: -1}, lT)
	VPBROADCASTD(lT.As32(), Z16)
	for r := 0; r < 4; r++ {
		VPADDD(Z16, lB(r), lX(r))
		VPADDD(dw1, lX(r), lY(r))
	}
	xs := []VecPhysical{Z0, Z1, Z2, Z3, Z12, Z13, Z14, Z15}
	laneMasksIn(xs)
	for r := 0; r < 4; r++ {
		hs := []VecPhysical{lX(r), lY(r)}
		for h, x := range hs {
			VMOVDQU64(x, Mem{Base: lo, Disp: lnMask + 256*h + 64*r})
		}
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnSrc, 4*r+k), lT)
			for h, x := range hs {
				m := Mem{Base: lT, Index: lJ16, Scale: 1, Disp: 16 * h}
				if k == 0 {
					VMOVDQU(m, x.AsX())
				} else {
					VBROADCASTI32X4(m, []Op{K5, K6, K7}[k-1], x)
				}
			}
		}
		if o == enc {
			VPTERNLOGQ(U8(0x96), lX(r), lY(r), lSum(r))
		}
		for h, x := range hs {
			VPTERNLOGQ(U8(0x96), Mem{Base: lo, Disp: lnMask + 256*h + 64*r}, lKey(0), x)
		}
	}
	laneRoundsOf(o == dec, xs)
	for r := 0; r < 4; r++ {
		hs := []VecPhysical{lX(r), lY(r)}
		for h, x := range hs {
			VPXORQ(Mem{Base: lo, Disp: lnMask + 256*h + 64*r}, x, x)
		}
		if o == dec {
			VPTERNLOGQ(U8(0x96), lX(r), lY(r), lSum(r))
		}
		for k := 0; k < 4; k++ {
			MOVQ(laneField(lnDst, 4*r+k), lT)
			for h, x := range hs {
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
