// Command _gen_arm64 generates gcm_arm64.s: GCM's kernels for the ARMv8
// Cryptography Extensions (AESE, AESMC and PMULL), through the emitter the
// arm64 generators share (internal/arm64gen). The contract is gcm_asm.go's,
// the key's layout gcm_arm64.go's.
//
// GHASH runs as on amd64 (gcm/_asm): a block, byte-reversed, is a
// bit-reflected 128-bit integer, and its carry-less product with a power of
// H stored as H^k·x^-1 is the field product, reflected, as a 256-bit integer
// with no shift. PMULL multiplies the low 64-bit lanes of two registers and
// PMULL2 the high ones, so a block costs three of them by Karatsuba, its
// middle operand, the XOR of the power's halves, precomputed. Blocks are only
// REV64'd, which leaves the two halves of the reversed block swapped: the
// powers are stored swapped too (gcm_arm64.go), so that the lanes pair up.
// The state between groups is the reduced sum in plain order, swapped (one
// EXT) as it is added to a group's first block.
//
// A group of 8 blocks is multiplied by H^8..H^1 and summed unreduced, and
// reduced once: the low 128 bits of the product (the high powers of x) fold
// twice by 64 bits, each fold a PMULL by 0xc2 << 56 (x^7 + x^2 + x,
// reflected, shifted) and a swap of halves (Gueron and Kounavis, "Intel Carry-Less Multiplication
// Instruction and its Usage for Computing the GCM Mode", 2014); reduce
// spells out how the Karatsuba middle term and the swaps merge.
//
// Seal and Open stitch counter mode and GHASH: 8 counter blocks go through
// the AES rounds while 8 blocks are hashed between the rounds, one block
// after each of the first eight rounds every key size has and the reduction
// after the ninth. Open hashes the group it decrypts; Seal hashes the group
// it encrypted the iteration before, and the last one after its loop. The
// last n mod 8 blocks go in one group per set bit of that count (4, 2, 1),
// each multiplied by H^k..H^1 and reduced on its own.
//
// The main loop takes its counter blocks from the stack, where the group
// before (the first group's, the set-up) wrote their counters from a general
// register (ADDW wraps modulo 2^32, GCM's increment exactly): wide cores run
// out of vector pipes, not scalar ones, and a group's loads come long after
// those stores, so they need no forwarding. Groups of fewer than 8 blocks keep the counter block
// REV32'd in a register instead: its last lane is then the counter as a
// number, which a vector add of 0, 0, 0, 1 steps, and REV32 turns it back
// into the block.
//
// Registers: V0..V7 blocks, V8..V10 the low, high and middle products (V8
// the state between groups), V11 the block being hashed, V12 scratch, V13
// the power of H (the reduction constant during a reduction), V14 Karatsuba
// operands, V15 the counter block and V16 its step (groups of fewer than
// 8), V17..V31 round keys (key r of an nr-round key in V(31-nr+r): only
// V17..V20 depend on nr). R9 holds the next counter, and RSP the stack's
// counter blocks.
package main

import (
	"fmt"

	"github.com/faelabs/fae/internal/arm64gen"
)

//go:generate go run . -out ../gcm_arm64.s

// numPowers must equal gcm_arm64.go's: the key holds H^numPowers..H^1, then
// their Karatsuba operands, two per 16 bytes.
const numPowers = 8

// keyType is kernelKey's type.
var keyType = fmt.Sprintf("*[%d][16]byte", numPowers+numPowers/2)

const (
	rNR   = "R0"
	rRK   = "R1"
	rKey  = "R2"
	rDst  = "R3"
	rSrc  = "R4"
	rN    = "R5"
	rHash = "R6" // Seal: the ciphertext to hash
	rT    = "R7"
	rPoly = "R8" // 0xc2 << 56
	rC    = "R9" // Seal and Open: the next block's counter

	// Seal and Open keep 8 counter blocks on the stack from ctrs(RSP).
	ctrs  = 16
	frame = ctrs + 8*16 - 8

	vLo    = 8
	vHi    = 9
	vMid   = 10
	vX     = 11
	vT     = 12
	vH     = 13
	vK     = 14
	vCtr   = 15
	vOne   = 16
	vKey0  = 17 // first round key of AES-256
	vFinal = 30 // round key nr-1, whose round has no MixColumns
	vLast  = 31 // round key nr, added after the last round
)

func main() {
	arm64gen.Main(func(f *arm64gen.File) {
		g := &gen{File: f}
		g.initKey()
		g.ghash()
		g.mulH()
		g.crypt(true)
		g.crypt(false)
	})
}

