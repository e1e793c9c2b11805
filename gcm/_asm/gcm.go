// Command gcm generates gcm_amd64.s: GCM's AES-NI and PCLMULQDQ kernels on
// xmm registers, in AVX encodings and again in legacy SSE ones (enc.go), and
// its VAES and VPCLMULQDQ kernels on ymm and zmm registers (wide.go; the
// contract is in gcm_amd64.go).
//
// GHASH works on byte-reversed blocks, bit-reflected 128-bit integers, and
// multiplies them by powers of H stored as H^k·x^-1 (kernelKey): one
// PCLMULQDQ product of the two is then the field product, reflected, as a
// 256-bit integer, with no shift. Each block's product takes three
// multiplications (Karatsuba, the middle operand precomputed), and the
// products of a group of blocks, each by the power of H that brings it to
// the group's end (H^8 for the first of eight, ..., H^1), are summed
// unreduced: one reduction per group. The reduction folds the low 128 bits
// (the high powers of x) twice by 64 bits, multiplying by x^64 modulo P with
// one PCLMULQDQ by 0xc2 << 56 (x^7 + x^2 + x, reflected, shifted) and a swap
// of halves (Gueron and Kounavis, "Intel Carry-Less Multiplication
// Instruction and its Usage for Computing the GCM Mode", 2014).
//
// Seal and Open stitch counter mode and GHASH: eight counter blocks go
// through the AES rounds while eight ciphertext blocks are hashed between
// them, one block per round and the reduction in the ninth. Open hashes the
// group it decrypts; Seal hashes the group it encrypted in the iteration
// before, and the last one after its loop. Fewer than eight blocks at the end
// take one more group of AES, whose keystream goes to the stack, and are
// hashed one at a time (with the right powers, one reduction).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../gcm_amd64.s -pkg gcm

// numPowers, ymmPowers and karaPowers must equal gcm's: kernelKey holds
// H^numPowers .. H^1, then the Karatsuba operands of H^karaPowers .. H^1,
// the powers the xmm kernels take. initAESNI fills up to ymmPowers, the
// most the VAES256 kernels take.
const (
	numPowers  = 65
	ymmPowers  = 33
	karaPowers = 9
)

// keyType is kernelKey's type.
var keyType = fmt.Sprintf("*[%d][16]byte", numPowers+karaPowers)

// General-purpose registers.
var (
	nr   = RAX // rounds
	rk   = RBX // round keys
	key  = RCX // *kernelKey
	dst  = RDI
	src  = RSI
	n    = RDX // blocks left
	p    = R8  // rk + 16*(nr-10): round keys nr-9..nr at 16(p)..160(p)
	prev = R9  // Seal: the group encrypted in the iteration before
	off  = R10 // tail: offset of the next block's power in pow
	idx  = R11 // tail: offset of the next block
	t    = R12
	// The xmm message kernels' partial blocks: their length in bytes, and
	// copyBytes' pointers.
	rest     = R13
	from, to = R9, R14
)

// Vector registers.
var (
	blocks = []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7} // counter blocks in the rounds
	acc0   = X8                                            // low product; the GHASH state between groups
	acc1   = X9                                            // high product
	accM   = X10                                           // middle product
	t0     = X11                                           // the block being hashed
	t1     = X12
	rkey   = X13 // the round key of the round in progress; in SSE, between rounds, memory operands of the hashing
	bswap  = X14 // VPSHUFB mask reversing 16 bytes
	ctr    = X15 // the next counter block, byte-reversed: the counter is dword 0
)

var bswapMask, poly, incs, partMask, partShuf Mem

