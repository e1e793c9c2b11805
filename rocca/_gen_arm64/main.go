// Command _gen_arm64 generates rocca_arm64.s: the ROCCA-S kernels for the
// ARMv8 Cryptography Extensions on NEON registers, through the emitter the
// arm64 generators share (internal/arm64gen).
//
// The kernels are those of rocca_amd64.s, with the same contracts, and the
// state stays in registers for the whole call. An AES round
// A(x, k) = MixColumns(ShiftRows(SubBytes(x))) ^ k is AESE with a zero key,
// AESMC, and EOR k. AESE and AESMC overwrite their input, so each block's
// AESE comes after the block's last use as a key (absorbRound has the
// order), and the new block is then finished in the register of the old one:
// S'i lands where S(i-1) was. S6 is never the input of an AES round, which
// lets encryption and decryption run the keystream's A(S4 ^ S6, S2) as AESE
// on S6's register with S4 as its key, saving the EOR of S4 and S6; S'0
// (S6 ^ S1) then goes to a spare register, and S6's becomes the spare. So the
// roles turn through eight registers there, and through seven in absorb,
// init and finalize (S'0 where S6 was). As on amd64, the loop body is one
// turn long, and a tail of fewer rounds leaves through one exit per
// arrangement, each storing the state from its own registers.
//
// A round of encryption or decryption is 8 AESE, 8 AESMC and 12 EOR, and no
// moves, which a core with two AES pipes issues in 8 cycles. The dependency
// chains fit in that, with AESE+AESMC taking 3 cycles and EOR 2: the
// longest, in decryption, take S4 to S'4 in 7 cycles, through the
// keystream's AESE (S4 its key), AESMC and two EORs (M1, and
// S'4 = A(S3) ^ M1), and S3 ^ S5 to the next S1, then S2, then S3 in 19
// cycles over three rounds. So the kernels keep the instruction count down
// rather than reassociate the XORs as the amd64 decryption kernel does,
// which costs EORs here that x86 folds into AESENC.
package main

import (
	"log"

	"github.com/faelabs/fae/internal/arm64gen"
)

//go:generate go run . -out ../rocca_arm64.s

// General-purpose registers.
const (
	rS   = "R0" // state
	rSrc = "R1"
	rDst = "R2"
	rN   = "R3" // rounds left
	rT   = "R4" // scratch
	rU   = "R5" // scratch
)

// Vector registers besides the state's V0..V6 and the spare V7.
const (
	vZero    = 8
	vO0, vO1 = 9, 10  // keystream, then ciphertext (encryption) or plaintext (decryption)
	vI0, vI1 = 11, 12 // the round's input blocks
	vP0, vP1 = 13, 14 // the keystream's keys S0 and S2 XOR the input blocks
	vK0, vK1 = 13, 14 // init: the key
	vZ0, vZ1 = 15, 16 // init: Z0 and Z1
)

// z0 || z1, the initialisation constants, in memory order.
var z = [32]byte{
	0xcd, 0x65, 0xef, 0x23, 0x91, 0x44, 0x37, 0x71, 0x22, 0xae, 0x28, 0xd7, 0x98, 0x2f, 0x8a, 0x42,
	0xbc, 0xdb, 0x89, 0x81, 0xa5, 0xdb, 0xb5, 0xe9, 0x2f, 0x3b, 0x4d, 0xec, 0xcf, 0xfb, 0xc0, 0xb5,
}

type op int

const (
	absorb op = iota
	encrypt
	decrypt
)

// roles says which register holds S_i (m[i]) and which is spare (m[7]).
type roles [8]int

type gen struct {
	*arm64gen.File
	o op
	m roles
}

func main() {
	arm64gen.Main(func(f *arm64gen.File) {
		g := &gen{File: f}
		g.Data("z", z[:])
		g.initialize()
		g.finalize()
		g.o = absorb
		g.blocks("absorbARMv8", "s *[7][16]byte, src *byte, n int", 24,
			"absorbARMv8 runs n >= 1 rounds that absorb the 32-byte blocks at src.")
		g.o = encrypt
		g.blocks("encryptARMv8", "s *[7][16]byte, dst, src *byte, n int", 32,
			"encryptARMv8 encrypts n >= 1 blocks from src into dst.")
		g.o = decrypt
		g.blocks("decryptARMv8", "s *[7][16]byte, dst, src *byte, n int", 32,
			"decryptARMv8 decrypts n >= 1 blocks from src into dst.")
	})
}

