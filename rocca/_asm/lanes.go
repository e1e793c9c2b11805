package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// lanesVAES512 seals (op 0) or opens (op 1) four messages at once, one per
// 128-bit lane of the zmm registers, each with its own nonce, associated
// data, message and tag. The messages have the same shape: as many whole
// blocks of associated data (adN) and of message (n), and each a partial
// last block of either or not (kAD and kLast not zero), whose lengths may
// differ (read and written through byte masks made from the lengths:
// restMasks); or, steps not zero, of one shape of associated data and texts of
// any lengths (see ragged, and raggedVEX for lanesVAES256). Its job is the Go side's laneJob; a lane's blocks are contiguous
// at its ad, src and dst, its partial blocks after its whole ones. The
// kernel takes its messages from the batch (batch.Message, whose layout
// batchutil's tests pin: msg* below) at msgs by the lanes' indexes in idx,
// and fills the job's per-lane fields (nonce, ad, src, dst, tags and the
// bit lengths) itself: scalar work beside the AES rounds, where the Go
// side's would run before them. Seal stores each lane's tag after its
// output's text; open compares it with the one after the input's, without
// a branch, all of it, and sets the OK of the lane's message. A job runs
// runs groups of messages, the lanes' indexes stepping by the number of
// lanes from one to the next. Every lane's block is loaded before any
// lane's output is stored, so two lanes may run the same message in place.
//
// A round writes the new state into the other of two banks of registers;
// its six AES rounds and the keystream's two are independent, and on zmm
// they are bound by the AES units' throughput, not by the chain from round
// to round that bounds one message in xmm.

// The offsets of laneJob's fields; TestLaneJobLayout checks them.
const (
	jlKey     = 0
	jlNonce   = 8
	jlAD      = 40
	jlSrc     = 72
	jlDst     = 104
	jlTags    = 136
	jlADN     = 168
	jlN       = 176
	jlKAD     = 184
	jlKLast   = 200
	jlADLen   = 216 // each lane's LE128 of the associated data's bit length
	jlMLen    = 280 // and of the message's
	jlMsgs    = 536
	jlIdx     = 544
	jlRuns    = 576
	jlSteps   = 584
	jlRT      = 592 // the VAES256 kernel's ragged lanes' Finalize inputs
	jlRTag    = 656 // and tags,
	jlRNext   = 720 // its lanes' next events
	jlRStride = 736 // and pointers' strides

	msgSize  = 104
	msgNonce = 0
	msgAD    = 24
	msgADLen = 32
	msgIn    = 48
	msgInLen = 56
	msgOut   = 72
	msgOK    = 96
)

var (
	lJob  = RBX
	lOp   = RAX
	lI    = RCX // the offset of the current block in every lane
	lN    = R8  // blocks left
	lTmp  = R13
	lSrc  = []GPPhysical{RSI, RDI, RDX, R9}
	lDst  = []GPPhysical{R10, R11, R12, R14}
	zmm32 = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
)

// lanes is a batch kernel being generated: lanesVAES512, or with VEX
// encodings lanesVAES256.
type lanes struct {
	name                       string
	evex                       bool
	s, nx                      []VecPhysical // the state's bank and the other
	m0, m1, o0, o1, t0, t1, x0 VecPhysical
	k0, k1, z0, z1             VecPhysical
}

func lfield(f int) Mem { return Mem{Base: lJob, Disp: f} }

func (k *lanes) label(l string) LabelRef { return LabelRef(k.name + "_" + l) }

// here places label l.
func (k *lanes) here(l string) { Label(k.name + "_" + l) }

// nl is the number of lanes: 4 in zmm, 2 in ymm.
func (k *lanes) nl() int {
	if k.evex {
		return 4
	}
	return 2
}

func (k *lanes) xor(a, b Op, d VecPhysical) {
	if k.evex {
		VPXORD(a, b, d)
	} else {
		VPXOR(a, b, d)
	}
}

func (k *lanes) mov(a, b VecPhysical) {
	if k.evex {
		VMOVDQA64(a, b)
	} else {
		VMOVDQA(a, b)
	}
}