func main() {
	ConstraintExpr("!purego")
	bswapMask = GLOBL("gcmBswap", RODATA|NOPTR)
	DATA(0, U64(0x08090a0b0c0d0e0f))
	DATA(8, U64(0x0001020304050607))
	// x^-1 = x^127 + x^6 + x + 1, reflected; the high word is used.
	poly = GLOBL("gcmPoly", RODATA|NOPTR)
	DATA(0, U64(1))
	DATA(8, U64(0xc200000000000000))
	// incs[i] adds i to a byte-reversed counter block's counter (dword 0).
	incs = GLOBL("gcmIncs", RODATA|NOPTR)
	for i := 0; i <= 8; i++ {
		DATA(16*i, U64(uint64(i)))
		DATA(16*i+8, U64(0))
	}

	// 16 bytes of ones, then 16 of zeros: at 16-r, the mask of r bytes.
	partMask = GLOBL("gcmPartMask", RODATA|NOPTR)
	DATA(0, U64(^uint64(0)))
	DATA(8, U64(^uint64(0)))
	DATA(16, U64(0))
	DATA(24, U64(0))

	// partShuf[c] puts the c bytes of a partial block in place from the two
	// loads of loadPartial, s bytes each, at bytes 0 and 8, and zeros the
	// rest: byte j < s from the first, s <= j < c from the second.
	partShuf = GLOBL("gcmPartShuf", RODATA|NOPTR)
	for c := range 16 {
		s := 1
		for 2*s <= c {
			s *= 2
		}
		for j := range 16 {
			b := byte(0x80)
			switch {
			case j < min(s, c):
				b = byte(j)
			case j < c:
				b = byte(j + 8 + s - c)
			}
			DATA(16*c+j, U8(b))
		}
	}

	wideConstants()

	for _, e := range []encoding{avx, legacy} {
		enc = e
		initKey()
		ghash()
		mulH()
		seal()
		open()
		message(sealOp)
		message(openOp)
	}
	enc = avx
	for _, g := range []*wide{{name: "VAES256", w: 2, group: 16}, {name: "VAES512", w: 4, group: 32, zmm: true}} {
		g.ghash()
		g.crypt(sealOp)
		g.crypt(openOp)
		g.message(sealOp)
		g.message(openOp)
		if g.zmm {
			g.init()
		}
	}
	Generate()
}

// pow addresses H^k, k in 1..numPowers, and kara its Karatsuba operand, k
// in 1..karaPowers.
func pow(k int) Mem  { return Mem{Base: key, Disp: 16 * (numPowers - k)} }
func kara(k int) Mem { return Mem{Base: key, Disp: 16 * (numPowers + karaPowers - k)} }

// product says how a block's product with a power of H is formed.
type product int

const (
	// karatsuba: three multiplications, the power's middle operand
	// precomputed: the fewest on the multiplier's port, for GHASH alone.
	karatsuba product = iota
	// schoolbook: four multiplications and no shuffle, for the stitched
	// loops, whose AES rounds contend for the shuffle ports.
	schoolbook
)

// mulAcc adds the unreduced product of the reflected block in x and the
// power at pw (with Karatsuba operand ka) to the accumulators, or sets them
// when first. In SSE, rkey holds the power (it is free between AES rounds),
// and the last product by it takes its place: one copy fewer.
func mulAcc(p product, first bool, x VecPhysical, pw, ka Mem) {
	h, last := memOp(pw, rkey), t1
	if enc.sse {
		last = rkey
	}
	add := func(imm uint8, m Op, x, acc, tmp VecPhysical) {
		if first {
			clmul(imm, m, x, acc)
			return
		}
		clmul(imm, m, x, tmp)
		xor(tmp, acc, acc)
	}
	add(0x00, h, x, acc0, t1)
	if p == schoolbook {
		add(0x11, h, x, acc1, t1)
		add(0x01, h, x, accM, t1)
		clmul(0x10, h, x, last)
		xor(last, accM, accM)
		return
	}
	add(0x11, h, x, acc1, last)
	shufd(0x4e, x, t1)
	xor(x, t1, t1)
	if first {
		clmul(0x00, ka, t1, accM)
		return
	}
	clmul(0x00, memOp(ka, rkey), t1, t1)
	xor(t1, accM, accM)
}

// reduce leaves the sum of products, reduced, in acc0.
func reduce(p product) {
	if p == karatsuba { // middle = accM ^ acc0 ^ acc1
		xor(acc0, accM, accM)
		xor(acc1, accM, accM)
	}
	// The middle product goes in at bit 64.
	shiftBytes(true, 8, accM, t1)
	shiftBytes(false, 8, accM, accM)
	xor(t1, acc0, acc0)
	xor(accM, acc1, acc1)
	// acc0 holds the powers x^128..x^255: multiply it by x^128 mod P.
	for range 2 {
		clmul(0x10, poly, acc0, t1)
		shufd(0x4e, acc0, acc0)
		xor(t1, acc0, acc0)
	}
	xor(acc1, acc0, acc0)
}

