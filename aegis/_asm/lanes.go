package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The batch kernels, aegis128Lanes* and aegis256Lanes*, seal (op seal) or
// open (op open) four (VAES512: zmm) or two (VAES256: ymm) messages of
// AEGIS-128L or AEGIS-256 at once, one per 128-bit lane, as the X4 and X2
// kernels hold their lanes, but each lane with its own nonce, associated
// data, message and tag. The messages have the same shape: as many whole
// blocks of associated data (adN) and of message (n), and each a partial
// last block of either or not, whose lengths may differ; or groups whose
// texts differ in length (steps not zero: see ragged and raggedVEX), the
// lanes' associated data of one shape. Their job is the
// Go side's laneJob. The kernels take their messages from the batch
// (batch.Message, whose layout batchutil's tests pin: msg* below) at msgs
// by the lanes' indexes in idx, and fill the job's per-lane fields (nonce,
// ad, src, dst, tags and u) themselves: scalar work beside the AES rounds,
// where the Go side's would run before them. A lane's blocks are
// contiguous at its ad, src and dst.
// Seal stores each lane's tag at its tags pointer; open compares the tag
// there with the lane's, without a branch, all of it, and sets the OK of
// the lane's message. A job runs runs groups of messages, the lanes'
// indexes stepping by the number of lanes from one to the next. Every lane's block is loaded before any lane's output is stored,
// so two lanes may run the same message in place.
//
// The partial blocks, where kAD and kLast say there are any: the VAES512
// kernels read them in place, after the lane's whole blocks, through byte
// masks they make from the lanes' lengths (bits 16l to 16l+15 of a half's
// mask for lane l, see restMasks), and write the message's there too.
// The VAES256 kernels, without byte masks, take zero-padded copies from
// the job (adLast and last, 32 bytes a lane) and write the message's output
// over its copy, and open takes the masks of its ciphertext's bytes from
// the lanes' mask pointers (or in a ragged group, from tailMask).

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
	jlTagSize = 184
	jlKAD     = 192
	jlKLast   = 208
	jlU       = 224
	jlADLast  = 288
	jlLast    = 352
	jlMask    = 416
	jlMsgs    = 432
	jlIdx     = 440
	jlSub     = 472
	jlRuns    = 480
	jlSteps   = 488
	jlRT      = 496
	jlRTag    = 560
	jlRNext   = 624
	jlRStride = 640

	msgSize  = 104
	msgNonce = 0
	msgAD    = 24
	msgADLen = 32
	msgIn    = 48
	msgInLen = 56
	msgOut   = 72
	msgOK    = 96
)

// The batch kernels' general-purpose registers besides jp, op, n (the
// blocks left), p, count and tmp (p and count serve Init and Finalize only,
// and alias lane pointers).
var (
	li   = RCX // the offset of the current block in every lane
	lsrc = []GPPhysical{RSI, RDI, RDX, R9}
	ldst = []GPPhysical{R10, R11, R12, R14}
)

// rate is the bytes of one lane's input block.
func (k *kern) rate() int {
	if k.words == 8 {
		return 32
	}
	return 16
}

func (k *kern) tagSizeField() int {
	switch {
	case k.lanes:
		return jlTagSize
	case k.onMsgJob:
		return mTagSize
	}
	return jTagSize
}