// lanesKernel emits k; z is Z0 || Z1, or for VEX Z0 || Z0 || Z1 || Z1.
func lanesKernel(k *lanes, z Mem) {
	TEXT(k.name, NOSPLIT, "func(op int, j *byte)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s seals (op 0) or opens (op 1) the %d messages of j.", k.name, k.nl()))
	Load(Param("op"), lOp)
	Load(Param("j"), lJob)
	// Each of the job's runs groups of messages.
	k.here("group")
	k.laneTable()

	// Init. With AVX-512 the key and the constants take registers of their
	// own; with VEX the key halves take m0 and m1 until the key is added
	// in, and the constants are memory operands.
	MOVQ(lfield(jlKey), lTmp)
	var k0, k1 VecPhysical
	var z0, z1 Op
	if k.evex {
		k0, k1, z0, z1 = k.k0, k.k1, k.z0, k.z1
		VBROADCASTI32X4(Mem{Base: lTmp}, k0)
		VBROADCASTI32X4(Mem{Base: lTmp, Disp: 16}, k1)
		VBROADCASTI32X4(z, k.z0)
		VBROADCASTI32X4(z.Offset(16), k.z1)
	} else {
		k0, k1, z0, z1 = k.m0, k.m1, z, z.Offset(32)
		VBROADCASTI128(Mem{Base: lTmp}, k0)
		VBROADCASTI128(Mem{Base: lTmp, Disp: 16}, k1)
	}
	s := k.s
	for l := range k.nl() {
		MOVQ(lfield(jlNonce+8*l), lTmp)
		k.insert(l, Mem{Base: lTmp}, s[1])
	}
	k.mov(k1, s[0])
	k.set(z0, s[2])
	k.mov(k0, s[3])
	k.set(z1, s[4])
	k.xor(k1, s[1], s[5])
	k.xor(s[6], s[6], s[6])
	MOVQ(U32(8), lN)
	k.here("init")
	for range 2 {
		k.round(z0, z1)
	}
	DECQ(lN)
	JNZ(k.label("init"))
	for i, key := range []VecPhysical{k0, k0, k1, k0, k0, k1, k1} {
		k.xor(key, k.s[i], k.s[i])
	}

	// Associated data.
	k.lanePtrs(jlAD, lSrc)
	XORQ(lI, lI)
	MOVQ(lfield(jlADN), lN)
	TESTQ(lN, lN)
	JZ(k.label("adLast"))
	k.loop("ad", func() {
		k.gather(k.m0, k.m1)
		k.round(k.m0, k.m1)
	})
	k.here("adLast")
	CMPQ(lfield(jlKAD), U8(0))
	JE(k.label("text"))
	k.once(func() {
		if !k.evex {
			VMOVDQU(lfield(jlADLast), k.m0)
			VMOVDQU(lfield(jlADLast+32), k.m1)
			k.round(k.m0, k.m1)
			return
		}
		ks := k.restMasks(jlADLen)
		k.byHalves("ad", func(hs []int) {
			k.gatherMasked(ks, hs, k.m0, k.m1)
			k.round(k.m0, k.halfOr(hs, k.m1))
		})
	})

	// Message.
	k.here("text")
	k.lanePtrs(jlSrc, lSrc)
	k.lanePtrs(jlDst, lDst)
	XORQ(lI, lI)
	MOVQ(lfield(jlN), lN)
	s, nx := k.s, k.nx // the banks as the message starts, for ragged
	CMPQ(lfield(jlSteps), U8(0))
	JNE(k.label("ragged"))
	TESTQ(lOp, lOp)
	JNZ(k.label("open"))
	text := k.text
	if !k.evex {
		text = k.textVEX
	}
	text(false)
	JMP(k.label("final"))
	k.here("open")
	text(true)

	// Finalization and tags.
	k.here("final")
	var x0, x1 Op = lfield(jlADLen), lfield(jlMLen)
	if k.evex {
		VMOVDQU64(x0, k.t0)
		VMOVDQU64(x1, k.t1)
		x0, x1 = k.t0, k.t1
	}
	MOVQ(U32(8), lN)
	k.here("finalLoop")
	for range 2 {
		k.round(x0, x1)
	}
	DECQ(lN)
	JNZ(k.label("finalLoop"))
	s = k.s
	t0, t1 := k.o0, k.o1 // the ragged path's tags come here too
	if k.evex {
		VPXORD(s[0], s[1], t0)
		VPTERNLOGD(U8(0x96), s[2], s[3], t0)
	} else {
		t0, t1 = k.nx[0], k.nx[1]
		VPXOR(s[0], s[1], t0)
		VPXOR(s[2], t0, t0)
		VPXOR(s[3], t0, t0)
	}
	k.xor(s[4], s[5], t1)
	k.xor(s[6], t1, t1)
	k.here("tags")
	TESTQ(lOp, lOp)
	JNZ(k.label("cmp"))
	for l := range k.nl() {
		MOVQ(lfield(jlTags+8*l), lTmp)
		k.extract(l, t0, Mem{Base: lTmp})
		k.extract(l, t1, Mem{Base: lTmp, Disp: 16})
	}
	JMP(k.label("next"))

	// Open gathers the lanes' tags to m0 and m1 and their differences from
	// the computed ones to m1; each lane's message is OK where neither
	// 8-byte half of its 16-byte words of tag differs.
	k.here("cmp")
	for l := range k.nl() {
		MOVQ(lfield(jlTags+8*l), lTmp)
		k.insert(l, Mem{Base: lTmp}, k.m0)
		k.insert(l, Mem{Base: lTmp, Disp: 16}, k.m1)
	}
	k.xor(t0, k.m0, k.m0)
	k.xor(t1, k.m1, k.m1)
	if k.evex {
		VPORD(k.m0, k.m1, k.m1)
		VPTESTMQ(k.m1, k.m1, K1)
		KMOVW(K1, lTmp.As32())
	} else {
		VPOR(k.m0, k.m1, k.m1)
		VPXOR(k.m0, k.m0, k.m0)
		VPCMPEQQ(k.m0, k.m1, k.m1)
		VMOVMSKPD(k.m1, lTmp.As32())
		XORL(U8(0xf), lTmp.As32())
	}
	m, base := RSI, RDI
	MOVQ(lfield(jlMsgs), base)
	for l := range k.nl() {
		IMUL3Q(U8(msgSize), lfield(jlIdx+8*l), m)
		TESTQ(U32(3<<(2*l)), lTmp)
		SETEQ(Mem{Base: base, Index: m, Scale: 1, Disp: msgOK})
	}

	k.here("next")
	DECQ(lfield(jlRuns))
	JZ(k.label("ret"))
	for l := range k.nl() {
		ADDQ(U8(k.nl()), lfield(jlIdx+8*l))
	}
	JMP(k.label("group"))
	k.here("ret")
	VZEROUPPER()
	RET()
	k.s, k.nx = s, nx
	if k.evex {
		k.ragged()
	} else {
		k.raggedVEX(t0, t1)
	}
}