// hashStep hashes block i of a group of 8 at m: the state, in acc0, is
// added to the first block, whose product then replaces it.
func hashStep(p product, i int, m Mem) {
	mov(m, t0)
	shufb(bswap, t0, t0)
	if i == 0 {
		xor(acc0, t0, t0)
	}
	mulAcc(p, i == 0, t0, pow(8-i), kara(8-i))
}

// loadWords puts the two words of parameters lo and hi into x as a block.
func loadWords(lo, hi string, x VecPhysical) {
	Load(Param(lo), t)
	toVec(0, t, x)
	Load(Param(hi), t)
	toVec(1, t, x)
}

// loadState puts the state y0, y1 into x, byte-reversed.
func loadState(x VecPhysical) {
	loadWords("y0", "y1", x)
	shufb(bswap, x, x)
}

// storeState returns the state in acc0 as the words r0, r1.
func storeState() {
	shufb(bswap, acc0, acc0)
	retBlock(acc0, "r0", "r1")
}

// retBlock returns the block in x as the words r0, r1.
func retBlock(x VecPhysical, r0, r1 string) {
	fromVec(0, x, t)
	Store(t, Return(r0))
	fromVec(1, x, t)
	Store(t, Return(r1))
	RET()
}

func initKey() {
	TEXT("init"+enc.name, NOSPLIT, "func(h0, h1 uint64, key "+keyType+", n int)")
	Doc(fmt.Sprintf("init%s fills key with H^1..H^n, n in 2..%d, from H·x^-1 (kernelH).", enc.name, enc.powers))
	Load(Param("key"), key)
	Load(Param("n"), n)
	loadWords("h0", "h1", X0)
	storePower := func(k int, x VecPhysical) {
		mov(x, pow(k))
		if k <= karaPowers {
			shufd(0x4e, x, t1)
			xor(x, t1, t1)
			mov(t1, kara(k))
		}
	}
	storePower(1, X0)
	// H^k = H^a·H^(k-a), a the largest power of two below k: the chain of
	// dependent multiplications is log2(numPowers) long, not numPowers.
	for k := 2; k <= enc.powers; k++ {
		a := 1
		for 2*a < k {
			a *= 2
		}
		mov(pow(a), X1)
		if k-a <= karaPowers {
			mulAcc(karatsuba, true, X1, pow(k-a), kara(k-a))
			reduce(karatsuba)
		} else { // AVX only: SSE's powers end at karaPowers
			mulAcc(schoolbook, true, X1, pow(k-a), Mem{})
			reduce(schoolbook)
		}
		storePower(k, acc0)
		if k < enc.powers {
			CMPQ(n, U8(k))
			JE(LabelRef("initDone"))
		}
	}
	Label("initDone")
	RET()
}

func ghash() {
	TEXT("ghash"+enc.name, NOSPLIT, "func(key "+keyType+", src *byte, n int, y0, y1 uint64) (r0, r1 uint64)")
	Doc("ghash" + enc.name + " absorbs n >= 1 blocks at src into the GHASH state y0, y1.")
	Load(Param("key"), key)
	Load(Param("src"), src)
	Load(Param("n"), n)
	mov(bswapMask, bswap)
	loadState(acc0)
	hashGroups("ghash")
	tailBlocks("ghash", hashOp, nil)
	storeState()
}

// hashGroups hashes groups of 8 blocks at src into the state in acc0 while
// n, in blocks, is at least 8.
func hashGroups(name string) {
	loop, tail := name+"Loop", name+"Tail"
	Label(loop)
	CMPQ(n, U8(8))
	JB(LabelRef(tail))
	for i := range 8 {
		hashStep(karatsuba, i, Mem{Base: src, Disp: 16 * i})
	}
	reduce(karatsuba)
	ADDQ(U8(128), src)
	SUBQ(U8(8), n)
	JMP(LabelRef(loop))
	Label(tail)
}

func mulH() {
	TEXT("mulH"+enc.name, NOSPLIT, "func(key "+keyType+", y0, y1 uint64) (r0, r1 uint64)")
	Doc("mulH" + enc.name + " returns y·H.")
	Load(Param("key"), key)
	mov(bswapMask, bswap)
	loadState(t0)
	mulAcc(karatsuba, true, t0, pow(1), kara(1))
	reduce(karatsuba)
	storeState()
}

