// Command _gen_arm64 generates aes_arm64.s: the kernels of package aes for
// the ARMv8 Cryptography Extensions (AESE, AESMC, AESD, AESIMC) on NEON
// registers, and the key expansion, through the emitter the arm64
// generators share (internal/arm64gen).
//
// Every kernel takes the round count nr (10, 12 or 14), the round keys xk
// (Block.enc or Block.dec) and n >= 1 whole blocks, and keeps all round keys
// in registers: key r lives in V(22-nr+r), so the last ten rounds always use
// V12..V22 and only V8..V11, the extra rounds of AES-192 and AES-256, depend
// on nr. The main loop has 8 blocks in flight (V0..V7); the remaining n mod 8
// blocks go in one group per set bit of that count.
//
// ARMv8's AESE adds the round key before SubBytes and ShiftRows, and AESMC is
// a separate MixColumns, so a round is the pair AESE, AESMC (which cores fuse
// when adjacent), the last round has no AESMC, and the last key is added with
// EOR. AESD and AESIMC run the equivalent inverse cipher with Block.dec in
// the same shape.
package main

import (
	"fmt"

	"github.com/faelabs/fae/internal/arm64gen"
)

//go:generate go run . -out ../aes_arm64.s

// Registers. V0..V7 hold blocks, V8..V22 round keys.
const (
	rNR  = "R0"
	rXK  = "R1"
	rDst = "R2"
	rSrc = "R3"
	rN   = "R4"
	rT   = "R12"

	// expandKey: the key words live in R4..R11.
	rKey  = "R1"
	rEnc  = "R2"
	rDec  = "R3"
	rRcon = "R13"

	lastKey = 22 // register of the last round key
	vIn     = 23 // ctr: V23..V26 take the input to XOR
	vCtr    = 27 // ctr: the counter block as two native-order words hi, lo
	vOne    = 28 // ctr: the words 0, 1
)

func main() {
	arm64gen.Main(func(f *arm64gen.File) {
		g := &gen{File: f}
		g.ecb("encryptBlocksARMv8", false)
		g.ecb("decryptBlocksARMv8", true)
		g.ctr()
		g.words()
		g.expandKey()
	})
}

type gen struct {
	*arm64gen.File
}

// loadKeys loads the nr+1 round keys from xk (clobbered) into V(22-nr)..V22.
func (g *gen) loadKeys() {
	g.ByRounds(rNR, "keys",
		func() { g.Load(rXK, 8, 2) },
		func() { g.Load(rXK, 10, 2) },
		func() { g.Load(rXK, 12, 11) })
}

// cipher runs the full cipher on the blocks in V0..V(n-1).
func (g *gen) cipher(n int, dec bool) {
	g.ByRounds(rNR, "enc",
		func() { g.Rounds(dec, n, lastKey-1, 8, 9) },
		func() { g.Rounds(dec, n, lastKey-1, 10, 11) },
		func() { g.Rounds(dec, n, lastKey-1, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21) })
	for b := range n {
		g.Xor(lastKey, b, b)
	}
}

// prologue starts a kernel taking nr, xk, dst, src, n and loads the keys.
func (g *gen) prologue(name, args string, argSize int) {
	g.Func(name, args, argSize)
	g.Op("MOVD nr+0(FP), %s", rNR)
	g.Op("MOVD xk+8(FP), %s", rXK)
}

func (g *gen) ecb(name string, dec bool) {
	g.prologue(name, "nr int, xk *[240]byte, dst, src *byte, n int", 40)
	g.Op("MOVD dst+16(FP), %s", rDst)
	g.Op("MOVD src+24(FP), %s", rSrc)
	g.Op("MOVD n+32(FP), %s", rN)
	g.loadKeys()
	g.BlockLoop(rN, func(k int) {
		g.Load(rSrc, 0, k)
		g.cipher(k, dec)
		g.Store(rDst, 0, k)
	})
	g.Op("RET")
}

// ctr XORs n blocks of src with the encrypted counter blocks hi:lo, hi:lo+1,
// ... into dst. The caller keeps lo from wrapping within one call, so the
// counter is kept as two native-order words and stepped with a vector add;
// REV64 turns it into the big-endian counter block.
func (g *gen) ctr() {
	g.prologue("ctrBlocksARMv8", "nr int, xk *[240]byte, dst, src *byte, n int, hi, lo uint64", 56)
	g.Op("MOVD dst+16(FP), %s", rDst)
	g.Op("MOVD src+24(FP), %s", rSrc)
	g.Op("MOVD n+32(FP), %s", rN)
	g.Op("MOVD hi+40(FP), %s", rT)
	g.Op("VMOV %s, V%d.D[0]", rT, vCtr)
	g.Op("MOVD lo+48(FP), %s", rT)
	g.Op("VMOV %s, V%d.D[1]", rT, vCtr)
	g.Xor(vOne, vOne, vOne)
	g.Op("MOVD $1, %s", rT)
	g.Op("VMOV %s, V%d.D[1]", rT, vOne)
	g.loadKeys()
	g.BlockLoop(rN, func(k int) {
		for b := range k {
			g.Op("VREV64 %s, %s", g.V(vCtr), g.V(b))
			g.Op("VADD V%d.D2, V%d.D2, V%d.D2", vOne, vCtr, vCtr)
		}
		g.cipher(k, false)
		for b := 0; b < k; b += 4 {
			m := min(k-b, 4)
			g.Load(rSrc, vIn, m)
			for j := range m {
				g.Xor(b+j, vIn+j, vIn+j)
			}
			g.Store(rDst, vIn, m)
		}
	})
	g.Op("RET")
}