type gen struct {
	*arm64gen.File
}

// d1, d2 and q1 name a register's arrangements for PMULL(2).
func d1(i int) string { return fmt.Sprintf("V%d.D1", i) }
func d2(i int) string { return fmt.Sprintf("V%d.D2", i) }
func q1(i int) string { return fmt.Sprintf("V%d.Q1", i) }

// swap writes v(dst) = v(src) with its 64-bit halves exchanged.
func (g *gen) swap(src, dst int) { g.Op("VEXT $8, %s, %s, %s", g.V(src), g.V(src), g.V(dst)) }

// pmull writes the carry-less product of lane lane (0 or 1) of a and b to dst.
func (g *gen) pmull(lane, a, b, dst int) {
	if lane == 0 {
		g.Op("VPMULL %s, %s, %s", d1(a), d1(b), q1(dst))
	} else {
		g.Op("VPMULL2 %s, %s, %s", d2(a), d2(b), q1(dst))
	}
}

// powerOff and karaOff are the key offsets of the power at index idx
// (H^(numPowers-idx)) and of its Karatsuba operand's 8 bytes.
func powerOff(idx int) int { return 16 * idx }
func karaOff(idx int) int  { return 16*numPowers + 8*idx }

// mulAcc adds the unreduced product of the REV64'd block in vX and the
// power at index idx to vLo, vHi, vMid, or sets them when first. It loads
// the Karatsuba operands of idx and idx+1 together, unless idx is odd and
// not the first.
func (g *gen) mulAcc(first bool, idx int) {
	g.Op("FMOVQ %d(%s), F%d", powerOff(idx), rKey, vH)
	if first || idx%2 == 0 {
		g.Op("FMOVQ %d(%s), F%d", karaOff(idx&^1), rKey, vK)
	}
	g.swap(vX, vT)
	g.Xor(vX, vT, vT) // the XOR of the block's halves, in both lanes
	// The stored power is swapped as the block is: lane 1 holds the low
	// halves, lane 0 the high ones.
	acc := func(lane, a, b, tmp, dst int) {
		if first {
			g.pmull(lane, a, b, dst)
			return
		}
		g.pmull(lane, a, b, tmp)
		g.Xor(tmp, dst, dst)
	}
	acc(idx%2, vT, vK, vT, vMid)
	acc(1, vX, vH, vT, vLo)
	acc(0, vX, vH, vX, vHi)
}

// reduce leaves the product in vLo, vHi, vMid reduced in vLo. With the
// 256-bit product as 64-bit words w0..w3 (lo = w0, w1; hi = w2, w3) and the
// middle term m added at w1, w2, a fold maps w0, w1 to w1, w0 ^ w0·c, and
// the result is the two folds XORed into w2, w3. Written out, it is
// lo ^ hi ^ swap(m ^ T) ^ T2, T = lo.w0·c and T2 = c times the high word of
// lo ^ swap(m ^ T), which is where the second fold's input lies.
func (g *gen) reduce() {
	g.Op("VDUP %s, %s", rPoly, d2(vH))
	g.pmull(0, vLo, vH, vT)
	g.Xor(vLo, vMid, vMid) // Karatsuba: m = mid ^ lo ^ hi
	g.Xor(vHi, vMid, vMid)
	g.Xor(vT, vMid, vMid)
	g.swap(vMid, vMid)
	g.Xor(vMid, vLo, vLo)
	g.pmull(1, vLo, vH, vT)
	g.Xor(vHi, vLo, vLo)
	g.Xor(vT, vLo, vLo)
}

// hashStep hashes block i of a group of k at ptr: the state, in vLo, is
// added to the first block, whose product then replaces it.
func (g *gen) hashStep(i, k int, ptr string) {
	g.Op("FMOVQ %d(%s), F%d", 16*i, ptr, vX)
	g.Op("VREV64 %s, %s", g.V(vX), g.V(vX))
	if i == 0 {
		g.swap(vLo, vT)
		g.Xor(vT, vX, vX)
	}
	g.mulAcc(i == 0, numPowers-k+i)
}

// hashGroup hashes the k blocks at ptr.
func (g *gen) hashGroup(k int, ptr string) {
	for i := range k {
		g.hashStep(i, k, ptr)
	}
	g.reduce()
}