// tailBlocks hashes the last n < 8 blocks at src (Seal: at dst, once
// written), block i multiplied by H^(n-i); with ks, the keystream on the
// stack, it first XORs them into dst.
func tailBlocks(name string, o op, ks *Mem) {
	done := name + "Done"
	TESTQ(n, n)
	JZ(LabelRef(done))
	MOVQ(U32(numPowers), off)
	SUBQ(n, off)
	SHLQ(U8(4), off)
	tailStart()
	tailLoop(name, o, ks)
	reduce(karatsuba)
	Label(done)
}

// tailStart prepares a tail's hashing, one block at a time with the power
// at off, one reduction: X0 carries the state into the first block.
func tailStart() {
	XORQ(idx, idx)
	mov(acc0, X0)
	xor(acc0, acc0, acc0)
	xor(acc1, acc1, acc1)
	xor(accM, accM, accM)
}

// tailLoop is tailBlocks' loop over n >= 1 blocks from offset idx.
func tailLoop(name string, o op, ks *Mem) {
	loop := name + "TailLoop"
	Label(loop)
	mov(Mem{Base: src, Index: idx, Scale: 1}, t0)
	if ks != nil {
		xor(ks.Idx(idx, 1), t0, t1)
		mov(t1, Mem{Base: dst, Index: idx, Scale: 1})
		if o == sealOp {
			mov(t1, t0) // Seal hashes the ciphertext
		}
	}
	shufb(bswap, t0, t0)
	tailHash(t0)
	ADDQ(U8(16), idx)
	DECQ(n)
	JNZ(LabelRef(loop))
}

// tailHash adds the product of the reflected block in x, plus the state
// in X0 (then zeroed), and the power at off to the sums, and moves off to
// the next power.
func tailHash(x VecPhysical) {
	xor(X0, x, x)
	xor(X0, X0, X0)
	mulAcc(karatsuba, false, x, Mem{Base: key, Index: off, Scale: 1}, Mem{Base: key, Index: off, Scale: 1, Disp: 16 * karaPowers})
	ADDQ(U8(16), off)
}

// cryptSetup loads the parameters of Seal and Open.
func cryptSetup() {
	keySetup()
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	loadWords("ctr0", "ctr1", ctr)
	shufb(bswap, ctr, ctr)
	loadState(acc0)
}

// keySetup loads the AES key, the powers of H and the byte-reversal mask.
func keySetup() {
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("key"), key)
	MOVQ(nr, p)
	SHLQ(U8(4), p)
	LEAQ(Mem{Base: rk, Index: p, Scale: 1, Disp: -160}, p)
	mov(bswapMask, bswap)
}

// counters says where encrypt8 takes its counter blocks from.
type counters int

const (
	// fromRegister: ctr, byte-reversed, each block by one add and one
	// shuffle.
	fromRegister counters = iota
	// fromStack: ctrs, whitened by round key 0 already, written by the
	// group before: the counters' work goes to scalar ports, the vector
	// ports being the ones AES and PCLMULQDQ contend for.
	fromStack
)

// ctrs holds the next group's 8 counter blocks XORed with round key 0 (Seal
// and Open's stack); c and k3 are the counter of the block encrypt8 takes
// next and the last dword of round key 0.
var (
	ctrs  Mem
	c, k3 = R13L, R14L
)

// stackSetup fills ctrs with the counter blocks' common bytes, whitened,
// before a group that writes their counters.
func stackSetup() {
	mov(Mem{Base: rk}, rkey)
	shufb(bswap, ctr, t0)
	xor(rkey, t0, t0)
	for i := range 8 {
		mov(t0, ctrs.Offset(16*i))
	}
	MOVL(Mem{Base: rk, Disp: 12}, k3)
	fromVec(0, ctr, c)
}

