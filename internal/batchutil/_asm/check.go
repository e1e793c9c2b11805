// Command check generates check_amd64.s: the AVX-512 pass of CheckSeal and
// CheckOpen over a batch's messages, eight at a time.
//
// Each step loads the pointers and lengths of the AD, In and Out of eight
// messages, 16 bytes a message (VMOVDQU and VINSERTI32X4), and splits them
// into one register a field (VPUNPCKLQDQ, VPUNPCKHQDQ), then runs the Go
// loop's tests (firstBadSeal, firstBadOpen, misplaced) on the eight side by
// side, in compares to mask registers; the nonces' lengths it tests in
// scalar registers. Measured, 512 messages, alternating runs: a step took
// 13% less time with the nonces' lengths in scalar registers than with a
// seventh gather (VPGATHERQQ at batch.Message's stride, a field of eight
// messages each), and the 16-byte loads a further fifth to a third less
// than the six gathers left; the 64-byte rows of eight messages transposed
// in registers took as long as the gathers. Eight messages without
// associated data (the common batch), which a scalar OR of their AD's
// lengths tells, skip the AD's loads and tests, a fifth of a step's time;
// from the first eight with some, the kernel runs the full steps (the OR's
// cost, measured, made batches with AD 5% slower). It stops before the
// first eight with a bad message, for the Go loop to find which.
package main