// ragged emits the message phase and Finalize of a group whose lanes'
// texts differ in length (steps not zero), and jumps to the tags' store
// (or comparison) with them in o0 and o1. The n whole blocks every lane has
// run in the plain loop; then a loop of steps steps runs the rest, one
// block of every lane a step (lI its offset), to the longest lane's tag. A
// lane runs its text, then Finalize's sixteen rounds (its input its bit
// lengths, taken from the job), then idles; its tag is read out at its own
// step into the tag registers, through its mask. Lane l's byte masks come
// from its text length less lI, clamped to 0..32 and spread over its
// bytes: lanes past their text read and write nothing.
func (k *lanes) ragged() {
	z := zmm32
	ad, ml, length, end, end16, iota0 := k.t0, k.t1, k.k0, k.k1, k.z0, k.z1
	zero, iota1, rv, v, tag0, tag1 := z[7], z[27], z[28], z[29], z[30], z[31]
	k.here("ragged")
	VPXORD(zero, zero, zero)
	VMOVDQU64(lfield(jlADLen), ad)
	VMOVDQU64(lfield(jlMLen), ml)
	// length: each lane's text length in both its quadwords; end: its
	// blocks' end, the step it starts Finalize at; end16: the step its tag
	// is ready at.
	VPUNPCKLQDQ(ml, ml, length)
	VPSRLQ(U8(3), length, length)
	MOVQ(U32(32), lTmp)
	VPBROADCASTQ(lTmp, rv)
	MOVQ(U32(31), lTmp)
	VPBROADCASTQ(lTmp, end)
	VPADDQ(length, end, end)
	VPSRLQ(U8(5), end, end)
	VPSLLQ(U8(5), end, end)
	MOVQ(U32(16*32), lTmp)
	VPBROADCASTQ(lTmp, end16)
	VPADDQ(end, end16, end16)
	VBROADCASTI32X4(iotaBytes, iota0)
	VBROADCASTI32X4(iotaBytes.Offset(16), iota1)
	k.raggedPhases(func(name string, open bool) {
		// The steps in pairs, each ending in the other bank; the loop
		// leaves from either, the state no longer needed.
		k.here(name + "Loop")
		for h := range 2 {
			pre := name + []string{"A", "B"}[h]
			lbl := func(x string) string { return pre + x }
			VPBROADCASTQ(lI, v)
			VPCMPEQQ(end16, v, K3)
			KORTESTW(K3, K3)
			JZ(k.label(lbl("Step")))
			VPXORD(k.s[0], k.s[1], k.o0)
			VPTERNLOGD(U8(0x96), k.s[2], k.s[3], k.o0)
			VPXORD(k.s[4], k.s[5], k.o1)
			VPXORD(k.s[6], k.o1, k.o1)
			VMOVDQA64(k.o0, K3, tag0)
			VMOVDQA64(k.o1, K3, tag1)
			k.here(lbl("Step"))
			TESTQ(lN, lN)
			JZ(k.label("rtags"))
			// K3: the lanes still in their text; K6: the others.
			VPCMPUQ(U8(6), v, end, K3)
			KORTESTW(K3, K3)
			JZ(k.label(lbl("Final")))
			VPCMPUQ(U8(2), v, end, K6)
			VPSUBQ(v, length, v)
			VPMAXSQ(zero, v, v)
			VPMINUQ(rv, v, v)
			VPSHUFB(zero, v, v)
			VPCMPUB(U8(1), v, iota0, K4)
			VPCMPUB(U8(1), v, iota1, K5)
			bank := [2][]VecPhysical{k.s, k.nx}
			k.maskedStep(open, []Op{K4, K5}, []int{0, 1}, func(x0, x1 VecPhysical) {
				VMOVDQA64(ad, K6, x0)
				VMOVDQA64(ml, K6, x1)
			})
			JMP(k.label(lbl("Next")))
			k.s, k.nx = bank[0], bank[1]
			k.here(lbl("Final"))
			k.round(ad, ml)
			k.here(lbl("Next"))
			ADDQ(U8(32), lI)
			DECQ(lN)
		}
		JMP(k.label(name + "Loop"))
	})
	k.here("rtags")
	VMOVDQA64(tag0, k.o0)
	VMOVDQA64(tag1, k.o1)
	JMP(k.label("tags"))
}