// lanesKernel emits the batch kernel of the family with the given number of
// words.
func lanesKernel(words int) {
	name := "aegis" + map[int]string{8: "128", 6: "256"}[words] + fl.name
	TEXT(name, NOSPLIT, "func(op int, j *byte)")
	Pragma("noescape")
	Load(Param("op"), op)
	Load(Param("j"), jp)
	k := newKern(name, words)
	k.lanes = true
	// Each of the job's runs groups of messages, the lanes' indexes
	// stepping by the lanes after each.
	Label(name + "_group")
	laneTable()
	k.init("init")

	k.lanePtrs(jlAD, lsrc)
	XORQ(li, li)
	MOVQ(field(jlADN), n)
	TESTQ(n, n)
	JZ(k.label("adLast"))
	k.loop("ad", func() {
		k.gather(k.m0, k.m1)
		k.update(k.m0, k.m1, nil)
	})
	Label(k.name + "_adLast")
	CMPQ(field(jlKAD), U8(0))
	JE(k.label("text"))
	k.once(func() {
		if !fl.evex {
			k.gatherJob(jlADLast, k.m0, k.m1)
			k.update(k.m0, k.m1, nil)
			return
		}
		ks := k.restMasks(0)
		k.byHalves("ad", func(hs []int) {
			m1 := k.m1
			if len(hs) < len(k.halves()) {
				m1 = k.zero
			}
			k.gatherMasked(ks, hs, k.m0, m1)
			k.update(k.m0, m1, nil)
		})
	})

	Label(k.name + "_text")
	k.lanePtrs(jlSrc, lsrc)
	k.lanePtrs(jlDst, ldst)
	XORQ(li, li)
	MOVQ(field(jlN), n)
	s, ns := k.s, k.n // the banks as the message starts, for ragged
	CMPQ(field(jlSteps), U8(0))
	JNE(k.label("ragged"))
	CMPQ(op, U8(opOpen))
	JE(k.label("open"))
	k.text(false)
	JMP(k.label("final"))
	Label(k.name + "_open")
	k.text(true)

	Label(k.name + "_final")
	store := func(r VecPhysical, i int, pre string) {
		CMPQ(op, U8(opOpen))
		JE(k.label(pre + "Cmp"))
		for l := range k.nl() {
			MOVQ(field(jlTags+8*l), tmp)
			k.extract(l, r, Mem{Base: tmp, Disp: 16 * i})
		}
		JMP(k.label(pre + "Next"))
		// Open gathers the lanes' tags to m0 and their differences from
		// the computed ones to m1, free after the text.
		Label(k.name + "_" + pre + "Cmp")
		for l := range k.nl() {
			MOVQ(field(jlTags+8*l), tmp)
			k.insert(l, Mem{Base: tmp, Disp: 16 * i}, k.m0)
		}
		if i == 0 {
			vxor(k.m0, r, k.m1)
		} else {
			vxor(k.m0, r, k.m0)
			vor(k.m0, k.m1, k.m1)
		}
		Label(k.name + "_" + pre + "Next")
	}
	k.finalTags("final", store)
	Label(k.name + "_tags")
	CMPQ(op, U8(opOpen))
	JNE(k.label("next"))
	if fl.evex {
		VPTESTMQ(k.m1, k.m1, K1)
		KMOVW(K1, tmp.As32())
	} else {
		// Equal 8-byte halves, inverted.
		VPXOR(k.m0, k.m0, k.m0)
		VPCMPEQQ(k.m0, k.m1, k.m1)
		VMOVMSKPD(k.m1, tmp.As32())
		XORL(U8(0xf), tmp.As32())
	}
	// Each lane's message is OK where neither half of its tag differs.
	m, base := RSI, RDI
	MOVQ(field(jlMsgs), base)
	for l := range k.nl() {
		IMUL3Q(U8(msgSize), field(jlIdx+8*l), m)
		TESTQ(U32(3<<(2*l)), tmp)
		SETEQ(Mem{Base: base, Index: m, Scale: 1, Disp: msgOK})
	}
	Label(k.name + "_next")
	DECQ(field(jlRuns))
	JZ(k.label("ret"))
	for l := range k.nl() {
		ADDQ(U8(k.nl()), field(jlIdx+8*l))
	}
	JMP(k.label("group"))
	Label(k.name + "_ret")
	k.ret()
	if fl.evex {
		k.s, k.n = s, ns
		k.ragged(store)
	} else {
		k.raggedVEX(store)
	}
}

