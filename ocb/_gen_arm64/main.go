// Command _gen_arm64 generates ocb_arm64.s: the fused OCB3 kernels for whole
// blocks with the ARMv8 Cryptography Extensions, through the emitter the
// arm64 generators share (internal/arm64gen).
//
// Each kernel processes n whole blocks that follow block index i of a message
// (or of the associated data), i a multiple of 8, and takes and returns the
// offset and the checksum (or AD sum) as little-endian words. A group of 8
// blocks takes the offsets of its first 7 blocks from the per-key table rel
// (rel[j] = offset of block j+1 of a group relative to the offset before the
// group), and only its last block needs L_ntz: one table lookup per group.
//
// The first round key is folded into the offsets: the register B0 holds the
// offset before the group XOR K0, so P_j = B0 ^ rel[j] is block j's offset
// XOR K0, and AESE with P_j as its key whitens the input and runs the first
// round at once. P_7 is the next group's B0. The last round adds
// P_j ^ (K0 ^ Klast) = offset ^ Klast. Decryption does the same with the
// equivalent inverse cipher's keys.
//
// Registers: V0..V7 blocks, V8 scratch, V9..V21 round keys 1..nr-1 (key r
// in V(22-nr+r), so only V9..V12 depend on nr), V22 K0 ^ Klast (Klast for
// the AD hash), V23 the sum, V24..V31 P_0..P_7, V31 also B0.
package main

import "github.com/faelabs/fae/internal/arm64gen"

//go:generate go run . -out ../ocb_arm64.s

type op int

const (
	enc  op = iota // dst = E(src^O)^O, sum ^= src
	dec            // dst = D(src^O)^O, sum ^= dst
	hash           // sum ^= E(src^O)
)