// encrypt8 runs the next 8 counter blocks through AES into blocks, calling
// stitch(r) for r = 0..8 after each of the last nine AESENC rounds. The
// extra rounds of AES-192 and AES-256 come first, so the stitched work sits
// in rounds every key size has. With prepare it writes the counters of the
// group after into ctrs.
func encrypt8(name string, from counters, prepare bool, stitch func(r int)) {
	mov(Mem{Base: rk}, rkey)
	if from == fromStack {
		for i, b := range blocks {
			mov(ctrs.Offset(16*i), b)
		}
	} else {
		whiten(blocks)
	}
	addd(memOp(incs.Offset(16*8), t1), ctr, ctr)
	if prepare {
		for i := range 8 {
			LEAL(Mem{Base: c.As64(), Disp: 8 + i}, t.As32())
			BSWAPL(t.As32())
			XORL(k3, t.As32())
			MOVL(t.As32(), ctrs.Offset(16*i+12))
		}
		ADDL(U8(8), c)
	}
	aesRounds(name, blocks, stitch)
}

// whiten puts the counter blocks from ctr on into bs, XORed with round key
// 0, in rkey.
func whiten(bs []VecPhysical) {
	for i, b := range bs {
		addd(incs.Offset(16*i), ctr, b)
		shufb(bswap, b, b)
		xor(rkey, b, b)
	}
}

// aesRounds runs the AES rounds after the whitening on bs, calling
// stitch(r) as encrypt8 says.
func aesRounds(name string, bs []VecPhysical, stitch func(r int)) {
	round := func(m Mem) {
		mov(m, rkey)
		for _, b := range bs {
			aesRound(false, rkey, b)
		}
	}
	r10, r12 := name+"Rounds10", name+"Rounds12"
	CMPQ(nr, U8(12))
	JB(LabelRef(r10))
	JE(LabelRef(r12))
	round(Mem{Base: p, Disp: -48})
	round(Mem{Base: p, Disp: -32})
	Label(r12)
	round(Mem{Base: p, Disp: -16})
	round(Mem{Base: p})
	Label(r10)
	for r := range 9 {
		round(Mem{Base: p, Disp: 16 * (r + 1)})
		if stitch != nil {
			stitch(r)
		}
	}
	mov(Mem{Base: p, Disp: 160}, rkey)
	for _, b := range bs {
		aesRound(true, rkey, b)
	}
}

// hashGroup is the stitch that hashes the 8 blocks at base.
func hashGroup(base Register) func(r int) {
	return func(r int) {
		if r < 8 {
			hashStep(enc.stitched, r, Mem{Base: base, Disp: 16 * r})
		} else {
			reduce(enc.stitched)
		}
	}
}

// xorStore XORs the 8 blocks at src into the keystream and stores them at dst,
// then advances src and dst past them.
func xorStore() {
	for i, b := range blocks {
		xor(memOp(Mem{Base: src, Disp: 16 * i}, t0), b, b)
		mov(b, Mem{Base: dst, Disp: 16 * i})
	}
	ADDQ(U8(128), src)
	ADDQ(U8(128), dst)
	SUBQ(U8(8), n)
}

// keystreamTail encrypts the keystream of the last n < 8 blocks to the
// stack, if n > 0.
func keystreamTail(name string, ks Mem) {
	TESTQ(n, n)
	JZ(LabelRef(name + "Done"))
	keystream(name, ks, n, nil)
}

// keystream encrypts the next count (1..8) counter blocks to ks: 4 of
// them, or 8. With j0 it encrypts the block there too, in place.
func keystream(name string, ks Mem, count Register, j0 *Mem) {
	eight, done := name+"Keystream8", name+"KeystreamDone"
	CMPQ(count, U8(4))
	JA(LabelRef(eight))
	keystreamOf(name, ks, blocks[:4], j0)
	JMP(LabelRef(done))
	Label(eight)
	keystreamOf(name, ks, blocks, j0)
	Label(done)
}

// keystreamOf encrypts the next len(bs) counter blocks in bs to ks, and
// the block at j0, if any, in place.
func keystreamOf(name string, ks Mem, bs []VecPhysical, j0 *Mem) {
	mov(Mem{Base: rk}, rkey)
	whiten(bs)
	all := bs
	if j0 != nil {
		mov(*j0, t0)
		xor(rkey, t0, t0)
		all = append(all[:len(bs):len(bs)], t0)
	}
	aesRounds(fmt.Sprintf("%sTail%d", name, len(bs)), all, nil)
	if j0 != nil {
		mov(t0, *j0)
	}
	for i, b := range bs {
		mov(b, ks.Offset(16*i))
	}
}