// laneTable fills the job's per-lane fields from the lanes' messages: the
// nonce, associated data, text (In) and output pointers, the tag's (after
// the output's text, sealing, or the input's, opening: In less a tag is
// the text) and the bit lengths of associated data and text.
func (k *lanes) laneTable() {
	base, m, t, u, s, d, sub := RSI, RDI, RDX, R8, R9, R10, R11
	MOVQ(lfield(jlMsgs), base)
	MOVQ(lOp, sub)
	SHLQ(U8(5), sub) // the 32-byte tag opening (op 1), 0 sealing
	for l := range k.nl() {
		IMUL3Q(U8(msgSize), lfield(jlIdx+8*l), m)
		ADDQ(base, m)
		for _, f := range [][2]int{{msgNonce, jlNonce}, {msgAD, jlAD}} {
			MOVQ(Mem{Base: m, Disp: f[0]}, t)
			MOVQ(t, lfield(f[1]+8*l))
		}
		MOVQ(Mem{Base: m, Disp: msgADLen}, t)
		k.putBits(t, u, jlADLen+16*l)
		MOVQ(Mem{Base: m, Disp: msgIn}, s)
		MOVQ(s, lfield(jlSrc+8*l))
		MOVQ(Mem{Base: m, Disp: msgOut}, d)
		MOVQ(d, lfield(jlDst+8*l))
		MOVQ(Mem{Base: m, Disp: msgInLen}, t)
		SUBQ(sub, t)
		TESTQ(lOp, lOp)
		CMOVQNE(s, d)
		ADDQ(t, d)
		MOVQ(d, lfield(jlTags+8*l))
		k.putBits(t, u, jlMLen+16*l)
	}
}

