// Command aegis generates aegis_amd64.s: the AEGIS kernels, one function
// per register width and encoding for each family (AEGIS-128*, eight words
// per lane; AEGIS-256*, six).
//
// A kernel works on a group of lanes as wide as its registers (one lane in
// xmm, two in ymm, four in zmm), the group starting off bytes into every
// word, input block, tag and context. Its arguments are a job (see
// aegis_amd64.go), whose fields it reads at the offsets below: word j of the
// state at s + j*ws; input block k at src + k*step, its half M0 there and
// M1 (AEGIS-128*) ws bytes further; the output of Enc and Dec at the same
// offsets of dst. The Go side calls it once per group, so narrower
// registers can run the parallel modes group by group. op selects one of:
//
//   - absorb: Update with each of the n >= 1 blocks;
//   - enc, dec: Enc or Dec of each of the n >= 1 blocks;
//   - init: Init(key, nonce), with the key and nonce the same for every
//     lane, and the lanes' context blocks at ctx (zero for one lane);
//   - final: Repeat(7, Update(t, t)) (or Update(t)) with t = S2 ^ u (S3 ^ u
//     for AEGIS-256*), then each lane's tag of tagSize bytes (16 or 32) to
//     tags, its first 16 bytes at the lane's offset and the others ws bytes
//     further;
//   - seal, open: a whole message, the state never leaving the registers:
//     init; absorb the adN whole blocks at ad and the zero-padded block at
//     adLast if not nil; Enc (Dec) of the n whole blocks; Enc of the
//     zero-padded block at last, in place, if not nil, or for open
//     DecPartial, its ciphertext bytes marked by 0xff in mask; final. The
//     AVX-512 kernels have separate message kernels (messageKernel) on a
//     shorter job, which read and write the partial blocks in place.
//
// The block operations load the state from s and store it back; init and
// final store it.
//
// The state stays in registers for the whole call. Each Update is one AES
// round per word, and the chain from one update to the next bounds the
// speed, so the kernels keep the message out of the rounds' inputs:
// AESRound(S7, S0 ^ M0) = AESENC(S7, 0) ^ S0 ^ M0, whose XOR with S0 and M0
// waits for S7's round only. The chain through the eight (six) words then
// costs eight (six) AES latencies and two (one) XORs per eight (six)
// updates, where the plain form costs an XOR and an AES latency per update
// on the S0 -> S0 path.
//
// On Zen 4 (AESENC: latency 4 cycles; two per cycle on xmm and ymm, one on
// zmm) that gives these bounds per update and per byte, the plain form's
// latency (AES round plus XOR, 5 cycles) first:
//
//	variant  bytes  plain latency  chain here  AES throughput  bound
//	128L       32   5 (0.156)      4.25        4               0.133
//	128X2      64   5 (0.078)      4.25        4               0.066
//	128X4     128   5 (0.039)      4.25        8               0.0625
//	256        16   5 (0.313)      4.17        3               0.26
//	256X2      32   5 (0.156)      4.17        3               0.13
//	256X4      64   5 (0.078)      4.17        6               0.094
//
// The VEX kernels (AVX: xmm; VAES256: ymm) update the state in place. The
// AVX-512 ones (AVX512: xmm; VAES512Y: ymm; VAES512: zmm) have 32 registers:
// each update writes the other of two banks, so that the block's keystream,
// read from the old bank, can follow the rounds that make the new one, and
// VPTERNLOGD folds each three-input XOR and the keystream's x ^ (y & z)
// into one instruction.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../aegis_amd64.s -pkg aegis

// The kernel operations, numbered as aegis_amd64.go numbers them.
const (
	opAbsorb = 0
	opEnc    = 1
	opDec    = 2
	opInit   = 3
	opFinal  = 4
	opSeal   = 5
	opOpen   = 6
)

// The offsets of the job's fields; TestJobLayout checks them.
const (
	jS       = 0
	jWS      = 8
	jOff     = 16
	jCtx     = 24
	jKey     = 32
	jNonce   = 40
	jSrc     = 48
	jDst     = 56
	jN       = 64
	jStep    = 72
	jAD      = 80
	jADN     = 88
	jADLast  = 96
	jLast    = 104
	jMask    = 112
	jTags    = 120
	jTagSize = 128
	jU       = 136
)

// The offsets of msgJob's fields, the AVX-512 message kernels' operands;
// TestMsgJobLayout checks them.
const (
	mKey     = 0
	mNonce   = 8
	mAD      = 16
	mADLen   = 24
	mSrc     = 32
	mDst     = 40
	mLen     = 48
	mTag     = 56
	mTagSize = 64
	mCtx     = 72
)