func seal() {
	TEXT("seal"+enc.name, NOSPLIT, "func(nr int, rk *[240]byte, key "+keyType+", dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)")
	Doc("seal"+enc.name+" encrypts n >= 1 blocks from src to dst in counter mode from the",
		"counter block ctr0, ctr1 and absorbs the ciphertext into the GHASH state y0, y1.")
	ks := AllocLocal(128)
	ctrs = AllocLocal(128)
	cryptSetup()
	sealGroups()
	keystreamTail("seal", ks)
	tailBlocks("seal", sealOp, &ks)
	storeState()
}

// sealGroups encrypts the n blocks at src to dst and hashes them, while at
// least 8 are left.
func sealGroups() {
	tail, loop, last := "sealTail", "sealLoop", "sealLast"
	CMPQ(n, U8(8))
	JB(LabelRef(tail))
	encrypt8("sealFirst", fromRegister, false, nil)
	MOVQ(dst, prev)
	xorStore()
	CMPQ(n, U8(8))
	JB(LabelRef(last))
	// The stack's counters serve from the third group on: loaded the
	// group after they were written, not right after.
	stackSetup()
	encrypt8("sealSecond", fromRegister, true, hashGroup(prev))
	MOVQ(dst, prev)
	xorStore()

	Label(loop)
	CMPQ(n, U8(8))
	JB(LabelRef(last))
	encrypt8("sealLoop", fromStack, true, hashGroup(prev))
	MOVQ(dst, prev)
	xorStore()
	JMP(LabelRef(loop))

	Label(last)
	for i := range 8 {
		hashStep(enc.stitched, i, Mem{Base: prev, Disp: 16 * i})
	}
	reduce(enc.stitched)
	Label(tail)
}

func open() {
	TEXT("open"+enc.name, NOSPLIT, "func(nr int, rk *[240]byte, key "+keyType+", dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64)")
	Doc("open"+enc.name+" absorbs n >= 1 blocks at src into the GHASH state y0, y1 and",
		"decrypts them to dst in counter mode from the counter block ctr0, ctr1.")
	ks := AllocLocal(128)
	ctrs = AllocLocal(128)
	cryptSetup()
	openGroups()
	keystreamTail("open", ks)
	tailBlocks("open", openOp, &ks)
	storeState()
}

// openGroups hashes the n blocks at src and decrypts them to dst, while at
// least 8 are left.
func openGroups() {
	tail, loop := "openTail", "openLoop"
	CMPQ(n, U8(8))
	JB(LabelRef(tail))
	encrypt8("openFirst", fromRegister, false, hashGroup(src))
	xorStore()
	CMPQ(n, U8(8))
	JB(LabelRef(tail))
	stackSetup()
	encrypt8("openSecond", fromRegister, true, hashGroup(src))
	xorStore()

	Label(loop)
	CMPQ(n, U8(8))
	JB(LabelRef(tail))
	encrypt8("openLoop", fromStack, true, hashGroup(src))
	xorStore()
	JMP(LabelRef(loop))
	Label(tail)
}