// putBits stores the bit length of t bytes, a 128-bit little-endian
// number, to job field f; it overwrites t and u.
func (k *lanes) putBits(t, u GPPhysical, f int) {
	MOVQ(t, u)
	SHLQ(U8(3), t)
	SHRQ(U8(61), u)
	MOVQ(t, lfield(f))
	MOVQ(u, lfield(f+8))
}

// set sets r to x, a register or memory.
func (k *lanes) set(x Op, r VecPhysical) {
	if m, ok := x.(Mem); ok {
		VMOVDQU(m, r)
		return
	}
	k.mov(x.(VecPhysical), r)
}

// round is R(S, x0, x1) into the other bank, which then becomes the
// state's.
func (k *lanes) round(x0, x1 Op) {
	s, n := k.s, k.nx
	VAESENC(x0, s[0], n[1])
	VAESENC(s[0], s[1], n[2])
	VAESENC(s[6], s[2], n[3])
	VAESENC(x1, s[3], n[4])
	VAESENC(s[3], s[4], n[5])
	VAESENC(s[4], s[5], n[6])
	k.xor(s[6], s[1], n[0])
	k.s, k.nx = n, s
}

// keystream sets o0 and o1, of the halves hs, to the keystream's AES
// rounds of the state: AES(S3^S5, S0) and AES(S4^S6, S2).
func (k *lanes) keystream(hs []int) {
	s := k.s
	for _, i := range hs {
		VPXORD([]VecPhysical{s[3], s[4]}[i], []VecPhysical{s[5], s[6]}[i], []VecPhysical{k.o0, k.o1}[i])
	}
	for _, i := range hs {
		VAESENC([]VecPhysical{s[0], s[2]}[i], []VecPhysical{k.o0, k.o1}[i], []VecPhysical{k.o0, k.o1}[i])
	}
}

// text emits the encryption (decryption) of the n whole blocks of every
// lane and of the partial last blocks if kLast is not zero.
func (k *lanes) text(open bool) {
	name := "enc"
	if open {
		name = "dec"
	}
	k.textBlocks(name, open)
	k.here(name + "Last")
	CMPQ(lfield(jlKLast), U8(0))
	JE(k.label(name + "Done"))
	k.once(func() {
		ks := k.restMasks(jlMLen)
		k.byHalves(name, func(hs []int) { k.maskedStep(open, ks, hs, nil) })
	})
	k.here(name + "Done")
}

// byHalves emits body for the halves of the lanes' last blocks, whose
// masks restMasks left: body(the first half alone) where no lane's block
// passes it (texts of 44 and 552 bytes, 13 bytes of associated data), so
// that the second is absorbed as zeros (halfOr) without its loads, stores
// and keystream, and else body(both halves). Its labels start with pre.
func (k *lanes) byHalves(pre string, body func(hs []int)) {
	s, nx := k.s, k.nx // each body's round from these banks
	KORTESTQ(K5, K5)
	JNZ(k.label(pre + "Both"))
	body([]int{0})
	JMP(k.label(pre + "Halves"))
	k.here(pre + "Both")
	k.s, k.nx = s, nx
	body([]int{0, 1})
	k.here(pre + "Halves")
}

// halfOr returns r, the second half's input, or where byHalves runs the
// first half alone, the zero restMasks leaves in Z15.
func (k *lanes) halfOr(hs []int, r VecPhysical) VecPhysical {
	if len(hs) == 1 {
		return zmm32[15]
	}
	return r
}

// textBlocks emits the encryption (decryption) of the lN whole blocks of
// every lane, its labels starting with name.
func (k *lanes) textBlocks(name string, open bool) {
	TESTQ(lN, lN)
	JZ(k.label(name + "Last"))
	k.loop(name, func() {
		k.gatherWhole()
		k.keystream([]int{0, 1})
		VPXORD(k.m0, k.o0, k.o0)
		VPXORD(k.m1, k.o1, k.o1)
		k.scatterWhole()
		if open {
			k.round(k.o0, k.o1)
		} else {
			k.round(k.m0, k.m1)
		}
	})
}