// VPTERNLOGD truth tables: the destination (A) XOR the two sources, and
// A ^ (B & C).
const (
	xor3   = 0x96
	xorAnd = 0x78
)

// A flavor is a register width and an encoding.
type flavor struct {
	name string
	regs []VecPhysical // 16 registers, or 32 with AVX-512
	evex bool          // AVX-512: EVEX mnemonics, two banks, VPTERNLOGD
	// oneLane: the Go side runs only the one-lane variants on the flavor
	// (AVX512: the X2 and X4 modes take VAES512Y and VAES512), whose
	// context blocks are zero, so Init leaves them out: ten (sixteen)
	// updates' two XORs each on the chain and on the AES units' ports.
	oneLane bool
}

var (
	xmm = []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15,
		X16, X17, X18, X19, X20, X21, X22, X23, X24, X25, X26, X27, X28, X29, X30, X31}
	ymm = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15,
		Y16, Y17, Y18, Y19, Y20, Y21, Y22, Y23, Y24, Y25, Y26, Y27, Y28, Y29, Y30, Y31}
	zmm = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
)

var flavors = []flavor{
	{"AVX", xmm[:16], false, false},
	{"AVX512", xmm, true, true},
	{"VAES256", ymm[:16], false, false},
	{"VAES512Y", ymm, true, false},
	{"VAES512", zmm, true, false},
}

// General-purpose registers.
var (
	op    = RAX
	jp    = RBX // the job
	sp    = RCX // the state
	ws    = RDX // word size: stride of the words, offset of M1
	src   = RSI
	dst   = RDI
	n     = R8
	step  = R9
	p     = R10
	count = R11
	off   = R12 // the group's offset into every per-lane array
	tmp   = R13
)

// field returns field f of the job.
func field(f int) Mem { return Mem{Base: jp, Disp: f} }

// lanePtr loads per-lane pointer field f into r, offset to the group.
func lanePtr(f int, r GPPhysical) {
	MOVQ(field(f), r)
	ADDQ(off, r)
}

// fl is the flavor being generated.
var fl flavor

// The constants of Init, and iotaBytes, tailMask and laneOrder (see
// lanes.go).
var c0, c1, iotaBytes, tailMask, laneOrder Mem

func main() {
	ConstraintExpr("!purego")
	c0 = GLOBL("c0", RODATA|NOPTR)
	DATA(0, U64(0x0d08050302010100))
	DATA(8, U64(0x6279e99059372215))
	c1 = GLOBL("c1", RODATA|NOPTR)
	DATA(0, U64(0xf12fc26d55183ddb))
	DATA(8, U64(0xdd28b57342311120))
	// The bytes' indexes in a block, for the ragged lanes' byte masks.
	iotaBytes = GLOBL("iota", RODATA|NOPTR)
	for i := range 32 {
		DATA(i, U8(i))
	}
	// The quadwords of M0 (0 to 7) and M1 (8 to 15) in the order of the
	// lanes' whole blocks, lanes 0 and 1 and then 2 and 3 (scatterWhole).
	laneOrder = GLOBL("laneOrder", RODATA|NOPTR)
	for i, q := range []uint64{0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15} {
		DATA(8*i, U64(q))
	}
	// 32 bytes 0xff, then 32 zeros: the VAES256 ragged lanes' mask of n
	// bytes starts 32-n bytes in.
	tailMask = GLOBL("tail", RODATA|NOPTR)
	for i := range 8 {
		v := uint64(0)
		if i < 4 {
			v = ^v
		}
		DATA(8*i, U64(v))
	}
	for _, f := range flavors {
		fl = f
		kernel(8)
		kernel(6)
	}
	for _, f := range []flavor{{"LanesVAES512", zmm, true, true}, {"LanesVAES256", ymm[:16], false, true}} {
		fl = f
		lanesKernel(8)
		lanesKernel(6)
	}
	Generate()
}

func vxor(a, b, d Op) {
	if fl.evex {
		VPXORD(a, b, d)
	} else {
		VPXOR(a, b, d)
	}
}

func vand(a, b, d Op) {
	if fl.evex {
		VPANDD(a, b, d)
	} else {
		VPAND(a, b, d)
	}
}

func vor(a, b, d Op) {
	if fl.evex {
		VPORD(a, b, d)
	} else {
		VPOR(a, b, d)
	}
}

func vmov(a, b VecPhysical) {
	if fl.evex {
		VMOVDQA64(a, b)
	} else {
		VMOVDQA(a, b)
	}
}

func vload(m Mem, r VecPhysical) {
	if fl.evex {
		VMOVDQU64(m, r)
	} else {
		VMOVDQU(m, r)
	}
}

func vstore(r VecPhysical, m Mem) {
	if fl.evex {
		VMOVDQU64(r, m)
	} else {
		VMOVDQU(r, m)
	}
}

