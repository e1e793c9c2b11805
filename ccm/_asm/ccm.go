// Command ccm generates ccm_amd64.s: the CCM kernels for whole blocks of
// one message, and those for batches of messages (batch.go).
//
// CBC-MAC is a chain of dependent AES calls, so a block costs at least the
// latency of its nr rounds (on Zen 4, 10 AESENC of 4 cycles with a 128-bit
// key: 2.5 cycles per byte). The kernels keep that chain free of all else:
//
//   - The XOR of the next block into the MAC value is folded into the last
//     round: AESENCLAST with the key Klast^K0^B' yields E(X)^B'^K0, the
//     state of the next block after its first AddRoundKey. The chain is then
//     exactly nr AES instructions a block.
//   - The keystream block of the same iteration, independent of the chain,
//     runs in its gaps (the CPU has two AES pipes), with the XOR of the data
//     folded into its last round key the same way.
//   - Open decrypts block i+1 in the iteration that MACs block i, since the
//     MAC's last round needs the next plaintext block.
//
// Round keys 1..6 stay in registers and the others are memory operands,
// whose loads issue early, off the chain. Each kernel has a loop per key
// size. AES-NI on xmm registers with AVX encodings (no alignment rules for
// memory operands) is all it needs: the chain, not throughput, bounds CCM.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../ccm_amd64.s -pkg ccm

// General-purpose registers.
var (
	nr   = RAX
	rk   = RBX
	xp   = RCX
	ctrp = RDX
	src  = RSI
	dst  = RDI
	n    = R8 // blocks left
)

// Vector registers.
var (
	y     = X0 // MAC state: E(X)^B^K0 for the block B being absorbed
	c     = X1 // keystream block
	ctr   = X2 // next counter block, byte-reversed
	bswap = X3
	one   = X4
	k0    = X5
	kl    = X6 // last round key
	k0l   = X7 // K0^Klast
	kxm   = X8 // last round key of the MAC block
	kxc   = X9 // last round key of the keystream block
)

var keyRegs = []VecPhysical{X10, X11, X12, X13, X14, X15} // round keys 1..6

var bswapMask, ctrOne Mem

func main() {
	ConstraintExpr("!purego")
	bswapMask = GLOBL("bswapMask", RODATA|NOPTR)
	DATA(0, U64(0x08090a0b0c0d0e0f))
	DATA(8, U64(0x0001020304050607))
	ctrOne = GLOBL("ctrOne", RODATA|NOPTR)
	DATA(0, U64(1))
	DATA(8, U64(0))

	batchData()
	mac()
	seal()
	open()
	sealBatch()
	openBatch()
	for _, w := range []vexWidth{ymmWidth, xmmWidth} {
		sealBatchVex(w)
		openBatchVex(w)
	}
	Generate()
}

// key returns round key r as an operand.
func key(r int) Op {
	if r <= len(keyRegs) {
		return keyRegs[r-1]
	}
	return Mem{Base: rk, Disp: 16 * r}
}

func loadKeys(rounds int) {
	VMOVDQU(Mem{Base: rk}, k0)
	VMOVDQU(Mem{Base: rk, Disp: 16 * rounds}, kl)
	VPXOR(k0, kl, k0l)
	for r := 1; r < rounds && r <= len(keyRegs); r++ {
		VMOVDQU(Mem{Base: rk, Disp: 16 * r}, keyRegs[r-1])
	}
}

// perKeySize emits body for 10, 12 and 14 rounds, chosen by nr.
func perKeySize(name string, body func(rounds int)) {
	r12, r14 := name+"_12", name+"_14"
	CMPQ(nr, U8(12))
	JE(LabelRef(r12))
	JA(LabelRef(r14))
	body(10)
	Label(r12)
	body(12)
	Label(r14)
	body(14)
}

// label returns the name of a label of a loop.
func label(name string, rounds int, what string) string {
	return fmt.Sprintf("%s%d_%s", name, rounds, what)
}

// absorbFirst sets y = X ^ block ^ K0 for the MAC value at xp.
func absorbFirst(block Op) {
	VPXOR(Mem{Base: xp}, k0, y)
	VPXOR(block, y, y)
}

// macRounds runs the middle rounds of the MAC block alone.
func macRounds(rounds int) {
	for r := 1; r < rounds; r++ {
		VAESENC(key(r), y, y)
	}
}

// bothRounds runs the middle rounds of the MAC block and the keystream
// block, interleaved.
func bothRounds(rounds int) {
	for r := 1; r < rounds; r++ {
		VAESENC(key(r), y, y)
		VAESENC(key(r), c, c)
	}
}