// maskedStep emits the encryption (decryption) of every lane's block at lI
// through the byte masks of its halves in ks (K4 and K5, as restMasks
// leaves them): masked-off bytes are neither read nor written, and load as
// zeros. It runs the halves hs (see byHalves). mix, if not nil, changes the
// round's inputs before the round.
func (k *lanes) maskedStep(open bool, ks []Op, hs []int, mix func(x0, x1 VecPhysical)) {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	k.gatherMasked(ks, hs, k.m0, k.m1)
	k.keystream(hs)
	for _, i := range hs {
		VPXORD(ms[i], os[i], os[i])
		if open {
			// The plaintext, zeroed past each lane's end, is absorbed.
			VMOVDQU8_Z(os[i], ks[i], os[i])
		}
		k.scatterMasked(ks[i], os[i], i)
	}
	x0, x1 := k.m0, k.halfOr(hs, k.m1)
	if open {
		x0, x1 = k.o0, k.halfOr(hs, k.o1)
	}
	if mix != nil {
		mix(x0, x1)
	}
	k.round(x0, x1)
}

// restMasks sets K4 and K5 to the byte masks of the halves of the lanes'
// partial last blocks, from the bit lengths at job field f (jlADLen or
// jlMLen), and returns them: the Go side only says whether there are
// partial blocks (kAD and kLast not zero). It takes Z15 and Z27 to Z29,
// which only ragged uses besides.
func (k *lanes) restMasks(f int) []Op {
	z := zmm32
	zero, iota0, iota1, v := z[15], z[27], z[28], z[29]
	VMOVDQU64(lfield(f), v)
	// Each lane's bytes in its last block, a byte spread over the lane.
	VPSLLQ(U8(56), v, v)
	VPSRLQ(U8(59), v, v)
	VPXORD(zero, zero, zero)
	VPSHUFB(zero, v, v)
	VBROADCASTI32X4(iotaBytes, iota0)
	VBROADCASTI32X4(iotaBytes.Offset(16), iota1)
	VPCMPUB(U8(1), v, iota0, K4)
	VPCMPUB(U8(1), v, iota1, K5)
	return []Op{K4, K5}
}

// loop emits a loop that runs body, one block, lN >= 1 times, stepping lI.
// It runs body in pairs, an odd one first, so that the state ends in the
// bank it started in.
func (k *lanes) loop(name string, body func()) {
	step := func() {
		body()
		ADDQ(U8(32), lI)
	}
	TESTQ(U32(1), lN)
	JZ(k.label(name + "Loop"))
	k.once(step)
	DECQ(lN)
	JZ(k.label(name + "End"))
	k.here(name + "Loop")
	step()
	step()
	SUBQ(U8(2), lN)
	JNZ(k.label(name + "Loop"))
	k.here(name + "End")
}

// once emits body, one round, and moves the state back to the bank it
// started in, where the code that follows expects it.
func (k *lanes) once(body func()) {
	body()
	for j := range k.s {
		k.mov(k.s[j], k.nx[j])
	}
	k.s, k.nx = k.nx, k.s
}

// lanePtrs loads the lane pointers at job field f into regs.
func (k *lanes) lanePtrs(f int, regs []GPPhysical) {
	for l, r := range regs[:k.nl()] {
		MOVQ(lfield(f+8*l), r)
	}
}

// laneMem returns half i of the current block of lane l at regs.
func laneMem(regs []GPPhysical, l, i int) Mem {
	return Mem{Base: regs[l], Index: lI, Scale: 1, Disp: 16 * i}
}

// insert loads the 16 bytes at m into lane l of r, the first zeroing the
// others.
func (k *lanes) insert(l int, m Mem, r VecPhysical) {
	switch {
	case l == 0 && k.evex:
		VMOVDQU64(m, r.AsX())
	case l == 0:
		VMOVDQU(m, r.AsX())
	case k.evex:
		VINSERTI32X4(U8(l), m, r, r)
	default:
		VINSERTI128(U8(l), m, r, r)
	}
}

// extract stores lane l of r to m.
func (k *lanes) extract(l int, r VecPhysical, m Mem) {
	switch {
	case l == 0 && k.evex:
		VMOVDQU64(r.AsX(), m)
	case l == 0:
		VMOVDQU(r.AsX(), m)
	case k.evex:
		VEXTRACTI32X4(U8(l), r, m)
	default:
		VEXTRACTI128(U8(l), r, m)
	}
}