// vbroadcast loads the 16 bytes at m into every lane of r.
func vbroadcast(m Mem, r VecPhysical) {
	switch {
	case fl.regs[0].Size() == 16:
		vload(m, r)
	case fl.evex:
		VBROADCASTI32X4(m, r)
	default:
		VBROADCASTI128(m, r)
	}
}

type kern struct {
	name  string
	words int
	// s holds the state; an update writes it to n, which is s itself for
	// the VEX kernels and the other bank for the AVX-512 ones.
	s, n []VecPhysical
	// zero, message halves, output halves, the rounds that become S0 (b)
	// and S4 (t) in the VEX kernels, the context block and two spares.
	zero, m0, m1, o0, o1, b, t, ctx, x0, x1 VecPhysical
	// lanes: a batch kernel (batch.go), each lane its own message.
	lanes bool
	// onMsgJob: an AVX-512 message kernel, whose operands are a msgJob.
	onMsgJob bool
}

// field returns job field f, or for a message kernel msgJob's field of
// that name.
func (k *kern) field(f int) Mem {
	if k.onMsgJob {
		f = map[int]int{jKey: mKey, jNonce: mNonce, jCtx: mCtx, jTags: mTag, jTagSize: mTagSize}[f]
	}
	return field(f)
}

// kernel emits the kernel of the family with the given number of words.
func kernel(words int) {
	family := map[int]string{8: "128", 6: "256"}[words]
	name := "aegis" + family + fl.name
	TEXT(name, NOSPLIT, "func(op int, j *byte)")
	Pragma("noescape")
	Load(Param("op"), op)
	Load(Param("j"), jp)
	MOVQ(field(jWS), ws)
	MOVQ(field(jOff), off)
	lanePtr(jS, sp)

	k := newKern(name, words)
	CMPQ(op, U8(opInit))
	JE(k.label("init"))
	if !fl.evex {
		CMPQ(op, U8(opSeal))
		JE(k.label("seal"))
		CMPQ(op, U8(opOpen))
		JE(k.label("open"))
	}
	k.moveState(true)
	CMPQ(op, U8(opEnc))
	JE(k.label("enc"))
	CMPQ(op, U8(opDec))
	JE(k.label("dec"))
	CMPQ(op, U8(opFinal))
	JE(k.label("final"))

	k.blocks()
	k.loop("absorb", k.absorb)
	JMP(k.label("done"))

	Label(k.name + "_enc")
	k.blocks()
	lanePtr(jDst, dst)
	k.loop("enc", k.enc)
	JMP(k.label("done"))

	Label(k.name + "_dec")
	k.blocks()
	lanePtr(jDst, dst)
	k.loop("dec", k.dec)
	JMP(k.label("done"))

	Label(k.name + "_init")
	k.init("init")
	JMP(k.label("done"))

	Label(k.name + "_final")
	k.final("final", false)
	k.moveState(false)
	k.swap()
	k.ret()

	Label(k.name + "_done")
	k.moveState(false)
	k.ret()

	if !fl.evex {
		for _, open := range []bool{false, true} {
			k.message(open)
		}
		return
	}
	messageKernel(words)
}

// messageKernel emits an AVX-512 flavor's seal and open on a msgJob (see
// aegis_amd64.go), which gives the message's buffers and lengths and no
// more: the kernel, one call for all lanes, derives the block counts, the
// partial blocks' byte masks and Finalize's lengths itself, so that a call
// writes ten words of operands (a short message spent as long in Go
// filling a job as the kernel's init took).
func messageKernel(words int) {
	family := map[int]string{8: "128", 6: "256"}[words]
	name := "aegis" + family + fl.name + "Message"
	TEXT(name, NOSPLIT, "func(op int, j *byte)")
	Pragma("noescape")
	Load(Param("op"), op)
	Load(Param("j"), jp)
	MOVQ(U32(fl.regs[0].Size()), ws)
	XORQ(off, off)
	k := newKern(name, words)
	k.onMsgJob = true
	CMPQ(op, U8(opOpen))
	JE(k.label("open"))
	for _, open := range []bool{false, true} {
		k.message(open)
	}
}

// newKern assigns fl's registers to a kernel of the family with the given
// number of words and emits the zeroing of its zero register.
func newKern(name string, words int) *kern {
	k := &kern{name: name, words: words}
	r := fl.regs
	if fl.evex {
		k.s, k.n = r[:words], r[8:8+words]
		r = r[16:]
	} else {
		k.s, k.n = r[:words], r[:words]
		r = r[words:]
	}
	k.zero, k.m0, k.m1, k.o0, k.o1, k.b, k.t, k.ctx = r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]
	if fl.evex {
		k.x0, k.x1 = r[8], r[9]
	} else {
		k.x0, k.x1 = fl.regs[14], fl.regs[15] // free with six words
	}
	vxor(k.zero, k.zero, k.zero)
	return k
}