// laneTable fills the job's per-lane fields from the lanes' messages: the
// nonce, associated data, text (In) and output pointers, the tag's (after
// the output's text, sealing, or the input's, opening: In less sub bytes
// is the text) and u, Finalize's lengths in bits.
func laneTable() {
	base, m, t, s, d, sub := RSI, RDI, RDX, R9, R10, R11
	MOVQ(field(jlMsgs), base)
	MOVQ(field(jlSub), sub)
	for l := range int(fl.regs[0].Size()) / 16 {
		IMUL3Q(U8(msgSize), field(jlIdx+8*l), m)
		ADDQ(base, m)
		for _, f := range [][2]int{{msgNonce, jlNonce}, {msgAD, jlAD}} {
			MOVQ(Mem{Base: m, Disp: f[0]}, t)
			MOVQ(t, field(f[1]+8*l))
		}
		MOVQ(Mem{Base: m, Disp: msgADLen}, t)
		SHLQ(U8(3), t)
		MOVQ(t, field(jlU+16*l))
		MOVQ(Mem{Base: m, Disp: msgIn}, s)
		MOVQ(s, field(jlSrc+8*l))
		MOVQ(Mem{Base: m, Disp: msgOut}, d)
		MOVQ(d, field(jlDst+8*l))
		MOVQ(Mem{Base: m, Disp: msgInLen}, t)
		SUBQ(sub, t)
		CMPQ(op, U8(opOpen))
		CMOVQEQ(s, d)
		ADDQ(t, d)
		MOVQ(d, field(jlTags+8*l))
		SHLQ(U8(3), t)
		MOVQ(t, field(jlU+16*l+8))
	}
}

// text emits Enc (Dec) of the n whole blocks of every lane and of the
// partial last blocks if kLast is not zero, labels after open.
func (k *kern) text(open bool) {
	name := "enc"
	if open {
		name = "dec"
	}
	k.textBlocks(name, open)
	Label(k.name + "_" + name + "Last")
	CMPQ(field(jlKLast), U8(0))
	JE(k.label(name + "Done"))
	k.once(func() {
		if !fl.evex {
			k.lastVEX(open)
			return
		}
		ks := k.restMasks(1)
		k.byHalves(name, func(hs []int) { k.maskedStep(open, ks, hs, nil) })
	})
	Label(k.name + "_" + name + "Done")
}

// byHalves emits body for the halves of the lanes' last blocks, whose
// masks restMasks left: for AEGIS-128L, body(M0 alone) where no lane's
// block passes M0 (texts of 44 and 552 bytes, 13 bytes of associated
// data), so that M1 is absorbed as zeros without its loads and stores, and
// else body(both halves). Its labels start with pre.
func (k *kern) byHalves(pre string, body func(hs []int)) {
	if k.words == 8 {
		KORTESTQ(K5, K5)
		JNZ(k.label(pre + "Both"))
		body([]int{0})
		JMP(k.label(pre + "Halves"))
		Label(k.name + "_" + pre + "Both")
	}
	body(k.halves())
	Label(k.name + "_" + pre + "Halves")
}