// gather loads the current block of every lane, its halves into r0 and r1.
func (k *lanes) gather(r0, r1 VecPhysical) {
	for i, r := range []VecPhysical{r0, r1} {
		for l := range k.nl() {
			k.insert(l, laneMem(lSrc, l, i), r)
		}
	}
}

// gatherWhole is gather of whole blocks into m0 and m1: each lane's 32
// bytes in one load, two lanes to a register (o0: lanes 0 and 1, o1: 2 and
// 3), and the halves of every lane picked out of them, in four shuffles
// where gather takes six inserts.
func (k *lanes) gatherWhole() {
	for h, r := range []VecPhysical{k.o0, k.o1} {
		VMOVDQU64(laneMem(lSrc, 2*h, 0), r.AsY())
		VINSERTI64X4(U8(1), laneMem(lSrc, 2*h+1, 0), r, r)
	}
	VSHUFI64X2(U8(0x88), k.o1, k.o0, k.m0)
	VSHUFI64X2(U8(0xdd), k.o1, k.o0, k.m1)
}

// scatterWhole stores every lane's whole output block, its first halves in
// o0 and second in o1: two lanes' blocks put together in x0 by one
// permutation and stored as 32 bytes each, half the stores of scatter
// (which measured a fifth faster on blocks streamed from L2).
func (k *lanes) scatterWhole() {
	for h := range 2 {
		VMOVDQU64(laneOrder.Offset(64*h), k.x0)
		VPERMI2Q(k.o1, k.o0, k.x0)
		VMOVDQU64(k.x0.AsY(), laneMem(lDst, 2*h, 0))
		VEXTRACTI64X4(U8(1), k.x0, laneMem(lDst, 2*h+1, 0))
	}
}

// scatter stores half i of every lane's output block, in r.
func (k *lanes) scatter(r VecPhysical, i int) {
	for l := range k.nl() {
		k.extract(l, r, laneMem(lDst, l, i))
	}
}

// gatherMasked is gather of the halves hs for the partial blocks, with the
// byte masks of the halves in ks: bits 16l to 16l+15 of a half's mark lane
// l's bytes. Masked-off bytes are not read and load as zeros.
func (k *lanes) gatherMasked(ks []Op, hs []int, r0, r1 VecPhysical) {
	x := k.x0.AsX()
	for _, i := range hs {
		r := []VecPhysical{r0, r1}[i]
		VMOVDQU8_Z(laneMem(lSrc, 0, i), ks[i], r.AsX())
		for l := 1; l < 4; l++ {
			KSHIFTRQ(U8(16*l), ks[i], K2)
			VMOVDQU8_Z(laneMem(lSrc, l, i), K2, x)
			VINSERTI32X4(U8(l), x, r, r)
		}
	}
}

// scatterMasked stores the bytes of half i of every lane's output block,
// in r, that the mask in kr marks.
func (k *lanes) scatterMasked(kr Op, r VecPhysical, i int) {
	x := k.x0.AsX()
	VMOVDQU8(r.AsX(), kr, laneMem(lDst, 0, i))
	for l := 1; l < 4; l++ {
		KSHIFTRQ(U8(16*l), kr, K2)
		VEXTRACTI32X4(U8(l), r, x)
		VMOVDQU8(x, K2, laneMem(lDst, l, i))
	}
}

// raggedPhases emits a ragged group's message phase for seal and then for
// open, each from the banks as the message starts: the plain loop over the
// n whole blocks every lane has, and the load of steps into lN; then body,
// which emits the steps, its labels starting with name.
func (k *lanes) raggedPhases(body func(name string, open bool)) {
	s, nx := k.s, k.nx
	blocks := k.textBlocks
	if !k.evex {
		blocks = k.textBlocksVEX
	}
	for _, open := range []bool{false, true} {
		k.s, k.nx = s, nx
		name := "rseal"
		if open {
			name = "ropen"
		} else {
			TESTQ(lOp, lOp)
			JNZ(k.label("ropen"))
		}
		k.here(name)
		blocks(name+"Blocks", open)
		k.here(name + "BlocksLast")
		MOVQ(lfield(jlSteps), lN)
		body(name, open)
	}
}
