package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// lanesVAES256 is lanesVAES512 on ymm registers with VEX encodings, for
// VAES without AVX-512: two messages, one per 128-bit lane. Without byte
// masks it takes the partial blocks as zero-padded copies from the job
// (adLast and last, each a half's two lanes together, as a register holds
// them) and writes the message's output over its copy, and open masks the
// plaintext with the job's mask, laid out alike; kAD and kLast only say
// whether there are partial blocks. With 16 registers the two banks of the
// state take 14, the input block the other two: the keystream goes into the
// new bank before the round writes it, and the round's constant inputs are
// memory operands.

// The offsets of the VAES256 kernel's own fields of laneJob.
const (
	jlADLast = 344
	jlLast   = 408
	jlMask   = 472
)

func lanesKernel256(zz Mem) {
	TEXT("lanesVAES256", NOSPLIT, "func(op int, j *byte)")
	Pragma("noescape")
	Doc("lanesVAES256 seals (op 0) or opens (op 1) the two messages of j.")
	Load(Param("op"), lOp)
	Load(Param("j"), lJob)
	r := []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	k := &lanes{name: "lanesVAES256", s: r[0:7], nx: r[7:14], m0: r[14], m1: r[15]}
	z0, z1 := zz, zz.Offset(32)

	// Init, the key halves in m0 and m1 until the key is added in.
	MOVQ(lfield(jlKey), lTmp)
	VBROADCASTI128(Mem{Base: lTmp}, k.m0)
	VBROADCASTI128(Mem{Base: lTmp, Disp: 16}, k.m1)
	s := k.s
	for l := range 2 {
		MOVQ(lfield(jlNonce+8*l), lTmp)
		k.insert(l, Mem{Base: lTmp}, s[1])
	}
	VMOVDQA(k.m1, s[0])
	VMOVDQU(z0, s[2])
	VMOVDQA(k.m0, s[3])
	VMOVDQU(z1, s[4])
	VPXOR(k.m1, s[1], s[5])
	VPXOR(s[6], s[6], s[6])
	MOVQ(U32(8), lN)
	k.here("init")
	for range 2 {
		k.round(z0, z1)
	}
	DECQ(lN)
	JNZ(k.label("init"))
	for i, key := range []VecPhysical{k.m0, k.m0, k.m1, k.m0, k.m0, k.m1, k.m1} {
		VPXOR(key, k.s[i], k.s[i])
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
		VMOVDQU(lfield(jlADLast), k.m0)
		VMOVDQU(lfield(jlADLast+32), k.m1)
		k.round(k.m0, k.m1)
	})

	// Message.
	k.here("text")
	k.lanePtrs(jlSrc, lSrc)
	k.lanePtrs(jlDst, lDst)
	XORQ(lI, lI)
	MOVQ(lfield(jlN), lN)
	TESTQ(lOp, lOp)
	JNZ(k.label("open"))
	k.textVEX(false)
	JMP(k.label("final"))
	k.here("open")
	k.textVEX(true)

	// Finalization and tags.
	k.here("final")
	MOVQ(U32(8), lN)
	k.here("finalLoop")
	for range 2 {
		k.round(lfield(jlADLen), lfield(jlMLen))
	}
	DECQ(lN)
	JNZ(k.label("finalLoop"))
	s = k.s
	t0, t1 := k.nx[0], k.nx[1]
	VPXOR(s[0], s[1], t0)
	VPXOR(s[2], t0, t0)
	VPXOR(s[3], t0, t0)
	VPXOR(s[4], s[5], t1)
	VPXOR(s[6], t1, t1)
	for l := range 2 {
		MOVQ(lfield(jlTags+8*l), lTmp)
		k.extract(l, t0, Mem{Base: lTmp})
		k.extract(l, t1, Mem{Base: lTmp, Disp: 16})
	}
	VZEROUPPER()
	RET()
}

// cryptVEX XORs the keystream into m0 and m1 (whose output becomes the
// plaintext, absorbed, for open) and returns the output's registers: the
// keystream goes into the new bank's first two registers, which the round
// writes last.
func (k *lanes) cryptVEX(open bool) (o0, o1 VecPhysical) {
	s, n := k.s, k.nx
	VPXOR(s[3], s[5], n[0])
	VPXOR(s[4], s[6], n[1])
	VAESENC(s[0], n[0], n[0])
	VAESENC(s[2], n[1], n[1])
	if open {
		VPXOR(n[0], k.m0, k.m0)
		VPXOR(n[1], k.m1, k.m1)
		return k.m0, k.m1
	}
	VPXOR(k.m0, n[0], n[0])
	VPXOR(k.m1, n[1], n[1])
	return n[0], n[1]
}

// textVEX emits the encryption (decryption) of the n whole blocks of every
// lane and of the partial last blocks if kLast is not zero.
func (k *lanes) textVEX(open bool) {
	name := "enc"
	if open {
		name = "dec"
	}
	TESTQ(lN, lN)
	JZ(k.label(name + "Last"))
	k.loop(name, func() {
		k.gather(k.m0, k.m1)
		o0, o1 := k.cryptVEX(open)
		k.scatter(o0, 0)
		k.scatter(o1, 1)
		k.round(k.m0, k.m1)
	})
	k.here(name + "Last")
	CMPQ(lfield(jlKLast), U8(0))
	JE(k.label(name + "Done"))
	k.once(func() {
		VMOVDQU(lfield(jlLast), k.m0)
		VMOVDQU(lfield(jlLast+32), k.m1)
		o0, o1 := k.cryptVEX(open)
		if open {
			// The plaintext, zeroed past each lane's end, is absorbed.
			VPAND(lfield(jlMask), o0, o0)
			VPAND(lfield(jlMask+32), o1, o1)
		}
		VMOVDQU(o0, lfield(jlLast))
		VMOVDQU(o1, lfield(jlLast+32))
		k.round(k.m0, k.m1)
	})
	k.here(name + "Done")
}