// ragged emits the message phase of a group whose lanes' texts differ in
// length (steps not zero), for the VAES512 kernels, and jumps to the tags'
// store (or comparison) with them. The n whole blocks every lane has run
// in the plain loop; then a loop of steps steps runs the rest, one block
// of every lane a step (li its offset), to the longest lane's tag. A lane
// runs its text, then Finalize's seven updates (its input t = S2 ^ u, or
// S3 ^ u, taken into T at the step it starts), then idles. Each lane's
// state is read out at its own step into the tag registers, through its
// mask. Lane l's byte masks come from its text length less li, clamped to
// 0..rate and spread over its bytes: lanes past their text read and write
// nothing, and their input is taken from T.
func (k *kern) ragged(store func(VecPhysical, int, string)) {
	r, w := k.rate(), k.words
	z := fl.regs
	t, length, end, end7, iota0, iota1 := k.b, k.t, k.ctx, k.x1, z[26], z[27]
	rv, v, tag0, tag1 := z[28], z[29], z[30], z[31]
	Label(k.name + "_ragged")
	// length: each lane's text length in both its quadwords, from u's bits;
	// end: its blocks' end, the step it starts Finalize at; end7: the step
	// its tag is ready at.
	vload(field(jlU), length)
	VPUNPCKHQDQ(length, length, length)
	VPSRLQ(U8(3), length, length)
	MOVQ(U32(r), tmp)
	VPBROADCASTQ(tmp, rv)
	MOVQ(U32(r-1), tmp)
	VPBROADCASTQ(tmp, end)
	VPADDQ(length, end, end)
	shift := map[int]uint8{16: 4, 32: 5}[r]
	VPSRLQ(U8(shift), end, end)
	VPSLLQ(U8(shift), end, end)
	MOVQ(U32(7*r), tmp)
	VPBROADCASTQ(tmp, end7)
	VPADDQ(end, end7, end7)
	VBROADCASTI32X4(iotaBytes, iota0)
	if w == 8 {
		VBROADCASTI32X4(iotaBytes.Offset(16), iota1)
	}
	s2 := map[int]int{8: 2, 6: 3}[w]
	k.raggedPhases(func(name string, open bool) {
		// The steps in pairs, each ending in the other bank; the loop
		// leaves from either, the state no longer needed.
		Label(k.name + "_" + name + "Loop")
		for h := range 2 {
			pre := name + []string{"A", "B"}[h]
			lbl := func(x string) string { return pre + x }
			VPBROADCASTQ(li, v)
			VPCMPEQQ(end, v, K3)
			KORTESTW(K3, K3)
			JZ(k.label(lbl("Tag")))
			VPXORQ(field(jlU), k.s[s2], k.o0)
			VMOVDQA64(k.o0, K3, t)
			Label(k.name + "_" + lbl("Tag"))
			VPCMPEQQ(end7, v, K3)
			KORTESTW(K3, K3)
			JZ(k.label(lbl("Step")))
			CMPQ(field(jlTagSize), U8(16))
			JNE(k.label(lbl("Tag32")))
			k.xorWords(k.o0, k.s[:min(w, 7)])
			VMOVDQA64(k.o0, K3, tag0)
			JMP(k.label(lbl("Step")))
			Label(k.name + "_" + lbl("Tag32"))
			k.xorWords(k.o0, k.s[:w/2])
			k.xorWords(k.o1, k.s[w/2:])
			VMOVDQA64(k.o0, K3, tag0)
			VMOVDQA64(k.o1, K3, tag1)
			Label(k.name + "_" + lbl("Step"))
			TESTQ(n, n)
			JZ(k.label("rtags"))
			// K3: the lanes still in their text; K6: the others.
			VPCMPUQ(U8(6), v, end, K3)
			KORTESTW(K3, K3)
			JZ(k.label(lbl("Final")))
			VPCMPUQ(U8(2), v, end, K6)
			VPSUBQ(v, length, v)
			VPMAXSQ(k.zero, v, v)
			VPMINUQ(rv, v, v)
			VPSHUFB(k.zero, v, v)
			VPCMPUB(U8(1), v, iota0, K4)
			if w == 8 {
				VPCMPUB(U8(1), v, iota1, K5)
			}
			k.maskedStep(open, []Op{K4, K5}, k.halves(), func(x VecPhysical) { VMOVDQA64(t, K6, x) })
			JMP(k.label(lbl("Next")))
			Label(k.name + "_" + lbl("Final"))
			k.update(t, t, nil)
			Label(k.name + "_" + lbl("Next"))
			ADDQ(U8(r), li)
			DECQ(n)
			k.swap()
		}
		JMP(k.label(name + "Loop"))
	})
	Label(k.name + "_rtags")
	CMPQ(field(jlTagSize), U8(16))
	JNE(k.label("rtags32"))
	store(tag0, 0, "rtags16")
	JMP(k.label("tags"))
	Label(k.name + "_rtags32")
	store(tag0, 0, "rtags32Lo")
	store(tag1, 1, "rtags32Hi")
	JMP(k.label("tags"))
}