// blocks loads src, n and step for a block operation.
func (k *kern) blocks() {
	lanePtr(jSrc, src)
	MOVQ(field(jN), n)
	MOVQ(field(jStep), step)
}

// message emits seal or open (see the file comment).
func (k *kern) message(open bool) {
	name := "seal"
	if open {
		name = "open"
	}
	l := func(s string) string { return name + s }
	Label(k.name + "_" + name)
	k.init(l("Init"))

	if k.onMsgJob {
		k.messageMasked(open, l)
	} else {
		k.messageVEX(open, l)
	}
	k.final(l("Final"), true)
	k.swap()
	k.ret()
}

// messageVEX absorbs the associated data and encrypts (decrypts) the
// message of a job, the partial blocks from zero-padded copies.
func (k *kern) messageVEX(open bool, l func(string) string) {
	MOVQ(field(jStep), step)
	lanePtr(jAD, src)
	MOVQ(field(jADN), n)
	TESTQ(n, n)
	JZ(k.label(l("ADLast")))
	k.loop(l("AD"), k.absorb)
	Label(k.name + "_" + l("ADLast"))
	k.ifPtr(jADLast, l("NoADLast"), func() {
		MOVQ(tmp, src)
		k.once(k.absorb)
	})

	lanePtr(jSrc, src)
	lanePtr(jDst, dst)
	MOVQ(field(jN), n)
	TESTQ(n, n)
	k.wholeBlocks(open, l)
	k.ifPtr(jLast, l("NoLast"), func() {
		MOVQ(tmp, src)
		MOVQ(tmp, dst)
		if open {
			lanePtr(jMask, p)
			k.once(k.decPartial)
		} else {
			k.once(k.enc)
		}
	})
}

// wholeBlocks emits Enc (Dec) of the n whole blocks of the message, none if
// the flags say n is zero, and the label Last after them.
func (k *kern) wholeBlocks(open bool, l func(string) string) {
	JZ(k.label(l("Last")))
	if open {
		k.loop(l("Blocks"), k.dec)
	} else {
		k.loop(l("Blocks"), k.enc)
	}
	Label(k.name + "_" + l("Last"))
}

// messageMasked absorbs the associated data and encrypts (decrypts) the
// message of a msgJob, the partial blocks in place through byte masks.
func (k *kern) messageMasked(open bool, l func(string) string) {
	rate := k.rate() * int(fl.regs[0].Size()) / 16 // all lanes'
	shift := map[int]uint8{16: 4, 32: 5, 64: 6, 128: 7, 256: 8}[rate]
	MOVQ(U32(rate), step)
	MOVQ(field(mAD), src)
	MOVQ(field(mADLen), n)
	SHRQ(U8(shift), n)
	JZ(k.label(l("ADLast")))
	k.loop(l("AD"), k.absorb)
	Label(k.name + "_" + l("ADLast"))
	// The loops leave src (and dst) at the partial blocks.
	k.ifRest(mADLen, l("NoADLast"), func() {
		k.loadMasked(k.m0, k.m1)
		k.once(func() { k.update(k.m0, k.m1, nil) })
	})
	MOVQ(field(mSrc), src)
	MOVQ(field(mDst), dst)
	MOVQ(field(mLen), n)
	SHRQ(U8(shift), n)
	k.wholeBlocks(open, l)
	k.ifRest(mLen, l("NoLast"), func() { k.once(func() { k.lastMasked(open) }) })
}

// ifRest emits body, with K1 and K2 (K1 alone for AEGIS-256*) set to the
// byte masks of M0 and M1 of the partial last block of the bytes whose
// count is msgJob field f, if there is one: bit i set for byte i of the
// block. A mask's bits past the half's bytes are ignored.
func (k *kern) ifRest(f int, skip string, body func()) {
	ws := int(fl.regs[0].Size())
	MOVQ(field(f), tmp)
	ANDQ(U32(k.rate()*ws/16-1), tmp)
	JZ(k.label(skip))
	MOVQ(I32(-1), p)
	BZHIQ(tmp, p, count)
	KMOVQ(count, K1)
	if k.words == 8 {
		if ws < 64 {
			// At most 2*ws-1 < 64 bytes: M1's are the bits past M0's.
			SHRQ(U8(ws), count)
		} else {
			XORQ(count, count)
			SUBQ(U8(64), tmp)
			CMOVQCS(count, tmp) // no bytes of M1
			BZHIQ(tmp, p, count)
		}
		KMOVQ(count, K2)
	}
	body()
	Label(k.name + "_" + skip)
}