import (
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../check_amd64.s -pkg batchutil

// batch.Message's layout (layout_amd64_test.go pins it): its size and the
// offsets of the fields the checks read.
const (
	msgSize     = 104
	msgNonceLen = 8
	msgAD       = 24
	msgADLen    = 32
	msgIn       = 48
	msgInLen    = 56
	msgOut      = 72
	msgOutLen   = 80
)

// Predicates of VPCMPQ and VPCMPUQ.
const (
	lt = 1
	ne = 4
)

func main() {
	ConstraintExpr("!purego")
	kernel("checkSealAVX512", false)
	kernel("checkOpenAVX512", true)
	Generate()
}

// kernel writes the check of firstBadSeal (or of firstBadOpen, open) for
// msgs[:n&^7], eight messages at a time, up to the first eight with a bad
// message: it returns how many it passed and their Spans.
func kernel(name string, open bool) {
	TEXT(name, NOSPLIT, "func(msgs *byte, n, tagSize, nonceSize int) (done, minIn, maxIn, maxAD int)")
	Pragma("noescape")
	p, end, i, t := GP64(), GP64(), GP64(), GP64()
	Load(Param("msgs"), p)
	Load(Param("n"), end)
	ANDQ(I8(-8), end)
	XORL(i.As32(), i.As32())

	tag, ones := ZMM(), ZMM()
	minIn, maxIn, maxAD := ZMM(), ZMM(), ZMM()
	Load(Param("tagSize"), t)
	VPBROADCASTQ(t, tag)
	ns := GP64()
	Load(Param("nonceSize"), ns)
	VPTERNLOGQ(U8(0xff), ones, ones, ones) // -1
	MOVQ(U64(math.MaxInt64), t)
	VPBROADCASTQ(t, minIn)
	VPXORQ(maxIn, maxIn, maxIn)
	VPXORQ(maxAD, maxAD, maxAD)
	var zero VecVirtual // CheckOpen's floor of Out's length
	if open {
		zero = ZMM()
		VPXORQ(zero, zero, zero)
	}

	// Each batch runs steps without associated data (loop(false)) up to
	// the first eight messages with some, from which it runs the full steps
	// (loop(true)): a step that skips the AD takes about a fifth less time.
	step := func(withAD bool) {
		loop := name + "_loop"
		if withAD {
			loop += "AD"
		}
		Label(loop)
		CMPQ(i, end)
		JAE(LabelRef(name + "_done"))
		// ads: not 0 where some AD is not empty (first: the full step
		// redoes what came before); bad: not 0 where a nonce's length is
		// wrong.
		if !withAD {
			ads := GP64()
			MOVQ(Mem{Base: p, Disp: msgADLen}, ads)
			for k := 1; k < 8; k++ {
				ORQ(Mem{Base: p, Disp: k*msgSize + msgADLen}, ads)
			}
			JNZ(LabelRef(name + "_loopAD"))
		}
		bad, u := GP64(), GP64()
		XORL(bad.As32(), bad.As32())
		for k := range 8 {
			MOVQ(Mem{Base: p, Disp: k*msgSize + msgNonceLen}, u)
			XORQ(ns, u)
			ORQ(u, bad)
		}
		in, inLen, out, outLen := ZMM(), ZMM(), ZMM(), ZMM()
		pairs(p, msgIn, in, inLen)
		pairs(p, msgOut, out, outLen)

		// K2: a wrong Out length.
		want := ZMM()
		if open {
			VPSUBQ(tag, inLen, want)
			VPMAXSQ(zero, want, want)
		} else {
			VPADDQ(tag, inLen, want)
		}
		VPCMPQ(U8(ne), want, outLen, K2)

		// misplaced's tests: a range [b, b+lb), not empty, meets Out, [o,
		// o+lo+1), where b+lb-(o+1) < lb+lo, unsigned; that is where
		// o+lo-b < lb+lo (c-1-a < c exactly where a < c, modulo 2^64),
		// whose o+lo both tests share. CheckOpen tests only an Out that is
		// not empty (K5); CheckSeal's, len(In)+tagSize bytes, is, or its
		// length is wrong.
		oEnd, lo := ZMM(), ZMM()
		VPADDQ(ones, outLen, lo)
		VPADDQ(lo, out, oEnd)
		if open {
			VPTESTMQ(outLen, outLen, K5)
		}
		nonEmpty := func(l VecVirtual, k OpmaskPhysical) {
			if open {
				VPTESTMQ(l, l, K5, k)
			} else {
				VPTESTMQ(l, l, k)
			}
		}
		meets := func(b, lb VecVirtual, k OpmaskPhysical) {
			x, c := ZMM(), ZMM()
			VPSUBQ(b, oEnd, x)
			VPADDQ(lb, lo, c)
			VPCMPUQ(U8(lt), c, x, k, k)
		}
		// K3: an In that meets Out other than from its start (in place).
		nonEmpty(inLen, K3)
		VPCMPQ(U8(ne), out, in, K3, K3)
		meets(in, inLen, K3)
		var adLen VecVirtual
		if withAD {
			// K4: an AD that meets Out, which joins K3.
			var ad VecVirtual
			ad, adLen = ZMM(), ZMM()
			pairs(p, msgAD, ad, adLen)
			nonEmpty(adLen, K4)
			meets(ad, adLen, K4)
			KORW(K3, K4, K3)
		}
		KORTESTW(K2, K3) // any of K2 to K4
		JNZ(LabelRef(name + "_done"))
		TESTQ(bad, bad)
		JNZ(LabelRef(name + "_done"))

		VPMINSQ(inLen, minIn, minIn)
		VPMAXSQ(inLen, maxIn, maxIn)
		if withAD {
			VPMAXSQ(adLen, maxAD, maxAD)
		}
		ADDQ(U32(8*msgSize), p)
		ADDQ(U8(8), i)
		JMP(LabelRef(loop))
	}
	step(false)
	step(true)

	Label(name + "_done")
	Store(i, Return("done"))
	reduce := func(z VecVirtual, f func(...Op), ret string) {
		y, x, x2 := YMM(), XMM(), XMM()
		VEXTRACTI64X4(U8(1), z, y)
		f(y, z.AsY(), y)
		VEXTRACTI128(U8(1), y, x)
		f(x, y.AsX(), x)
		VPSHUFD(U8(0x4e), x, x2)
		f(x2, x, x)
		MOVQ(x, t)
		Store(t, Return(ret))
	}
	reduce(minIn, VPMINSQ, "minIn")
	reduce(maxIn, VPMAXSQ, "maxIn")
	reduce(maxAD, VPMAXSQ, "maxAD")
	VZEROUPPER()
	RET()
}

// pairs loads the slice at off (its pointer and length, 16 bytes) of eight
// messages from p: the pointers in ptr, the lengths in n,
// messages 0, 4, 1, 5, 2, 6, 3, 7 in lanes 0 to 7.
func pairs(p GPVirtual, off int, ptr, n VecVirtual) {
	var h [2]VecVirtual
	for j := range h {
		h[j] = ZMM()
		VMOVDQU64(Mem{Base: p, Disp: 4*j*msgSize + off}, h[j].AsX()) // EVEX: X16 to X31 too
		for k := 1; k < 4; k++ {
			VINSERTI32X4(U8(k), Mem{Base: p, Disp: (4*j+k)*msgSize + off}, h[j], h[j])
		}
	}
	VPUNPCKLQDQ(h[1], h[0], ptr)
	VPUNPCKHQDQ(h[1], h[0], n)
}