// raggedVEX is ragged for the VAES256 kernels, which have neither byte
// masks nor spare registers: per-lane pointers do the masks' work. A lane
// reads and writes its whole blocks in place, its partial block as the
// zero-padded copy at last (written over with the output, as the exact
// shapes' is), and after its text reads Finalize's input t from the job
// (rT, set at its end step) and writes its idle output to adLast, no
// longer needed; its tag goes to the job (rTag) at its own step. Open
// absorbs c ^ (keystream & mask), the mask that of the lane's text bytes
// in the block, from tailMask by their count: the plaintext zero-padded,
// or t, which the lane read as its c, past the text. A step moves each
// lane's pointers by its stride (rStride: the rate in place, else 0); only
// at the lane's next event (rNext: its partial block, end and tag) does it
// set them anew from its public length, so that plain steps cost little
// more than the plain loop's.
func (k *kern) raggedVEX(store func(VecPhysical, int, string)) {
	r, w := k.rate(), k.words
	rest, ptr := R12, R14
	mp := lsrc[2:] // the lanes' masks, open
	s2 := map[int]int{8: 2, 6: 3}[w]
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	Label(k.name + "_ragged")
	k.raggedPhases(func(name string, open bool) {
		for l := range k.nl() {
			MOVQ(li, field(jlRNext+8*l))
		}
		Label(k.name + "_" + name + "Loop")
		for l := range k.nl() {
			lbl := func(x string) string { return name + x + string(rune('0'+l)) }
			next, stride := field(jlRNext+8*l), field(jlRStride+8*l)
			CMPQ(li, next)
			JNE(k.label(lbl("Same")))
			// rest: the lane's text bytes from li on, negative past it.
			MOVQ(field(jlU+16*l+8), rest)
			SHRQ(U8(3), rest)
			SUBQ(li, rest)
			CMPQ(rest, U8(r))
			JL(k.label(lbl("Part")))
			// Whole blocks, in place, to the last of them.
			MOVQ(field(jlSrc+8*l), lsrc[l])
			ADDQ(li, lsrc[l])
			MOVQ(field(jlDst+8*l), ldst[l])
			ADDQ(li, ldst[l])
			MOVQ(U32(r), stride)
			if open {
				LEAQ(tailMask, mp[l])
			}
			ANDQ(I8(-r), rest)
			ADDQ(li, rest)
			MOVQ(rest, next)
			JMP(k.label(lbl("Same")))
			Label(k.name + "_" + lbl("Part"))
			TESTQ(rest, rest)
			JLE(k.label(lbl("End")))
			// The partial block, the copy.
			LEAQ(field(jlLast+32*l), lsrc[l])
			MOVQ(lsrc[l], ldst[l])
			MOVQ(U32(0), stride)
			if open {
				LEAQ(tailMask.Offset(32), mp[l])
				SUBQ(rest, mp[l])
			}
			LEAQ(Mem{Base: li, Disp: r}, ptr)
			MOVQ(ptr, next)
			JMP(k.label(lbl("Same")))
			Label(k.name + "_" + lbl("End"))
			CMPQ(rest, I8(-r))
			JLE(k.label(lbl("Tag")))
			// The end: t = S2 ^ u (S3 ^ u), read from rT from here on.
			VPXOR(field(jlU), k.s[s2], k.b)
			for _, i := range k.halves() {
				k.extract(l, k.b, field(jlRT+32*l+16*i))
			}
			LEAQ(field(jlRT+32*l), lsrc[l])
			LEAQ(field(jlADLast+32*l), ldst[l])
			MOVQ(U32(0), stride)
			if open {
				LEAQ(tailMask.Offset(32), mp[l])
			}
			LEAQ(Mem{Base: li, Disp: 7 * r}, ptr)
			MOVQ(ptr, next)
			JMP(k.label(lbl("Same")))
			// Seven steps on, the tag; no event after it.
			Label(k.name + "_" + lbl("Tag"))
			MOVQ(I32(-1), next)
			CMPQ(field(jlTagSize), U8(16))
			JNE(k.label(lbl("Tag32")))
			k.xorWords(k.o0, k.s[:min(w, 7)])
			k.extract(l, k.o0, field(jlRTag+32*l))
			JMP(k.label(lbl("Same")))
			Label(k.name + "_" + lbl("Tag32"))
			k.xorWords(k.o0, k.s[:w/2])
			k.xorWords(k.o1, k.s[w/2:])
			k.extract(l, k.o0, field(jlRTag+32*l))
			k.extract(l, k.o1, field(jlRTag+32*l+16))
			Label(k.name + "_" + lbl("Same"))
		}
		TESTQ(n, n)
		JZ(k.label("rtagsVEX"))
		at := func(regs []GPPhysical, l, i int) Mem { return Mem{Base: regs[l], Disp: 16 * i} }
		if open {
			k.update(k.o0, k.o1, func() {
				for _, i := range k.halves() {
					for l := range k.nl() {
						k.insert(l, at(lsrc, l, i), ms[i])
					}
					k.keystream(i, os[i], ms[i])
					for l := range k.nl() {
						k.extract(l, os[i], at(ldst, l, i))
					}
					// os = c ^ (keystream & mask), the keystream in ms.
					vxor(os[i], ms[i], ms[i])
					for l := range k.nl() {
						k.insert(l, at(mp, l, i), k.t)
					}
					VPANDN(ms[i], k.t, ms[i])
					vxor(ms[i], os[i], os[i])
				}
			})
		} else {
			for _, i := range k.halves() {
				for l := range k.nl() {
					k.insert(l, at(lsrc, l, i), ms[i])
				}
			}
			k.update(k.m0, k.m1, func() {
				for _, i := range k.halves() {
					k.keystream(i, os[i], ms[i])
					for l := range k.nl() {
						k.extract(l, os[i], at(ldst, l, i))
					}
				}
			})
		}
		for l := range k.nl() {
			ADDQ(field(jlRStride+8*l), lsrc[l])
			ADDQ(field(jlRStride+8*l), ldst[l])
		}
		ADDQ(U8(r), li)
		DECQ(n)
		JMP(k.label(name + "Loop"))
	})
	Label(k.name + "_rtagsVEX")
	for i, pre := range []string{"rtags16", "rtags32"} {
		if i == 0 {
			CMPQ(field(jlTagSize), U8(16))
			JNE(k.label("rtags32"))
		} else {
			Label(k.name + "_rtags32")
		}
		for h := range i + 1 {
			for l := range k.nl() {
				k.insert(l, field(jlRTag+32*l+16*h), os[h])
			}
		}
		for h := range i + 1 {
			store(os[h], h, pre+[]string{"Lo", "Hi"}[h])
		}
		JMP(k.label("tags"))
	}
}