// counter sets c = A^K0 for the next counter block A and steps the counter.
func counter() {
	VPSHUFB(bswap, ctr, c)
	VPADDQ(one, ctr, ctr)
	VPXOR(k0, c, c)
}

// finish stores the MAC value and, for seal and open, the counter block.
func finish(withCounter bool) {
	VMOVDQU(y, Mem{Base: xp})
	if withCounter {
		VPSHUFB(bswap, ctr, ctr)
		VMOVDQU(ctr, Mem{Base: ctrp})
	}
	RET()
}

func mac() {
	TEXT("macAVX", NOSPLIT, "func(nr int, rk *[240]byte, x *[16]byte, src *byte, n int)")
	Pragma("noescape")
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("x"), xp)
	Load(Param("src"), src)
	Load(Param("n"), n)
	perKeySize("mac", func(rounds int) {
		loop, last := label("mac", rounds, "loop"), label("mac", rounds, "last")
		loadKeys(rounds)
		absorbFirst(Mem{Base: src})
		DECQ(n)
		JZ(LabelRef(last))

		Label(loop)
		VPXOR(Mem{Base: src, Disp: 16}, k0l, kxm)
		macRounds(rounds)
		VAESENCLAST(kxm, y, y)
		ADDQ(U8(16), src)
		DECQ(n)
		JNZ(LabelRef(loop))

		Label(last)
		macRounds(rounds)
		VAESENCLAST(kl, y, y)
		finish(false)
	})
}

// prologue loads the arguments of seal and open and the counter.
func prologue(name string) {
	TEXT(name, NOSPLIT, "func(nr int, rk *[240]byte, x, ctr *[16]byte, dst, src *byte, n int)")
	Pragma("noescape")
	Load(Param("nr"), nr)
	Load(Param("rk"), rk)
	Load(Param("x"), xp)
	Load(Param("ctr"), ctrp)
	Load(Param("dst"), dst)
	Load(Param("src"), src)
	Load(Param("n"), n)
	VMOVDQU(bswapMask, bswap)
	VMOVDQU(ctrOne, one)
	VMOVDQU(Mem{Base: ctrp}, ctr)
	VPSHUFB(bswap, ctr, ctr)
}

func seal() {
	prologue("sealAVX")
	perKeySize("seal", func(rounds int) {
		loop, last := label("seal", rounds, "loop"), label("seal", rounds, "last")
		// block MACs the plaintext block at src and the one after it, when
		// there is one, and encrypts the block at src to dst.
		block := func(final bool) {
			counter()
			VPXOR(Mem{Base: src}, kl, kxc)
			if !final {
				VPXOR(Mem{Base: src, Disp: 16}, k0l, kxm)
			}
			bothRounds(rounds)
			if final {
				VAESENCLAST(kl, y, y)
			} else {
				VAESENCLAST(kxm, y, y)
			}
			VAESENCLAST(kxc, c, c)
			VMOVDQU(c, Mem{Base: dst})
		}
		loadKeys(rounds)
		absorbFirst(Mem{Base: src})
		DECQ(n)
		JZ(LabelRef(last))

		Label(loop)
		block(false)
		ADDQ(U8(16), src)
		ADDQ(U8(16), dst)
		DECQ(n)
		JNZ(LabelRef(loop))

		Label(last)
		block(true)
		finish(true)
	})
}

func open() {
	prologue("openAVX")
	perKeySize("open", func(rounds int) {
		loop, last := label("open", rounds, "loop"), label("open", rounds, "last")
		loadKeys(rounds)
		// The first block, decrypted alone.
		counter()
		VPXOR(Mem{Base: src}, kl, kxc)
		for r := 1; r < rounds; r++ {
			VAESENC(key(r), c, c)
		}
		VAESENCLAST(kxc, c, c)
		VMOVDQU(c, Mem{Base: dst})
		absorbFirst(c)
		DECQ(n)
		JZ(LabelRef(last))

		// Decrypt the block after src while the MAC absorbs the one at src.
		Label(loop)
		counter()
		VPXOR(Mem{Base: src, Disp: 16}, kl, kxc)
		bothRounds(rounds)
		VAESENCLAST(kxc, c, c)
		VMOVDQU(c, Mem{Base: dst, Disp: 16})
		VPXOR(c, k0l, kxm)
		VAESENCLAST(kxm, y, y)
		ADDQ(U8(16), src)
		ADDQ(U8(16), dst)
		DECQ(n)
		JNZ(LabelRef(loop))

		Label(last)
		macRounds(rounds)
		VAESENCLAST(kl, y, y)
		finish(true)
	})
}