// ifPtr emits body, with job field f offset to the group in tmp, if the
// field is not nil.
func (k *kern) ifPtr(f int, skip string, body func()) {
	MOVQ(field(f), tmp)
	TESTQ(tmp, tmp)
	JZ(k.label(skip))
	ADDQ(off, tmp)
	body()
	Label(k.name + "_" + skip)
}

// once emits body for one block; with two banks it then moves the state
// back to the first, where the code that follows expects it.
func (k *kern) once(body func()) {
	body()
	if fl.evex {
		k.swap()
		for j := range k.s {
			vmov(k.s[j], k.n[j])
		}
		k.swap()
	}
}

// ret clears the upper halves of the vector registers if need be and
// returns.
func (k *kern) ret() {
	if fl.regs[0].Size() > 16 {
		VZEROUPPER()
	}
	RET()
}

func (k *kern) label(l string) LabelRef { return LabelRef(k.name + "_" + l) }

// moveState loads (or stores) the state words, ws bytes apart.
func (k *kern) moveState(load bool) {
	MOVQ(sp, p)
	for j, w := range k.s {
		if j > 0 {
			ADDQ(ws, p)
		}
		if load {
			vload(Mem{Base: p}, w)
		} else {
			vstore(w, Mem{Base: p})
		}
	}
}

// swap makes the bank an update wrote the current one.
func (k *kern) swap() { k.s, k.n = k.n, k.s }

// msg returns input half i (M0 or M1) of the current block.
func (k *kern) msg(i int) Mem {
	if i == 0 {
		return Mem{Base: src}
	}
	return Mem{Base: src, Index: ws, Scale: 1}
}

func (k *kern) out(i int) Mem {
	if i == 0 {
		return Mem{Base: dst}
	}
	return Mem{Base: dst, Index: ws, Scale: 1}
}

// loop emits a loop that runs body, one block, n >= 1 times, stepping
// src and dst. With two banks it runs body in pairs, an odd one first, so
// that the state ends in the bank it started in.
func (k *kern) loop(name string, body func()) {
	step1 := func() {
		body()
		if k.lanes {
			ADDQ(U8(k.rate()), li)
			return
		}
		ADDQ(step, src)
		ADDQ(step, dst)
	}
	if !fl.evex {
		Label(k.name + "_" + name + "Loop")
		step1()
		DECQ(n)
		JNZ(k.label(name + "Loop"))
		return
	}
	TESTQ(U32(1), n)
	JZ(k.label(name + "Loop"))
	k.once(step1)
	DECQ(n)
	JZ(k.label(name + "End"))
	Label(k.name + "_" + name + "Loop")
	step1()
	k.swap()
	step1()
	k.swap()
	SUBQ(U8(2), n)
	JNZ(k.label(name + "Loop"))
	Label(k.name + "_" + name + "End")
}

// absorb is Update with the current block.
func (k *kern) absorb() { k.update(k.msg(0), k.msg(1), nil) }

// update runs Update(m0, m1), or Update(m0) for AEGIS-256*: word j becomes
// AESENC(S[j-1], S[j]), and S0 (and S4) AESENC(S[j-1], 0) ^ S[j] ^ M. The
// rounds that feed S0 and S4 go first, being on the critical chain. m0 and
// m1 are registers or memory. extra, the block's keystream, goes first in
// place and, with two banks, after the rounds (which measured best on Zen 4).
func (k *kern) update(m0, m1 Op, extra func()) {
	s, nx, w := k.s, k.n, k.words
	if !fl.evex {
		// In place: each word is overwritten only after the round that
		// reads it as data.
		if extra != nil {
			extra()
		}
		vxor(m0, s[0], k.m0)
		if w == 8 {
			vxor(m1, s[4], k.m1)
		}
		VAESENC(k.zero, s[w-1], k.b)
		if w == 8 {
			VAESENC(k.zero, s[3], k.t)
		}
		for j := w - 1; j >= 1; j-- {
			if w == 8 && j == 4 {
				vxor(k.m1, k.t, s[4])
				continue
			}
			VAESENC(s[j], s[j-1], s[j])
		}
		vxor(k.m0, k.b, s[0])
		return
	}
	VAESENC(k.zero, s[w-1], nx[0])
	if w == 8 {
		VAESENC(k.zero, s[3], nx[4])
	}
	for j := 1; j < w; j++ {
		if w == 8 && j == 4 {
			continue
		}
		VAESENC(s[j], s[j-1], nx[j])
	}
	if extra != nil {
		extra()
	}
	VPTERNLOGD(U8(xor3), m0, s[0], nx[0])
	if w == 8 {
		VPTERNLOGD(U8(xor3), m1, s[4], nx[4])
	}
}