// loadWords puts the parameters at offsets off and off+8 into v as a block.
func (g *gen) loadWords(off, v int, lo, hi string) {
	g.Op("MOVD %s+%d(FP), %s", lo, off, rT)
	g.Op("VMOV %s, V%d.D[0]", rT, v)
	g.Op("MOVD %s+%d(FP), %s", hi, off+8, rT)
	g.Op("VMOV %s, V%d.D[1]", rT, v)
}

// loadState puts the state y0, y1 at off into vLo, reversed, and the
// reduction constant into rPoly.
func (g *gen) loadState(off int) {
	g.loadWords(off, vLo, "y0", "y1")
	g.Op("VREV64 %s, %s", g.V(vLo), g.V(vLo))
	g.swap(vLo, vLo)
	g.Op("MOVD $0xc200000000000000, %s", rPoly)
}

// storeState returns vLo, reversed, as the words r0, r1 at off.
func (g *gen) storeState(off int) {
	g.Op("VREV64 %s, %s", g.V(vLo), g.V(vLo))
	g.swap(vLo, vLo)
	g.Op("VMOV V%d.D[0], %s", vLo, rT)
	g.Op("MOVD %s, r0+%d(FP)", rT, off)
	g.Op("VMOV V%d.D[1], %s", vLo, rT)
	g.Op("MOVD %s, r1+%d(FP)", rT, off+8)
	g.Op("RET")
}

// initKey fills the key with H^1..H^n: H^k = H^(k-1)·H, each power stored
// swapped, and its Karatsuba operand, as soon as it is known. V0 holds the
// power, V1 it swapped.
func (g *gen) initKey() {
	g.Func("initARMv8", "h0, h1 uint64, key "+keyType+", n int", 32)
	g.Op("MOVD key+16(FP), %s", rKey)
	g.Op("MOVD n+24(FP), %s", rN)
	g.Op("MOVD $0xc200000000000000, %s", rPoly)
	g.loadWords(0, 0, "h0", "h1")
	done := g.NewLabel("initDone")
	for k := 1; k <= numPowers; k++ {
		if k > 1 {
			g.Op("VMOV V1.B16, V%d.B16", vX)
			g.mulAcc(true, numPowers-1)
			g.reduce()
			g.Op("VMOV V%d.B16, V0.B16", vLo)
		}
		idx := numPowers - k
		g.swap(0, 1)
		g.Op("FMOVQ F1, %d(%s)", powerOff(idx), rKey)
		g.Xor(0, 1, 2)
		g.Op("FMOVD F2, %d(%s)", karaOff(idx), rKey)
		if k > 1 && k < numPowers {
			g.Op("CMP $%d, %s", k, rN)
			g.Op("BEQ %s", done)
		}
	}
	g.Label(done)
	g.Op("RET")
}

func (g *gen) ghash() {
	g.Func("ghashARMv8", "key "+keyType+", src *byte, n int, y0, y1 uint64) (r0, r1 uint64", 56)
	g.Op("MOVD key+0(FP), %s", rKey)
	g.Op("MOVD src+8(FP), %s", rSrc)
	g.Op("MOVD n+16(FP), %s", rN)
	g.loadState(24)
	g.BlockLoop(rN, func(k int) {
		g.hashGroup(k, rSrc)
		g.Op("ADD $%d, %s", 16*k, rSrc)
	})
	g.storeState(40)
}

func (g *gen) mulH() {
	g.Func("mulHARMv8", "key "+keyType+", y0, y1 uint64) (r0, r1 uint64", 40)
	g.Op("MOVD key+0(FP), %s", rKey)
	g.Op("MOVD $0xc200000000000000, %s", rPoly)
	g.loadWords(8, vX, "y0", "y1")
	g.Op("VREV64 %s, %s", g.V(vX), g.V(vX))
	g.mulAcc(true, numPowers-1)
	g.reduce()
	g.storeState(24)
}

// writeCounters writes counters rC+first..rC+first+7 into the stack's
// counter blocks.
func (g *gen) writeCounters(first int) {
	for i := range 8 {
		g.Op("ADDW $%d, %s, %s", first+i, rC, rT)
		g.Op("REVW %s, %s", rT, rT)
		g.Op("MOVW %s, %d(RSP)", rT, ctrs+16*i+12)
	}
}