// aes replaces x with MixColumns(ShiftRows(SubBytes(x ^ k))).
func (g *gen) aes(k, x int) {
	g.Op("AESE %s, %s", g.V(k), g.V(x))
	g.Op("AESMC %s, %s", g.V(x), g.V(x))
}

// text starts a function; doc is its comment.
func (g *gen) text(name, args string, argSize int, doc string) {
	g.Printf("\n// %s\n//", doc)
	g.Func(name, args, argSize)
}

// first is the arrangement in which the kernels load the state.
var first = roles{0, 1, 2, 3, 4, 5, 6, 7}

// loadState loads the state from rS into V0..V6.
func (g *gen) loadState() {
	g.m = first
	g.Op("MOVD %s, %s", rS, rT)
	g.Op("VLD1.P 64(%s), %s", rT, g.Regs(0, 4))
	g.Op("VLD1 (%s), %s", rT, g.Regs(4, 3))
}

// storeState stores the state to rS, as many consecutive registers at a
// time as the arrangement allows.
func (g *gen) storeState() {
	g.Op("MOVD %s, %s", rS, rT)
	s := g.m[:7]
	for i := 0; i < 7; {
		n := 1
		for i+n < 7 && n < 4 && s[i+n] == s[i]+n {
			n++
		}
		regs := g.Regs(s[i], n)
		if i += n; i < 7 {
			g.Op("VST1.P %s, %d(%s)", regs, 16*n, rT)
		} else {
			g.Op("VST1 %s, (%s)", regs, rT)
		}
	}
}

// absorbRound emits the state update of R(S, x0, x1). With keystream set,
// it also runs the AES round of S4 ^ S6 in S6's register, after S6's last
// use, and puts S'0 in the spare register; it calls mid, if not nil,
// halfway, before x0 and x1 are used.
func (g *gen) absorbRound(x0, x1 int, keystream bool, mid func()) {
	s := g.m
	g.aes(vZero, s[5])
	g.aes(vZero, s[2])
	g.Xor(s[4], s[5], s[5]) // S'6 = A(S5) ^ S4
	g.Xor(s[6], s[2], s[2]) // S'3 = A(S2) ^ S6
	s0 := s[6]
	if keystream {
		s0 = s[7]
	}
	g.Xor(s[1], s[6], s0) // S'0 = S6 ^ S1
	if keystream {
		g.aes(s[4], s[6])
	}
	g.aes(vZero, s[4])
	if mid != nil {
		mid()
	}
	g.aes(vZero, s[1])
	g.Xor(s[3], s[4], s[4]) // S'5 = A(S4) ^ S3
	g.aes(vZero, s[3])
	g.Xor(s[0], s[1], s[1]) // S'2 = A(S1) ^ S0
	g.aes(vZero, s[0])
	g.Xor(x1, s[3], s[3]) // S'4 = A(S3) ^ X1
	g.Xor(x0, s[0], s[0]) // S'1 = A(S0) ^ X0
	if keystream {
		g.m = roles{s[7], s[0], s[1], s[2], s[3], s[4], s[5], s[6]}
	} else {
		g.m = roles{s[6], s[0], s[1], s[2], s[3], s[4], s[5], s[7]}
	}
}

// round emits one round over the next block at rSrc.
func (g *gen) round() {
	s := g.m
	g.Op("VLD1.P 32(%s), %s", rSrc, g.Regs(vI0, 2))
	if g.o == absorb {
		g.absorbRound(vI0, vI1, false, nil)
		return
	}
	// The keystream is A(S3^S5, S0) || A(S4^S6, S2).
	g.Xor(s[3], s[5], vO0)
	g.Xor(s[0], vI0, vP0)
	g.Xor(s[2], vI1, vP1)
	g.aes(vZero, vO0)
	out := func() {
		g.Xor(vP0, vO0, vO0)
		g.Xor(vP1, s[6], vO1)
		g.Op("VST1.P %s, 32(%s)", g.Regs(vO0, 2), rDst)
	}
	if g.o == encrypt {
		g.absorbRound(vI0, vI1, true, out)
	} else {
		// The state absorbs the plaintext, vO0 and vO1 once out has run.
		g.absorbRound(vO0, vO1, true, out)
	}
}