// keystream sets r to input half i, in in, XOR its keystream: z0 = S1 ^
// S6 ^ (S2 & S3), z1 = S2 ^ S5 ^ (S6 & S7) for AEGIS-128*, z = S1 ^ S4 ^ S5
// ^ (S2 & S3) for AEGIS-256*. With AVX-512, whose three-input instructions
// overwrite their first operand, in may be nil: the half is loaded again
// from src into r.
func (k *kern) keystream(i int, r, in VecPhysical) {
	s := k.s
	var a, b, c, d VecPhysical
	switch {
	case k.words == 6:
		a, b, c, d = s[1], s[4], s[2], s[3]
	case i == 0:
		a, b, c, d = s[1], s[6], s[2], s[3]
	default:
		a, b, c, d = s[2], s[5], s[6], s[7]
	}
	if fl.evex {
		if in == nil {
			vload(k.msg(i), r)
		} else if in != r {
			vmov(in, r)
		}
		// S1 (and S5) last: opening absorbs r, and those words' rounds
		// are the ones that wait for the XOR into S0 (S4) that r feeds.
		if k.words == 6 {
			VPTERNLOGD(U8(xor3), b, s[5], r)
			VPTERNLOGD(U8(xorAnd), d, c, r)
			vxor(a, r, r)
			return
		}
		VPTERNLOGD(U8(xorAnd), d, c, r)
		VPTERNLOGD(U8(xor3), b, a, r)
		return
	}
	vand(d, c, k.t)
	vxor(in, a, r)
	vxor(b, r, r)
	if k.words == 6 {
		vxor(s[5], r, r)
	}
	vxor(k.t, r, r)
}

func (k *kern) halves() []int {
	if k.words == 8 {
		return []int{0, 1}
	}
	return []int{0}
}

// enc is Enc: the output is the input block XOR the keystream, and the
// input block, read before any output is written, is absorbed.
func (k *kern) enc() {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	for _, i := range k.halves() {
		vload(k.msg(i), ms[i])
	}
	k.update(k.m0, k.m1, func() {
		for _, i := range k.halves() {
			k.keystream(i, os[i], k.vexOnly(ms[i]))
			vstore(os[i], k.out(i))
		}
	})
}

// vexOnly returns r for the VEX kernels and nil for the AVX-512 ones, for
// keystream: reloading the input measured best with AVX-512.
func (k *kern) vexOnly(r VecPhysical) VecPhysical {
	if fl.evex {
		return nil
	}
	return r
}

// dec is Dec: the output is the input block XOR the keystream, and the
// output is absorbed.
func (k *kern) dec() {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	k.update(k.o0, k.o1, func() {
		for _, i := range k.halves() {
			if !fl.evex {
				vload(k.msg(i), ms[i])
			}
			k.keystream(i, os[i], k.vexOnly(ms[i]))
			vstore(os[i], k.out(i))
		}
	})
}

// decPartial is DecPartial for the zero-padded block at src, in place: the
// output is its ciphertext XOR the keystream, masked by the mask at p to
// the ciphertext's bytes, and is absorbed. VEX kernels only (see
// lastMasked).
func (k *kern) decPartial() {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	k.update(k.o0, k.o1, func() {
		for _, i := range k.halves() {
			vload(k.msg(i), ms[i])
			k.keystream(i, os[i], ms[i])
			mask := Mem{Base: p}
			if i == 1 {
				mask = Mem{Base: p, Index: ws, Scale: 1}
			}
			vand(mask, os[i], os[i])
			vstore(os[i], k.out(i))
		}
	})
}

// The AVX-512 kernels take the partial last blocks of associated data and
// message from the caller's buffers through byte masks, where the others
// take zero-padded copies: a 16-byte load of a copy that narrower stores
// just wrote would wait for them to retire. The masks (K1 and K2, see
// ifRest) mark the bytes of M0 and of M1 that are input; masked-off bytes
// are neither read nor written, so nothing past the buffers is touched.

// loadMasked loads the input halves at src under the masks K1 and K2,
// zero-padded, into r0 and r1 (r0 only for AEGIS-256*).
func (k *kern) loadMasked(r0, r1 VecPhysical) {
	VMOVDQU8_Z(k.msg(0), K1, r0)
	if k.words == 8 {
		VMOVDQU8_Z(k.msg(1), K2, r1)
	}
}