// textBlocks emits Enc (Dec) of the n whole blocks of every lane, its
// labels starting with name.
func (k *kern) textBlocks(name string, open bool) {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	TESTQ(n, n)
	JZ(k.label(name + "Last"))
	if fl.evex && k.words == 6 {
		k.textPairs(name, open)
		return
	}
	whole := fl.evex && k.words == 8
	k.loop(name, func() {
		if whole {
			k.gatherWhole()
		} else {
			k.gather(k.m0, k.m1)
		}
		in := ms
		if open {
			in = os
		}
		k.update(in[0], in[1], func() {
			for _, i := range k.halves() {
				k.keystream(i, os[i], ms[i])
				if !whole {
					k.scatter(os[i], i)
				}
			}
			if whole {
				k.scatterWhole()
			}
		})
	})
}

// textPairs is textBlocks for AEGIS-256 in zmm: two blocks of every lane
// a turn, gathered and scattered as AEGIS-128L's whole blocks are (the
// first block in M0's place, the second in M1's), where gather and scatter
// take six shuffles a block on the port VAESENC leaves to them; and an odd
// last block as textBlocks runs it. The odd block goes last so that the
// 32-byte loads and stores of blocks from a 32-byte boundary do not cross
// cache lines.
func (k *kern) textPairs(name string, open bool) {
	step := func(m, o VecPhysical) {
		in := m
		if open {
			in = o
		}
		k.update(in, nil, func() { k.keystream(0, o, m) })
	}
	CMPQ(n, U8(2))
	JB(k.label(name + "Odd"))
	Label(k.name + "_" + name + "Loop")
	k.gatherWhole()
	step(k.m0, k.o0)
	k.swap()
	step(k.m1, k.o1)
	k.swap()
	k.scatterWhole()
	ADDQ(U8(32), li)
	SUBQ(U8(2), n)
	CMPQ(n, U8(2))
	JAE(k.label(name + "Loop"))
	Label(k.name + "_" + name + "Odd")
	TESTQ(n, n)
	JZ(k.label(name + "Last"))
	k.once(func() {
		k.gather(k.m0, nil)
		step(k.m0, k.o0)
		k.scatter(k.o0, 0)
		ADDQ(U8(16), li)
	})
}

// gatherWhole is gather for AEGIS-128L's whole blocks in zmm: each lane's
// 32 bytes in one load, two lanes to a register (o0: lanes 0 and 1, o1: 2
// and 3), and M0 and M1 of every lane picked out of them, in four
// shuffles where gather takes six inserts.
func (k *kern) gatherWhole() {
	for h, r := range []VecPhysical{k.o0, k.o1} {
		vload(laneMem(lsrc, 2*h, 0), r.AsY().(VecPhysical))
		VINSERTI64X4(U8(1), laneMem(lsrc, 2*h+1, 0), r, r)
	}
	VSHUFI64X2(U8(0x88), k.o1, k.o0, k.m0)
	VSHUFI64X2(U8(0xdd), k.o1, k.o0, k.m1)
}

