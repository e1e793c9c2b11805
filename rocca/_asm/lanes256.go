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