// group encrypts the next k counter blocks into V0..V(k-1), hashing the
// hashK blocks at hash between the rounds when hash is set.
func (g *gen) group(k int, hash string, hashK int) {
	if k == 8 {
		for b := 0; b < 8; b += 2 {
			g.Op("FLDPQ %d(RSP), (F%d, F%d)", ctrs+16*b, b, b+1)
		}
		g.writeCounters(8)
	} else {
		g.Op("VMOV %s, V%d.S[3]", rC, vCtr)
		for b := range k {
			g.Op("VREV32 %s, %s", g.V(vCtr), g.V(b))
			g.Op("VADD %s, %s, %s", g.S4(vOne), g.S4(vCtr), g.S4(vCtr))
		}
	}
	g.Op("ADDW $%d, %s", k, rC)
	g.ByRounds(rNR, "rounds",
		func() { g.Rounds(false, k, vFinal, vKey0, vKey0+1) },
		func() { g.Rounds(false, k, vFinal, vKey0+2, vKey0+3) },
		func() {
			for r := range 10 {
				g.Rounds(false, k, vFinal, vKey0+4+r)
				switch {
				case hash == "":
				case r < hashK:
					g.hashStep(r, hashK, hash)
				case r == hashK:
					g.reduce()
				}
			}
		})
	for b := range k {
		g.Xor(vLast, b, b)
	}
}

// xorStore XORs the k blocks at src into V0..V(k-1) and stores them at
// dst, advancing both; V11..V14 take the source.
func (g *gen) xorStore(k int) {
	for b := 0; b < k; b += 4 {
		m := min(k-b, 4)
		g.Load(rSrc, vX, m)
		for j := range m {
			g.Xor(vX+j, b+j, b+j)
		}
		g.Store(rDst, b, m)
	}
}

// crypt writes sealARMv8 (seal) or openARMv8.
func (g *gen) crypt(seal bool) {
	name := "openARMv8"
	if seal {
		name = "sealARMv8"
	}
	g.FuncFrame(name, "nr int, rk *[240]byte, key "+keyType+", dst, src *byte, n int, ctr0, ctr1, y0, y1 uint64) (r0, r1 uint64", frame, 96)
	g.Op("MOVD nr+0(FP), %s", rNR)
	g.Op("MOVD rk+8(FP), %s", rRK)
	g.Op("MOVD key+16(FP), %s", rKey)
	g.Op("MOVD dst+24(FP), %s", rDst)
	g.Op("MOVD src+32(FP), %s", rSrc)
	g.Op("MOVD n+40(FP), %s", rN)
	g.loadWords(48, vCtr, "ctr0", "ctr1")
	g.Op("LSR $32, %s, %s", rT, rC)
	g.Op("REVW %s, %s", rC, rC)
	short := g.NewLabel("short")
	g.Op("CMP $8, %s", rN)
	g.Op("BLT %s", short)
	for i := range 8 {
		g.Op("FMOVQ F%d, %d(RSP)", vCtr, ctrs+16*i)
	}
	g.writeCounters(0)
	g.Label(short)
	g.Op("VREV32 %s, %s", g.V(vCtr), g.V(vCtr))
	g.Xor(vOne, vOne, vOne)
	g.Op("MOVD $1, %s", rT)
	g.Op("VMOV %s, V%d.S[3]", rT, vOne)
	g.loadState(64)
	g.ByRounds(rNR, "keys",
		func() { g.Load(rRK, vKey0, 2) },
		func() { g.Load(rRK, vKey0+2, 2) },
		func() { g.Load(rRK, vKey0+4, 11) })

	if !seal {
		g.BlockLoop(rN, func(k int) {
			g.group(k, rSrc, k)
			g.xorStore(k)
		})
		g.storeState(80)
		return
	}

	// Seal hashes each group of 8 while it encrypts the next.
	loop, last, tail := g.NewLabel("sealLoop"), g.NewLabel("sealLast"), g.NewLabel("sealTail")
	g.Op("CMP $8, %s", rN)
	g.Op("BLT %s", tail)
	g.group(8, "", 0)
	g.xorStore(8)
	g.Op("SUB $8, %s", rN)
	g.Label(loop)
	g.Op("SUB $128, %s, %s", rDst, rHash)
	g.Op("CMP $8, %s", rN)
	g.Op("BLT %s", last)
	g.group(8, rHash, 8)
	g.xorStore(8)
	g.Op("SUB $8, %s", rN)
	g.Op("B %s", loop)
	g.Label(last)
	g.hashGroup(8, rHash)
	g.Label(tail)
	for bit, k := range []int{4, 2, 1} {
		skip := g.NewLabel("skip")
		g.Op("TBZ $%d, %s, %s", 2-bit, rN, skip)
		g.group(k, "", 0)
		g.xorStore(k)
		g.Op("SUB $%d, %s, %s", 16*k, rDst, rHash)
		g.hashGroup(k, rHash)
		g.Label(skip)
	}
	g.storeState(80)
}