// message writes the message kernels, sealMsg and openMsg: the associated
// data's GHASH, the message by sealGroups or openGroups, and its last
// blocks with the lengths block in one tail, whose powers end at H^1 for
// the lengths block (so a tail of 7 blocks and a partial one takes H^9).
// Associated data that fits the powers with a message under a group (the
// blocks of both and the lengths block at most karaPowers) joins the tail
// instead, first, under its one reduction. E(J0) rides with the tail's
// counter blocks. A partial block comes in by loadPartial and goes out
// through the stack, copied 8, 4, 2 and 1 bytes at a time: nothing past the
// buffers is read or written.
func message(o op) {
	messageText(o, enc.name)
	ks := AllocLocal(128)
	ctrs = AllocLocal(128)
	eJ0, part := AllocLocal(16), AllocLocal(16)
	// fold is the offset of the power of the associated data's first
	// block if it joins the tail, else zero.
	fold := AllocLocal(8)
	keySetup()
	loadWords("j0", "j1", X0)
	shufb(bswap, X0, ctr)
	addd(memOp(incs.Offset(16), t1), ctr, ctr)
	// E(J0) goes beside the tail's counter blocks, if the message has a
	// tail; else it is computed now, its latency hidden by the work after.
	mov(X0, eJ0)
	Load(Param("n"), t)
	TESTB(U8(127), t.As8())
	JNZ(LabelRef("j0Later"))
	mov(Mem{Base: rk}, rkey)
	xor(rkey, X0, X0)
	aesRounds("j0", []VecPhysical{X0}, nil)
	mov(X0, eJ0)
	Label("j0Later")

	xor(acc0, acc0, acc0)
	adDone, adFirst := "adDone", "adFirst"
	MOVQ(U32(0), fold)
	loadAD()
	tailCount()
	JZ(LabelRef(adDone))
	// A message past karaPowers-2 blocks leaves no power for the data.
	Load(Param("n"), t)
	CMPQ(t, U8(16*(karaPowers-2)))
	JA(LabelRef(adFirst))
	ADDQ(U8(15), t)
	SHRQ(U8(4), t)
	ADDQ(off, t)
	CMPQ(t, U8(karaPowers-1))
	JA(LabelRef(adFirst))
	NEGQ(t)
	ADDQ(U8(numPowers-1), t)
	SHLQ(U8(4), t)
	MOVQ(t, fold)
	JMP(LabelRef(adDone))
	Label(adFirst)
	hashGroups("ad")
	tailCount()
	JZ(LabelRef(adDone))
	tailOffset(numPowers)
	tailStart()
	tailParts("ad", hashOp, nil, part)
	reduce(karatsuba)
	Label(adDone)

	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	SHRQ(U8(4), n)
	if o == sealOp {
		sealGroups()
	} else {
		openGroups()
	}
	// The last n < 8 blocks and rest bytes, then the lengths block.
	Load(Param("n"), rest)
	ANDQ(U8(15), rest)
	tailCount()
	JZ(LabelRef("lengths"))
	keystream("msg", ks, off, &eJ0)
	Label("lengths")
	tailOffset(numPowers - 1)
	tailStart()
	// The associated data, if it joins: its powers end where the
	// message's begin; then the message from its start.
	CMPQ(fold, U8(0))
	JE(LabelRef("msgTail"))
	MOVQ(fold, off)
	loadAD()
	tailParts("fold", hashOp, nil, part)
	XORQ(idx, idx)
	Load(Param("src"), src)
	Load(Param("n"), n)
	MOVQ(n, rest)
	ANDQ(U8(15), rest)
	SHRQ(U8(4), n)
	Label("msgTail")
	tailParts("msg", o, &ks, part)
	// Byte-reversed, the lengths block is the message's length in bits,
	// then the associated data's.
	Load(Param("n"), t)
	SHLQ(U8(3), t)
	toVec(0, t, t0)
	Load(Param("adLen"), t)
	SHLQ(U8(3), t)
	toVec(1, t, t0)
	xor(X0, t0, t0)
	mulAcc(karatsuba, false, t0, pow(1), kara(1))
	reduce(karatsuba)
	shufb(bswap, acc0, acc0)
	xor(memOp(eJ0, t0), acc0, acc0)
	retBlock(acc0, "t0", "t1")
}

// loadAD points src at the associated data and sets n and rest to its
// whole blocks and remaining bytes.
func loadAD() {
	Load(Param("ad"), src)
	Load(Param("adLen"), n)
	MOVQ(n, rest)
	ANDQ(U8(15), rest)
	SHRQ(U8(4), n)
}

// messageText starts the message kernel of op o and family suffix.
func messageText(o op, suffix string) {
	name := map[op]string{sealOp: "sealMsg", openOp: "openMsg"}[o] + suffix
	TEXT(name, NOSPLIT, "func(nr int, rk *[240]byte, key "+keyType+", dst, src *byte, n int, ad *byte, adLen int, j0, j1 uint64) (t0, t1 uint64)")
	if o == sealOp {
		Doc(name+" encrypts the n bytes at src to dst with the first counter block",
			"j0, j1 (J0) and returns the tag for them and the adLen bytes at ad.")
	} else {
		Doc(name+" decrypts the n bytes at src to dst with the first counter block",
			"j0, j1 (J0) and returns the tag they should have with the adLen bytes at ad.")
	}
}

