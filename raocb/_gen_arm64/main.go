// Command _gen_arm64 generates raocb_arm64.s: the fused RAOCB kernels for
// whole blocks with the ARMv8 Cryptography Extensions, through the emitter
// the arm64 generators share (internal/arm64gen).
//
// Each kernel processes n whole blocks, block j with the mask
// Δ(x ⊞ j) = AESENC(AESENC(x ⊞ j, R1), R2), and XORs the checksum (or AD
// sum) into *sum, as raocb_amd64.s does. A group of 8 blocks first computes
// its 8 masks, then runs the cipher on the 8 blocks; the masks depend only
// on the counter, so an out-of-order core overlaps a group's masks with the
// previous group's last rounds.
//
// The mask pipeline keeps x ⊞ j in a register as little-endian 32-bit words
// (the byte-swapped big-endian words of the profile), steps it with a vector
// add and swaps the bytes back with REV32. ARMv8's AESE adds its key before
// SubBytes and ShiftRows and AESMC is a separate MixColumns, so
// AESENC(AESENC(y, R1), R2) is AESE with a zero key, AESMC, AESE with R1,
// AESMC, then R2 added.
//
// The masks fold into the round keys as on amd64, with mk = R1, R2 ^ K0,
// K0 ^ Klast: adding R2 ^ K0 yields Δ ^ K0, the key of the cipher's first
// AESE, which masks and whitens the input at once; XORed with K0 ^ Klast it
// is Δ ^ Klast, the last round key, which also unmasks the output. Beyond
// its cipher rounds and checksum, a block then costs two mask rounds, a byte
// swap, an add and two XORs. Decryption runs AESD and AESIMC with the
// equivalent inverse cipher's keys in the same shape; the masks always use
// AESE. The AD hash needs no unmasking: its last key, Klast, is XORed into
// the sum once per odd-sized group only, since it cancels in pairs.
//
// Registers: V0..V7 blocks, V8..V15 masks, V16..V28 round keys 1..nr-1 (key
// r in V(29-nr+r), so only V16..V19 depend on nr), V29 the counter, V30 the
// sum, V31 K0 ^ Klast (Klast for the hash). While a group's masks are
// computed, V4..V7 hold R1, R2 ^ K0, the counter step and zero; they are
// reloaded for each group, and the group's last four blocks are loaded into
// them afterwards.
package main

import "github.com/faelabs/fae/internal/arm64gen"

//go:generate go run . -out ../raocb_arm64.s

type op int

const (
	enc  op = iota // dst = E(src^Δ)^Δ, sum ^= src
	dec            // dst = D(src^Δ)^Δ, sum ^= dst
	hash           // sum ^= E(src^Δ)
)

const (
	rNR  = "R0"
	rRK  = "R1"
	rMK  = "R2"
	rX   = "R3"
	rDst = "R4"
	rSrc = "R5"
	rN   = "R6"
	rSum = "R7"
	rT   = "R8"
	rOne = "R9"

	vMask = 8  // V8..V15: masks
	vR1   = 4  // R1, during the mask rounds
	vR2   = 5  // R2 ^ K0, during the mask rounds
	vStep = 6  // 1 in every word, during the mask rounds
	vZero = 7  // zero, during the mask rounds
	vLast = 28 // round key nr-1
	vCtr  = 29
	vSum  = 30
	vKX   = 31
)

func main() {
	arm64gen.Main(func(f *arm64gen.File) {
		g := &gen{File: f}
		for _, o := range []op{enc, dec, hash} {
			g.o = o
			g.function()
		}
	})
}

type gen struct {
	*arm64gen.File
	o op
}