// initialize emits initARMv8: the state from key and nonce, the 16 rounds
// that absorb Z0 || Z1, and the key added in.
func (g *gen) initialize() {
	g.text("initARMv8", "s *[7][16]byte, key *[32]byte, nonce *byte", 24,
		"initARMv8 initialises s from key and the 16-byte nonce.")
	g.Op("MOVD s+0(FP), %s", rS)
	g.Op("MOVD key+8(FP), %s", rT)
	g.Op("MOVD nonce+16(FP), %s", rU)
	g.Op("VLD1 (%s), %s", rT, g.Regs(vK0, 2))
	g.Op("MOVD $z<>(SB), %s", rT)
	g.Op("VLD1 (%s), %s", rT, g.Regs(vZ0, 2))
	g.Op("VLD1 (%s), %s", rU, g.Regs(1, 1))
	g.Xor(vZero, vZero, vZero)
	g.m = first
	g.Op("VMOV %s, %s", g.V(vK1), g.V(0))
	g.Op("VMOV %s, %s", g.V(vZ0), g.V(2))
	g.Op("VMOV %s, %s", g.V(vK0), g.V(3))
	g.Op("VMOV %s, %s", g.V(vZ1), g.V(4))
	g.Xor(vK1, 1, 5)
	g.Xor(6, 6, 6)
	for range 16 {
		g.absorbRound(vZ0, vZ1, false, nil)
	}
	for i, k := range []int{vK0, vK0, vK1, vK0, vK0, vK1, vK1} {
		g.Xor(k, g.m[i], g.m[i])
	}
	g.storeState()
	g.Op("RET")
}

// finalize emits finalizeARMv8: 16 rounds that absorb the bit lengths, and
// the tag.
func (g *gen) finalize() {
	g.text("finalizeARMv8", "s *[7][16]byte, tag *[32]byte, adLen, mLen uint64", 32,
		"finalizeARMv8 finalises s after adLen bytes of associated data and mLen of message and writes the tag.")
	g.Op("MOVD s+0(FP), %s", rS)
	g.Op("MOVD tag+8(FP), %s", rDst)
	for i, p := range []string{"adLen", "mLen"} {
		x := []int{vI0, vI1}[i]
		g.Op("MOVD %s+%d(FP), %s", p, 16+8*i, rT)
		g.Op("LSL $3, %s, %s", rT, rU)
		g.Op("VMOV %s, V%d.D[0]", rU, x)
		g.Op("LSR $61, %s, %s", rT, rU)
		g.Op("VMOV %s, V%d.D[1]", rU, x)
	}
	g.Xor(vZero, vZero, vZero)
	g.loadState()
	for range 16 {
		g.absorbRound(vI0, vI1, false, nil)
	}
	s := g.m
	g.Xor(s[0], s[1], vO0)
	g.Xor(s[2], s[3], vO1)
	g.Xor(vO1, vO0, vO0)
	g.Xor(s[4], s[5], vO1)
	g.Xor(s[6], vO1, vO1)
	g.Op("VST1 %s, (%s)", g.Regs(vO0, 2), rDst)
	g.Op("RET")
}

// blocks emits a kernel that runs n >= 1 rounds over the blocks at src.
func (g *gen) blocks(name, args string, argSize int, doc string) {
	g.text(name, args, argSize, doc)
	g.Op("MOVD s+0(FP), %s", rS)
	if g.o == absorb {
		g.Op("MOVD src+8(FP), %s", rSrc)
		g.Op("MOVD n+16(FP), %s", rN)
	} else {
		g.Op("MOVD dst+8(FP), %s", rDst)
		g.Op("MOVD src+16(FP), %s", rSrc)
		g.Op("MOVD n+24(FP), %s", rN)
	}
	g.Xor(vZero, vZero, vZero)
	g.loadState()

	// The roles turn through seven registers, or eight.
	turn := 7
	if g.o != absorb {
		turn = 8
	}
	loop, tail := g.NewLabel("loop"), g.NewLabel("tail")
	exits := make([]string, turn)
	arrangements := make([]roles, turn)
	for j := range exits {
		exits[j] = g.NewLabel("exit")
	}

	g.Label(loop)
	g.Op("CMP $%d, %s", turn, rN)
	g.Op("BLT %s", tail)
	for range turn {
		g.round()
	}
	if g.m != first {
		log.Fatalf("%s: the loop body does not restore the registers' roles", name)
	}
	g.Op("SUB $%d, %s", turn, rN)
	g.Op("B %s", loop)

	// Fewer rounds left than a turn, and the registers in their first roles.
	g.Label(tail)
	arrangements[0] = g.m
	g.Op("CBZ %s, %s", rN, exits[0])
	for j := range turn - 1 {
		g.round()
		arrangements[j+1] = g.m
		if j < turn-2 {
			g.Op("CMP $%d, %s", j+1, rN)
			g.Op("BEQ %s", exits[j+1])
		}
	}
	for j := turn - 1; j >= 0; j-- {
		g.Label(exits[j])
		g.m = arrangements[j]
		g.storeState()
		g.Op("RET")
	}
}