// lastMasked is Enc of the zero-padded last block at src, or for open
// DecPartial of it, with the masks K1 and K2, the output's input bytes
// written to dst.
func (k *kern) lastMasked(open bool) {
	ms, os := []VecPhysical{k.m0, k.m1}, []VecPhysical{k.o0, k.o1}
	ks := []Op{K1, K2}
	if open {
		// The ciphertext goes to the output registers; the plaintext,
		// zeroed past its end, is absorbed.
		k.loadMasked(k.o0, k.o1)
		k.update(k.o0, k.o1, func() {
			for _, i := range k.halves() {
				k.keystream(i, os[i], os[i])
				VMOVDQU8_Z(os[i], ks[i], os[i])
				VMOVDQU8(os[i], ks[i], k.out(i))
			}
		})
		return
	}
	k.loadMasked(k.m0, k.m1)
	k.update(k.m0, k.m1, func() {
		for _, i := range k.halves() {
			k.keystream(i, os[i], ms[i])
			VMOVDQU8(os[i], ks[i], k.out(i))
		}
	})
}

// xorCtx XORs the context blocks into S3 and S[j] before an update of
// Init, unless they are zero.
func (k *kern) xorCtx(j int) {
	if fl.oneLane {
		return
	}
	vxor(k.ctx, k.s[3], k.s[3])
	vxor(k.ctx, k.s[j], k.s[j])
}

// init emits Init, whose loop is labeled pre.
func (k *kern) init(pre string) {
	if k.lanes {
		MOVQ(field(jlKey), tmp)
	} else {
		MOVQ(k.field(jKey), tmp)
		MOVQ(k.field(jNonce), p)
	}
	if !fl.oneLane {
		MOVQ(k.field(jCtx), count)
		ADDQ(off, count)
		vload(Mem{Base: count}, k.ctx)
	}
	if k.words == 8 {
		k.init128(pre)
	} else {
		k.init256(pre)
	}
}

// loadNonce sets every lane of r to the 16 bytes disp bytes into the nonce:
// the one at p, or each lane's own in a batch kernel.
func (k *kern) loadNonce(disp int, r VecPhysical) {
	if !k.lanes {
		vbroadcast(Mem{Base: p, Disp: disp}, r)
		return
	}
	for l := range k.nl() {
		MOVQ(field(jlNonce+8*l), p)
		k.insert(l, Mem{Base: p, Disp: disp}, r)
	}
}

// init128 sets the AEGIS-128* state from the key K at tmp and the nonce N
// at p and runs Repeat(10, XOR ctx into S3 and S7, Update(N, K)).
func (k *kern) init128(pre string) {
	s := k.s
	key, nonce := k.x0, k.x1
	if !fl.evex {
		key, nonce = k.o0, k.o1 // no spares with eight words
	}
	vbroadcast(Mem{Base: tmp}, key)
	k.loadNonce(0, nonce)
	vbroadcast(c0, s[2])
	vbroadcast(c1, s[1])
	vxor(key, nonce, s[0])
	vxor(key, nonce, s[4])
	vxor(key, s[2], s[5])
	vxor(key, s[2], s[7])
	vxor(key, s[1], s[6])
	vmov(s[1], s[3])
	MOVQ(U32(5), count)
	Label(k.name + "_" + pre + "Loop")
	for range 2 {
		k.xorCtx(7)
		k.update(nonce, key, nil)
		k.swap()
	}
	DECQ(count)
	JNZ(k.label(pre + "Loop"))
}

// init256 sets the AEGIS-256* state from the key K0 || K1 at tmp and the
// nonce N0 || N1 at p and runs Repeat(4, Update(K0), Update(K1),
// Update(K0 ^ N0), Update(K1 ^ N1)), each Update after XORing ctx into S3
// and S5.
func (k *kern) init256(pre string) {
	s := k.s
	k0, k1, kn0, kn1 := k.o0, k.o1, k.x0, k.x1
	vbroadcast(Mem{Base: tmp}, k0)
	vbroadcast(Mem{Base: tmp, Disp: 16}, k1)
	k.loadNonce(0, kn0)
	k.loadNonce(16, kn1)
	vbroadcast(c0, s[3])
	vbroadcast(c1, s[2])
	vxor(k0, kn0, kn0)
	vxor(k1, kn1, kn1)
	vmov(kn0, s[0])
	vmov(kn1, s[1])
	vxor(k0, s[3], s[4])
	vxor(k1, s[2], s[5])
	MOVQ(U32(4), count)
	Label(k.name + "_" + pre + "Loop")
	for _, m := range []VecPhysical{k0, k1, kn0, kn1} {
		k.xorCtx(5)
		k.update(m, nil, nil)
		k.swap()
	}
	DECQ(count)
	JNZ(k.label(pre + "Loop"))
}