const (
	rNR   = "R0"
	rRK   = "R1"
	rRel  = "R2"
	rL    = "R3"
	rDst  = "R4"
	rSrc  = "R5"
	rN    = "R6"
	rIdx  = "R7"
	rT    = "R8"
	rRel4 = "R9" // rel+64 in the main loop; the next rel entry in the tail

	vTmp  = 8
	vKX   = 22
	vSum  = 23
	vP    = 24
	vBase = 31
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

// args returns the Go signature's parameters and the frame offset of off0.
func (g *gen) args() (string, int) {
	if g.o == hash {
		return "nr int, rk *[240]byte, rel *[32][16]byte, l *[32][16]byte, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64", 56
	}
	return "nr int, rk *[240]byte, rel *[32][16]byte, l *[32][16]byte, dst, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64", 64
}

func (g *gen) function() {
	name := "ocb" + [...]string{"Enc", "Dec", "Hash"}[g.o] + "ARMv8"
	args, off := g.args()
	g.Func(name, args, off+64)
	g.Op("MOVD nr+0(FP), %s", rNR)
	g.Op("MOVD rk+8(FP), %s", rRK)
	g.Op("MOVD rel+16(FP), %s", rRel)
	g.Op("MOVD l+24(FP), %s", rL)
	if g.o != hash {
		g.Op("MOVD dst+32(FP), %s", rDst)
	}
	g.Op("MOVD src+%d(FP), %s", off-24, rSrc)
	g.Op("MOVD n+%d(FP), %s", off-16, rN)
	g.Op("MOVD i+%d(FP), %s", off-8, rIdx)
	for j, w := range []string{"off0", "off1"} {
		g.Op("MOVD %s+%d(FP), %s", w, off+8*j, rT)
		g.Op("VMOV %s, V%d.D[%d]", rT, vBase, j)
	}
	for j, w := range []string{"sum0", "sum1"} {
		g.Op("MOVD %s+%d(FP), %s", w, off+16+8*j, rT)
		g.Op("VMOV %s, V%d.D[%d]", rT, vSum, j)
	}
	g.Op("VLD1 (%s), [%s]", rRK, g.V(vTmp))
	g.Xor(vTmp, vBase, vBase)
	g.loadKeys()
	if g.o != hash {
		g.Xor(vTmp, vKX, vKX)
	}
	g.Op("ADD $64, %s, %s", rRel, rRel4)

	loop, tail, done := g.NewLabel("loop"), g.NewLabel("tail"), g.NewLabel("done")
	g.Label(loop)
	g.Op("CMP $8, %s", rN)
	g.Op("BLT %s", tail)
	g.Op("VLD1 (%s), %s", rRel, g.Regs(vP, 4))
	g.Op("VLD1 (%s), %s", rRel4, g.Regs(vP+4, 3))
	for j := range 7 {
		g.Xor(vBase, vP+j, vP+j)
	}
	// The group's last block is block i+8: its offset needs L_ntz(i+8).
	g.Op("ADD $8, %s", rIdx)
	g.Op("RBIT %s, %s", rIdx, rT)
	g.Op("CLZ %s, %s", rT, rT)
	g.Op("ADD %s<<4, %s, %s", rT, rL, rT)
	g.Op("VLD1 (%s), [%s]", rT, g.V(vBase))
	g.Xor(vP+6, vBase, vBase)
	g.body(8)
	g.Op("SUB $8, %s", rN)
	g.Op("B %s", loop)

	// Fewer than 8 blocks: no L lookup; the offsets stay relative to B0, and
	// B0 moves by the last block's rel entry at the end.
	g.Label(tail)
	g.Op("CBZ %s, %s", rN, done)
	g.Op("MOVD %s, %s", rRel, rRel4)
	for _, k := range []int{4, 2, 1} {
		skip := g.NewLabel("skip")
		g.Op("TBZ $%d, %s, %s", map[int]int{4: 2, 2: 1, 1: 0}[k], rN, skip)
		g.Load(rRel4, vP, k)
		for j := range k {
			g.Xor(vBase, vP+j, vP+j)
		}
		g.body(k)
		g.Label(skip)
	}
	g.Op("SUB $16, %s", rRel4)
	g.Op("VLD1 (%s), [%s]", rRel4, g.V(vTmp))
	g.Xor(vTmp, vBase, vBase)

	g.Label(done)
	g.Op("VLD1 (%s), [%s]", rRK, g.V(vTmp))
	g.Xor(vTmp, vBase, vTmp)
	for j, w := range []string{"o0", "o1"} {
		g.Op("VMOV V%d.D[%d], %s", vTmp, j, rT)
		g.Op("MOVD %s, %s+%d(FP)", rT, w, off+32+8*j)
	}
	for j, w := range []string{"s0", "s1"} {
		g.Op("VMOV V%d.D[%d], %s", vSum, j, rT)
		g.Op("MOVD %s, %s+%d(FP)", rT, w, off+48+8*j)
	}
	g.Op("RET")
}

// loadKeys loads round keys 1..nr from rk+16 into V(23-nr)..V22.
func (g *gen) loadKeys() {
	g.Op("ADD $16, %s, %s", rRK, rT)
	g.ByRounds(rNR, "keys",
		func() { g.Load(rT, 9, 2) },
		func() { g.Load(rT, 11, 2) },
		func() { g.Load(rT, 13, 10) })
}

// body processes k blocks from src with the offsets (XOR K0) in
// V24..V(24+k-1).
func (g *gen) body(k int) {
	round, mix := "AESE", "AESMC"
	if g.o == dec {
		round, mix = "AESD", "AESIMC"
	}
	g.Load(rSrc, 0, k)
	if g.o == enc {
		for b := range k {
			g.Xor(b, vSum, vSum)
		}
	}
	for b := range k {
		g.Op("%s %s, %s", round, g.V(vP+b), g.V(b))
		g.Op("%s %s, %s", mix, g.V(b), g.V(b))
	}
	// The offsets are needed again only XOR K0 ^ Klast; P_7 (B0) stays.
	fin := func(b int) int {
		if vP+b == vBase {
			return vTmp
		}
		return vP + b
	}
	if g.o != hash {
		for b := range k {
			g.Xor(vKX, vP+b, fin(b))
		}
	}
	d := g.o == dec
	g.ByRounds(rNR, "rounds",
		func() { g.Rounds(d, k, vKX-1, 9, 10) },
		func() { g.Rounds(d, k, vKX-1, 11, 12) },
		func() { g.Rounds(d, k, vKX-1, 13, 14, 15, 16, 17, 18, 19, 20, 21) })
	for b := range k {
		if g.o == hash {
			g.Xor(vKX, b, b)
		} else {
			g.Xor(fin(b), b, b)
		}
	}
	if g.o != enc {
		for b := range k {
			g.Xor(b, vSum, vSum)
		}
	}
	if g.o != hash {
		g.Store(rDst, 0, k)
	}
}