// tailCount sets off to the blocks of a tail of n blocks and rest bytes,
// and the flags by it.
func tailCount() {
	LEAQ(Mem{Base: rest, Disp: 15}, off)
	SHRQ(U8(4), off)
	ADDQ(n, off)
}

// tailOffset turns off, a tail's number of blocks, into the offset of its
// first block's power, the tail's powers ending at H^(numPowers+1-end).
func tailOffset(end int) {
	NEGQ(off)
	ADDQ(U8(end), off)
	SHLQ(U8(4), off)
}

// tailParts hashes (with ks, seals or opens) a tail of n < 8 blocks and
// rest < 16 bytes at src, after tailStart.
func tailParts(name string, o op, ks *Mem, part Mem) {
	partial, done := name+"Partial", name+"PartialDone"
	TESTQ(n, n)
	JZ(LabelRef(partial))
	tailLoop(name, o, ks)
	Label(partial)
	TESTQ(rest, rest)
	JZ(LabelRef(done))
	LEAQ(Mem{Base: src, Index: idx, Scale: 1}, from)
	loadPartial(name+"In", from, rest, t0, t1)
	if ks != nil {
		xor(ks.Idx(idx, 1), t0, t1)
		mov(t1, part)
		LEAQ(part, from)
		LEAQ(Mem{Base: dst, Index: idx, Scale: 1}, to)
		copyBytes(name+"Out", from, to, rest)
		if o == sealOp { // the ciphertext, zero padded
			and(maskOf(rest), t1, t0)
		}
	}
	shufb(bswap, t0, t0)
	tailHash(t0)
	Label(done)
}

// loadPartial loads the count (1..15) bytes at from into x, zero padded:
// two loads of s bytes, s the largest power of two up to count, one at from
// and one ending at from+count, into x's bytes 0 and 8, and a shuffle by
// partShuf[count] (spare holds it) that puts the bytes in place. Bytes
// copied to the stack would stall the block's load on their stores.
func loadPartial(name string, from, count GPPhysical, x, spare VecPhysical) {
	shuffle := name + "Shuffle"
	for _, s := range []int{8, 4, 2, 1} {
		below := fmt.Sprintf("%sBelow%d", name, s)
		if s > 1 {
			CMPQ(count, U8(s))
			JB(LabelRef(below))
		}
		load := map[int]func(Mem){
			8: func(m Mem) { MOVQ(m, t) },
			4: func(m Mem) { MOVL(m, t.As32()) },
			2: func(m Mem) { MOVWLZX(m, t.As32()) },
			1: func(m Mem) { MOVBLZX(m, t.As32()) },
		}[s]
		load(Mem{Base: from})
		toVec(0, t, x)
		if s > 1 {
			load(Mem{Base: from, Index: count, Scale: 1, Disp: -s})
			toVec(1, t, x)
			JMP(LabelRef(shuffle))
			Label(below)
		}
	}
	Label(shuffle)
	LEAQ(partShuf, t)
	LEAQ(Mem{Base: t, Index: count, Scale: 8}, t)
	mov(Mem{Base: t, Index: count, Scale: 8}, spare)
	shufb(spare, x, x)
}

// copyBytes copies count (1..15) bytes from from to to, 8, 4, 2 and 1 at
// a time.
func copyBytes(name string, from, to, count GPPhysical) {
	for _, w := range []int{8, 4, 2, 1} {
		skip := fmt.Sprintf("%sSkip%d", name, w)
		TESTB(U8(w), count.As8())
		JZ(LabelRef(skip))
		r := map[int]Register{8: t, 4: t.As32(), 2: t.As16(), 1: t.As8()}[w]
		m := map[int]func(a, b Op){8: MOVQ, 4: MOVL, 2: MOVW, 1: MOVB}[w]
		m(Mem{Base: from}, r)
		m(r, Mem{Base: to})
		if w > 1 {
			ADDQ(U8(w), from)
			ADDQ(U8(w), to)
		}
		Label(skip)
	}
}

// maskOf returns the mask of count (1..15) bytes, by way of t.
func maskOf(count Register) Mem {
	LEAQ(partMask, t)
	SUBQ(count, t)
	return Mem{Base: t, Disp: 16}
}