// final emits Finalize's seven updates and stores each lane's tag, or, if
// combine, the XOR of the lanes' tags to the tag at tags, XORed into what
// the groups before wrote there; its labels start with pre. With two banks
// the state ends in the other one.
func (k *kern) final(pre string, combine bool) {
	if combine {
		MOVQ(k.field(jTags), dst)
	} else {
		lanePtr(jTags, dst)
	}
	k.finalTags(pre, func(r VecPhysical, i int, l string) { k.storeTag(r, combine, i, l) })
}

// finalTags emits Finalize and passes store half i of every lane's tag in
// r, with a label prefix; its labels start with pre.
func (k *kern) finalTags(pre string, store func(r VecPhysical, i int, pre string)) {
	k.finalUpdates(pre)
	w := k.words
	// A 16-byte tag is the XOR of S0..S6 (S0..S5); a 32-byte one that of
	// the first and of the second half of the words.
	s, tag := k.s, k.xorWords
	CMPQ(field(k.tagSizeField()), U8(16))
	JNE(k.label(pre + "Tag32"))
	if w == 8 {
		tag(k.o0, s[:7])
	} else {
		tag(k.o0, s)
	}
	store(k.o0, 0, pre+"Tag16")
	JMP(k.label(pre + "Done"))
	Label(k.name + "_" + pre + "Tag32")
	tag(k.o0, s[:w/2])
	tag(k.o1, s[w/2:])
	store(k.o0, 0, pre+"Tag32Lo")
	store(k.o1, 1, pre+"Tag32Hi")
	Label(k.name + "_" + pre + "Done")
}

// xorWords sets r to the XOR of words.
func (k *kern) xorWords(r VecPhysical, words []VecPhysical) {
	vxor(words[0], words[1], r)
	for _, x := range words[2:] {
		vxor(x, r, r)
	}
}

// finalUpdates emits Finalize's seven updates, its loop labeled pre.
func (k *kern) finalUpdates(pre string) {
	w := k.words
	t := k.ctx // free here
	k.loadU(t)
	if w == 8 {
		vxor(k.s[2], t, t)
	} else {
		vxor(k.s[3], t, t)
	}
	k.update(t, t, nil)
	k.swap()
	MOVQ(U32(3), count)
	Label(k.name + "_" + pre + "Loop")
	for range 2 {
		k.update(t, t, nil)
		k.swap()
	}
	DECQ(count)
	JNZ(k.label(pre + "Loop"))
}

// loadU sets every lane of r to the job's u. The Go side writes u as two
// 8-byte halves, and a 16-byte load of them would wait for the stores to
// retire (a failed store forwarding, tens of cycles on the chain into the
// tag), so u is loaded as the halves and put together here.
func (k *kern) loadU(r VecPhysical) {
	if k.lanes {
		// Each lane's own, written long before the load.
		vload(field(jlU), r)
		return
	}
	x := r.AsX().(VecPhysical)
	if k.onMsgJob {
		// The lengths in bits, from those in bytes.
		VMOVQ(field(mADLen), x)
		VPINSRQ(U8(1), field(mLen), x, x)
		VPSLLQ(U8(3), x, x)
	} else {
		VMOVQ(field(jU), x)
		VPINSRQ(U8(1), field(jU+8), x, x)
	}
	switch {
	case r.Size() == 16:
	case fl.evex:
		VSHUFI64X2(U8(0), r, r, r)
	default:
		VINSERTI128(U8(1), x, r, r)
	}
}

// storeTag stores the lanes' tag halves in r, half i of each lane's tag:
// at the lane's offset and ws bytes further for i = 1, or, if combine, the
// XOR of all lanes to the 16 bytes at dst + 16*i, XORed into them unless this
// is the first group (off 0). The first group stores without reading, so
// the caller need not clear the tag: its narrow stores would fail to
// forward to the kernel's 16-byte load, which would then wait for them to
// retire. Labels start with pre.
func (k *kern) storeTag(r VecPhysical, combine bool, i int, pre string) {
	if !combine {
		vstore(r, k.out(i))
		return
	}
	x, tx := r.AsX().(VecPhysical), k.t.AsX()
	switch fl.regs[0].Size() {
	case 64:
		VEXTRACTI64X4(U8(1), r, k.t.AsY())
		VPXORD(k.t.AsY(), r.AsY(), r.AsY())
		VEXTRACTI32X4(U8(1), r.AsY(), tx)
		VPXORD(tx, x, x)
	case 32:
		if fl.evex {
			VEXTRACTI32X4(U8(1), r, tx)
			VPXORD(tx, x, x)
		} else {
			VEXTRACTI128(U8(1), r, tx)
			VPXOR(tx, x, x)
		}
	}
	m := Mem{Base: dst, Disp: 16 * i}
	TESTQ(off, off)
	JZ(k.label(pre + "Store"))
	vxor(m, x, x)
	Label(k.name + "_" + pre + "Store")
	vstore(x, m)
}
