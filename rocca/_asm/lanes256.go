package main

import (
	"fmt"

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
// whether there are partial blocks (see raggedVEX for ragged groups). With
// 16 registers the two banks of the state take 14, the input block the
// other two: the keystream goes into the new bank before the round writes
// it, and the round's constant inputs are memory operands.

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
	k.textBlocksVEX(name, open)
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

// textBlocksVEX emits the encryption (decryption) of the lN whole blocks
// of every lane, its labels starting with name.
func (k *lanes) textBlocksVEX(name string, open bool) {
	TESTQ(lN, lN)
	JZ(k.label(name + "Last"))
	k.loop(name, func() {
		k.gather(k.m0, k.m1)
		o0, o1 := k.cryptVEX(open)
		k.scatter(o0, 0)
		k.scatter(o1, 1)
		k.round(k.m0, k.m1)
	})
}

// raggedVEX is ragged for the VAES256 kernel, which has neither byte masks
// nor spare registers: per-lane pointers do the masks' work. A lane reads
// and writes its whole blocks in place, its partial block as the
// zero-padded copy at last (lane l's 32 bytes at 32l, written over with
// the output), and after its text reads Finalize's input, its bit lengths,
// from rT and writes its idle output to adLast, no longer needed; its tag
// goes to rTag at its own step, whence the tags' store takes them in t0
// and t1. Open absorbs c ^ (keystream & mask), the mask that of the lane's
// text bytes in the block, from tailMask by their count: the plaintext
// zero-padded, or the bit lengths, which the lane read as its c, past the
// text. A step moves each lane's pointers by its stride (rStride: 32 in
// place, else 0); only at the lane's next event (rNext: its partial block,
// end and tag) does it set them anew from its public length, so that
// plain steps cost little more than the plain loop's.
func (k *lanes) raggedVEX(t0, t1 VecPhysical) {
	rest, ptr := R12, R14
	mp := lSrc[2:] // the lanes' masks, open
	k.here("ragged")
	for l := range k.nl() {
		x := k.m0.AsX()
		VMOVDQU(lfield(jlADLen+16*l), x)
		VMOVDQU(x, lfield(jlRT+32*l))
		VMOVDQU(lfield(jlMLen+16*l), x)
		VMOVDQU(x, lfield(jlRT+32*l+16))
	}
	at := func(regs []GPPhysical, l, i int) Mem { return Mem{Base: regs[l], Disp: 16 * i} }
	k.raggedPhases(func(name string, open bool) {
		for l := range k.nl() {
			MOVQ(lI, lfield(jlRNext+8*l))
		}
		// The steps in pairs, each ending in the other bank; the loop
		// leaves from either, the state no longer needed.
		k.here(name + "Loop")
		for h := range 2 {
			for l := range k.nl() {
				lbl := func(x string) string { return fmt.Sprintf("%s%s%d%d", name, x, h, l) }
				next, stride := lfield(jlRNext+8*l), lfield(jlRStride+8*l)
				CMPQ(lI, next)
				JNE(k.label(lbl("Same")))
				// rest: the lane's text bytes from lI on, negative past it.
				MOVQ(lfield(jlMLen+16*l), rest)
				SHRQ(U8(3), rest)
				SUBQ(lI, rest)
				CMPQ(rest, U8(32))
				JL(k.label(lbl("Part")))
				// Whole blocks, in place, to the last of them.
				MOVQ(lfield(jlSrc+8*l), lSrc[l])
				ADDQ(lI, lSrc[l])
				MOVQ(lfield(jlDst+8*l), lDst[l])
				ADDQ(lI, lDst[l])
				MOVQ(U32(32), stride)
				if open {
					LEAQ(tailMask, mp[l])
				}
				ANDQ(I8(-32), rest)
				ADDQ(lI, rest)
				MOVQ(rest, next)
				JMP(k.label(lbl("Same")))
				k.here(lbl("Part"))
				TESTQ(rest, rest)
				JLE(k.label(lbl("End")))
				// The partial block, the copy.
				LEAQ(lfield(jlLast+32*l), lSrc[l])
				MOVQ(lSrc[l], lDst[l])
				MOVQ(U32(0), stride)
				if open {
					LEAQ(tailMask.Offset(32), mp[l])
					SUBQ(rest, mp[l])
				}
				LEAQ(Mem{Base: lI, Disp: 32}, ptr)
				MOVQ(ptr, next)
				JMP(k.label(lbl("Same")))
				k.here(lbl("End"))
				CMPQ(rest, I8(-32))
				JLE(k.label(lbl("Tag")))
				// The end: the bit lengths, from rT, from here on.
				LEAQ(lfield(jlRT+32*l), lSrc[l])
				LEAQ(lfield(jlADLast+32*l), lDst[l])
				MOVQ(U32(0), stride)
				if open {
					LEAQ(tailMask.Offset(32), mp[l])
				}
				LEAQ(Mem{Base: lI, Disp: 16 * 32}, ptr)
				MOVQ(ptr, next)
				JMP(k.label(lbl("Same")))
				// Sixteen steps on, the tag; no event after it.
				k.here(lbl("Tag"))
				MOVQ(I32(-1), next)
				s, n := k.s, k.nx
				VPXOR(s[0], s[1], n[0])
				VPXOR(s[2], n[0], n[0])
				VPXOR(s[3], n[0], n[0])
				VPXOR(s[4], s[5], n[1])
				VPXOR(s[6], n[1], n[1])
				k.extract(l, n[0], lfield(jlRTag+32*l))
				k.extract(l, n[1], lfield(jlRTag+32*l+16))
				k.here(lbl("Same"))
			}
			TESTQ(lN, lN)
			JZ(k.label("rtagsVEX"))
			ms := []VecPhysical{k.m0, k.m1}
			for i, m := range ms {
				for l := range k.nl() {
					k.insert(l, at(lSrc, l, i), m)
				}
			}
			os := ms
			o0, o1 := k.cryptVEX(open)
			if !open {
				os = []VecPhysical{o0, o1}
			}
			for i, o := range os {
				for l := range k.nl() {
					k.extract(l, o, at(lDst, l, i))
				}
			}
			if open {
				// m = c ^ (keystream & mask), the keystream in the new
				// bank's first two registers, its next two free.
				n := k.nx
				for i, m := range ms {
					for l := range k.nl() {
						k.insert(l, at(mp, l, i), n[2+i])
					}
					VPANDN(n[i], n[2+i], n[i])
					VPXOR(n[i], m, m)
				}
			}
			k.round(k.m0, k.m1)
			for l := range k.nl() {
				ADDQ(lfield(jlRStride+8*l), lSrc[l])
				ADDQ(lfield(jlRStride+8*l), lDst[l])
			}
			ADDQ(U8(32), lI)
			DECQ(lN)
		}
		JMP(k.label(name + "Loop"))
	})
	k.here("rtagsVEX")
	for i, t := range []VecPhysical{t0, t1} {
		for l := range k.nl() {
			k.insert(l, lfield(jlRTag+32*l+16*i), t)
		}
	}
	JMP(k.label("tags"))
}