// scatterWhole stores every lane's whole output block, M0's in o0 and
// M1's in o1: two lanes' blocks put together in x0 by one permutation and
// stored as 32 bytes each, half the stores of scatter (which measured a
// fifth faster on blocks streamed from L2).
func (k *kern) scatterWhole() {
	for h := range 2 {
		vload(laneOrder.Offset(64*h), k.x0)
		VPERMI2Q(k.o1, k.o0, k.x0)
		vstore(k.x0.AsY().(VecPhysical), laneMem(ldst, 2*h, 0))
		VEXTRACTI64X4(U8(1), k.x0, laneMem(ldst, 2*h+1, 0))
	}
}

// maskedStep emits Enc (Dec) of every lane's block at li through the byte
// masks in ks (K4 and K5, as restMasks leaves them): masked-off bytes are
// neither read nor written, and load as zeros. It runs the halves hs: with
// M0 alone, M1 is empty in every lane, absorbed as zeros. mix changes the
// input halves before they are absorbed (their lanes' output stored).
func (k *kern) maskedStep(open bool, ks []Op, hs []int, mix func(r VecPhysical)) {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	if len(hs) < len(k.halves()) {
		ms[1], os[1] = k.zero, k.zero
	}
	if open {
		// The plaintext, zeroed past each lane's end, is absorbed.
		k.gatherMasked(ks, hs, os[0], os[1])
		k.update(os[0], os[1], func() {
			for _, i := range hs {
				k.keystream(i, os[i], os[i])
				VMOVDQU8_Z(os[i], ks[i], os[i])
				k.scatterMasked(ks[i], os[i], i)
				if mix != nil {
					mix(os[i])
				}
			}
		})
		return
	}
	k.gatherMasked(ks, hs, ms[0], ms[1])
	for _, i := range hs {
		if mix != nil {
			mix(ms[i])
		}
	}
	k.update(ms[0], ms[1], func() {
		for _, i := range hs {
			k.keystream(i, os[i], ms[i])
			k.scatterMasked(ks[i], os[i], i)
		}
	})
}

// restMasks sets K4 and K5 (K4 alone for AEGIS-256) to the byte masks of
// the lanes' partial last blocks of associated data (q 0) or text (q 1),
// from their bit lengths in u, and returns them: the Go side only says
// whether there are partial blocks (kAD and kLast not zero). It takes Z26
// to Z28, which only ragged uses besides.
func (k *kern) restMasks(q int) []Op {
	iota0, iota1, v := fl.regs[26], fl.regs[27], fl.regs[28]
	shift := map[int]uint8{16: 4, 32: 5}[k.rate()]
	vload(field(jlU), v)
	if q == 1 {
		VPUNPCKHQDQ(v, v, v)
	}
	// Each lane's bytes in its last block, a byte spread over the lane.
	VPSLLQ(U8(61-shift), v, v)
	VPSRLQ(U8(64-shift), v, v)
	VPSHUFB(k.zero, v, v)
	VBROADCASTI32X4(iotaBytes, iota0)
	VPCMPUB(U8(1), v, iota0, K4)
	if k.words == 8 {
		VBROADCASTI32X4(iotaBytes.Offset(16), iota1)
		VPCMPUB(U8(1), v, iota1, K5)
	}
	return []Op{K4, K5}
}

// lastVEX is the partial last blocks for the VAES256 kernels: Enc of the
// zero-padded copies at last, or for open DecPartial, the output's bytes
// past each lane's ciphertext masked off with the mask at the lane's mask
// pointer; the output goes over the copies.
func (k *kern) lastVEX(open bool) {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	k.gatherJob(jlLast, k.m0, k.m1)
	in := ms
	if open {
		in = os
	}
	k.update(in[0], in[1], func() {
		for _, i := range k.halves() {
			k.keystream(i, os[i], ms[i])
			if open {
				// b is free until the update's rounds.
				for l := range k.nl() {
					MOVQ(field(jlMask+8*l), tmp)
					k.insert(l, Mem{Base: tmp, Disp: 16 * i}, k.b)
				}
				vand(k.b, os[i], os[i])
			}
			for l := range k.nl() {
				k.extract(l, os[i], field(jlLast+32*l+16*i))
			}
		}
	})
}