func (g *gen) function() {
	name := "raocb" + [...]string{"Enc", "Dec", "Hash"}[g.o] + "ARMv8"
	args, srcOff := "nr int, rk *[240]byte, mk *[3][16]byte, x, sum *[16]byte, dst, src *byte, n int", 48
	if g.o == hash {
		args, srcOff = "nr int, rk *[240]byte, mk *[3][16]byte, x, sum *[16]byte, src *byte, n int", 40
	}
	g.Func(name, args, srcOff+16)
	g.Op("MOVD nr+0(FP), %s", rNR)
	g.Op("MOVD rk+8(FP), %s", rRK)
	g.Op("MOVD mk+16(FP), %s", rMK)
	g.Op("MOVD x+24(FP), %s", rX)
	g.Op("MOVD sum+32(FP), %s", rSum)
	if g.o != hash {
		g.Op("MOVD dst+40(FP), %s", rDst)
	}
	g.Op("MOVD src+%d(FP), %s", srcOff, rSrc)
	g.Op("MOVD n+%d(FP), %s", srcOff+8, rN)
	g.Op("MOVD $1, %s", rOne)
	g.Op("VLD1 (%s), [%s]", rX, g.V(vCtr))
	g.Op("VREV32 %s, %s", g.V(vCtr), g.V(vCtr))
	g.Op("VLD1 (%s), [%s]", rSum, g.V(vSum))
	g.loadKeys()
	if g.o == hash {
		g.Op("VLD1 (%s), [%s]", rT, g.V(vKX)) // Klast, after the keys loaded
	} else {
		g.Op("ADD $32, %s, %s", rMK, rT)
		g.Op("VLD1 (%s), [%s]", rT, g.V(vKX))
	}

	g.BlockLoop(rN, g.body)
	g.Op("VST1 [%s], (%s)", g.V(vSum), rSum)
	g.Op("RET")
}

// loadKeys loads round keys 1..nr-1 from rk+16 into V(29-nr)..V28, leaving
// the address of key nr in rT.
func (g *gen) loadKeys() {
	g.Op("ADD $16, %s, %s", rRK, rT)
	g.ByRounds(rNR, "keys",
		func() { g.Load(rT, 16, 2) },
		func() { g.Load(rT, 18, 2) },
		func() { g.Load(rT, 20, 9) })
}

// body processes k blocks from src (k = 8 in the main loop; 4, 2 or 1 in the
// tail), advancing the counter by k.
func (g *gen) body(k int) {
	round, mix := "AESE", "AESMC"
	if g.o == dec {
		round, mix = "AESD", "AESIMC"
	}
	first := min(k, 4) // blocks loaded before the mask rounds
	g.Load(rSrc, 0, first)
	if g.o == enc {
		for b := range first {
			g.Xor(b, vSum, vSum)
		}
	}

	// The masks, Δ ^ K0.
	g.Op("VLD1 (%s), %s", rMK, g.Regs(vR1, 2))
	g.Op("VDUP %s, V%d.S4", rOne, vStep)
	g.Xor(vZero, vZero, vZero)
	for b := range k {
		g.Op("VREV32 %s, %s", g.V(vCtr), g.V(vMask+b))
		g.Op("VADD V%d.S4, V%d.S4, V%d.S4", vStep, vCtr, vCtr)
	}
	for _, key := range []int{vZero, vR1} {
		for b := range k {
			g.Op("AESE %s, %s", g.V(key), g.V(vMask+b))
			g.Op("AESMC %s, %s", g.V(vMask+b), g.V(vMask+b))
		}
	}
	for b := range k {
		g.Xor(vR2, vMask+b, vMask+b)
	}
	if k > first {
		g.Load(rSrc, first, k-first)
		if g.o == enc {
			for b := first; b < k; b++ {
				g.Xor(b, vSum, vSum)
			}
		}
	}

	// The first round, whitening and masking; then the masks become the
	// last round keys, Δ ^ Klast.
	for b := range k {
		g.Op("%s %s, %s", round, g.V(vMask+b), g.V(b))
		g.Op("%s %s, %s", mix, g.V(b), g.V(b))
		if g.o != hash {
			g.Xor(vKX, vMask+b, vMask+b)
		}
	}
	d := g.o == dec
	g.ByRounds(rNR, "rounds",
		func() { g.Rounds(d, k, vLast, 16, 17) },
		func() { g.Rounds(d, k, vLast, 18, 19) },
		func() { g.Rounds(d, k, vLast, 20, 21, 22, 23, 24, 25, 26, 27, 28) })

	if g.o == hash {
		for b := range k {
			g.Xor(b, vSum, vSum)
		}
		if k%2 == 1 {
			g.Xor(vKX, vSum, vSum)
		}
		return
	}
	for b := range k {
		g.Xor(vMask+b, b, b)
	}
	if g.o == dec {
		for b := range k {
			g.Xor(b, vSum, vSum)
		}
	}
	g.Store(rDst, 0, k)
}