// words encrypts the block whose bytes are the little-endian words w0, w1,
// passed in and out of general registers: a block that Go code has just
// assembled from 8-byte stores, loaded as 16 bytes, would wait for those
// stores to reach the cache.
func (g *gen) words() {
	g.prologue("encryptWordsARMv8", "nr int, xk *[240]byte, w0, w1 uint64) (r0, r1 uint64", 48)
	g.Op("MOVD w0+16(FP), %s", rT)
	g.Op("VMOV %s, V0.D[0]", rT)
	g.Op("MOVD w1+24(FP), %s", rT)
	g.Op("VMOV %s, V0.D[1]", rT)
	g.loadKeys()
	g.cipher(1, false)
	g.Op("VMOV V0.D[0], %s", rT)
	g.Op("MOVD %s, r0+32(FP)", rT)
	g.Op("VMOV V0.D[1], %s", rT)
	g.Op("MOVD %s, r1+40(FP)", rT)
	g.Op("RET")
}

// expandKey writes the encryption round keys of the nr-round key at key to
// enc and the equivalent inverse cipher's keys to dec (see Block.dec),
// leaving the bytes past the last round key alone. The schedule runs on
// 32-bit words in general registers; SubWord is AESE with a zero key on the
// word copied into all four columns, which ShiftRows then leaves in place.
func (g *gen) expandKey() {
	g.Func("expandKeyARMv8", "nr int, key *byte, enc, dec *[240]byte", 32)
	g.Op("MOVD nr+0(FP), %s", rNR)
	g.Op("MOVD key+8(FP), %s", rKey)
	g.Op("MOVD enc+16(FP), %s", rEnc)
	g.Op("MOVD dec+24(FP), %s", rDec)
	g.Xor(0, 0, 0)
	l192, l128, inv := g.NewLabel("sched192_"), g.NewLabel("sched128_"), g.NewLabel("inverse")
	g.Op("CMP $12, %s", rNR)
	g.Op("BLT %s", l128)
	g.Op("BEQ %s", l192)
	g.schedule(8)
	g.Op("B %s", inv)
	g.Label(l192)
	g.schedule(6)
	g.Op("B %s", inv)
	g.Label(l128)
	g.schedule(4)

	// dec[0] = enc[nr], dec[m] = InvMixColumns(enc[nr-m]), dec[nr] = enc[0].
	g.Label(inv)
	loop := g.NewLabel("invloop")
	g.Op("ADD %s<<4, %s, %s", rNR, rEnc, rT)
	g.Op("VLD1 (%s), [V1.B16]", rT)
	g.Op("VST1.P [V1.B16], 16(%s)", rDec)
	g.Op("SUB $1, %s", rNR)
	g.Label(loop)
	g.Op("SUB $16, %s", rT)
	g.Op("VLD1 (%s), [V1.B16]", rT)
	g.Op("AESIMC V1.B16, V1.B16")
	g.Op("VST1.P [V1.B16], 16(%s)", rDec)
	g.Op("SUBS $1, %s", rNR)
	g.Op("BNE %s", loop)
	g.Op("VLD1 (%s), [V1.B16]", rEnc)
	g.Op("VST1 [V1.B16], (%s)", rDec)
	g.Op("RET")
}

// schedule expands an nk-word key (FIPS 197, Section 5.2) into enc, word
// w[i] in register R(4 + i mod nk).
func (g *gen) schedule(nk int) {
	w := func(i int) string { return fmt.Sprintf("R%d", 4+i%nk) }
	subWord := func(i int) {
		g.Op("VDUP %s, V1.S4", w(i))
		g.Op("AESE V0.B16, V1.B16")
		g.Op("VMOV V1.S[0], %s", rT)
	}
	rcon := 1
	for i := 0; i < 4*(nk+7); i++ {
		switch {
		case i < nk:
			g.Op("MOVWU %d(%s), %s", 4*i, rKey, w(i))
		case i%nk == 0:
			// RotWord commutes with SubWord: rotate the result.
			subWord(i - 1)
			g.Op("RORW $8, %s, %s", rT, rT)
			g.Op("MOVW $%#x, %s", rcon, rRcon)
			g.Op("EORW %s, %s, %s", rRcon, rT, rT)
			g.Op("EORW %s, %s, %s", rT, w(i), w(i))
			if rcon <<= 1; rcon > 0xff {
				rcon ^= 0x11b
			}
		case nk == 8 && i%nk == 4:
			subWord(i - 1)
			g.Op("EORW %s, %s, %s", rT, w(i), w(i))
		default:
			g.Op("EORW %s, %s, %s", w(i-1), w(i), w(i))
		}
		g.Op("MOVW %s, %d(%s)", w(i), 4*i, rEnc)
	}
}