// gatherJob is gather from the lanes' 32-byte blocks in the job at field f.
func (k *kern) gatherJob(f int, r0, r1 VecPhysical) {
	for i, r := range []VecPhysical{r0, r1}[:len(k.halves())] {
		for l := range k.nl() {
			k.insert(l, field(f+32*l+16*i), r)
		}
	}
}

// nl is the number of lanes: 4 in zmm, 2 in ymm.
func (k *kern) nl() int { return int(fl.regs[0].Size()) / 16 }

// lanePtrs loads the lane pointers at job field f into regs.
func (k *kern) lanePtrs(f int, regs []GPPhysical) {
	for l, r := range regs[:k.nl()] {
		MOVQ(field(f+8*l), r)
	}
}

// laneMem returns half i of the current block of lane l at regs.
func laneMem(regs []GPPhysical, l, i int) Mem {
	return Mem{Base: regs[l], Index: li, Scale: 1, Disp: 16 * i}
}

// insert loads the 16 bytes at m into lane l of r, the first zeroing the
// others.
func (k *kern) insert(l int, m Mem, r VecPhysical) {
	switch {
	case l == 0:
		vload(m, r.AsX().(VecPhysical))
	case fl.evex:
		VINSERTI32X4(U8(l), m, r, r)
	default:
		VINSERTI128(U8(l), m, r, r)
	}
}

// extract stores lane l of r to m.
func (k *kern) extract(l int, r VecPhysical, m Mem) {
	switch {
	case l == 0:
		vstore(r.AsX().(VecPhysical), m)
	case fl.evex:
		VEXTRACTI32X4(U8(l), r, m)
	default:
		VEXTRACTI128(U8(l), r, m)
	}
}

// gather loads the current block of every lane, M0 into r0 and M1 into r1
// (M0 alone for AEGIS-256).
func (k *kern) gather(r0, r1 VecPhysical) {
	rs := []VecPhysical{r0, r1}
	for _, i := range k.halves() {
		for l := range k.nl() {
			k.insert(l, laneMem(lsrc, l, i), rs[i])
		}
	}
}

// scatter stores half i of every lane's output block, in r.
func (k *kern) scatter(r VecPhysical, i int) {
	for l := range k.nl() {
		k.extract(l, r, laneMem(ldst, l, i))
	}
}

// gatherMasked is gather of the halves hs for the partial blocks, with the
// byte masks of the halves in ks: bits 16l to 16l+15 of a half's mark lane
// l's bytes. Masked-off bytes are not read and load as zeros.
func (k *kern) gatherMasked(ks []Op, hs []int, r0, r1 VecPhysical) {
	rs := []VecPhysical{r0, r1}
	x := k.x0.AsX()
	for _, i := range hs {
		VMOVDQU8_Z(laneMem(lsrc, 0, i), ks[i], rs[i].AsX())
		for l := 1; l < 4; l++ {
			KSHIFTRQ(U8(16*l), ks[i], K2)
			VMOVDQU8_Z(laneMem(lsrc, l, i), K2, x)
			VINSERTI32X4(U8(l), x, rs[i], rs[i])
		}
	}
}

// scatterMasked stores the bytes of half i of every lane's output block,
// in r, that the mask in kr marks.
func (k *kern) scatterMasked(kr Op, r VecPhysical, i int) {
	x := k.x0.AsX()
	VMOVDQU8(r.AsX(), kr, laneMem(ldst, 0, i))
	for l := 1; l < 4; l++ {
		KSHIFTRQ(U8(16*l), kr, K2)
		VEXTRACTI32X4(U8(l), r, x)
		VMOVDQU8(x, K2, laneMem(ldst, l, i))
	}
}

// raggedPhases emits a ragged group's message phase for seal and then for
// open: the plain loop over the n whole blocks every lane has, and the
// load of steps into n; then body, which emits the steps, its labels
// starting with name.
func (k *kern) raggedPhases(body func(name string, open bool)) {
	for _, open := range []bool{false, true} {
		name := "rseal"
		if open {
			name = "ropen"
		} else {
			CMPQ(op, U8(opOpen))
			JE(k.label("ropen"))
		}
		Label(k.name + "_" + name)
		k.textBlocks(name+"Blocks", open)
		Label(k.name + "_" + name + "BlocksLast")
		MOVQ(field(jlSteps), n)
		body(name, open)
	}
}
