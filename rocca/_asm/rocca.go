// Command rocca generates rocca_amd64.s: the ROCCA-S kernels on AES-NI.
//
// The seven state blocks stay in xmm registers. A round writes each new
// block into the register of a block it no longer needs, so the roles turn
// by one register per round (S'i lands where S(i-1) was, S'0 where S6 was)
// and the loop body is seven rounds long, after which the registers hold
// their first roles again; a tail of up to six rounds leaves through one of
// seven exits, each storing the state from its own arrangement.
//
// Encryption does the 8 AESENC of a round (6 for the state, 2 for the
// keystream), all independent of one another. Its critical path is one
// AESENC per round (for example S3 -> S4 -> S5 -> S6 -> S3, through data and
// key inputs alike): 4 cycles per 32 bytes at a 4-cycle AESENC, which is
// also the issue bound of two AESENC per cycle. With both bounds tight, and
// the XORs competing for the AES units' ports, Zen 4 runs about 5 cycles.
// The keystream AESENC come last in the round, which measured best; taking
// both keystream blocks in one ymm VAESENC saves an AES issue but the lane
// insertions it needs cost more than that.
//
// Decryption must compute the plaintext, which takes an AESENC of the old
// state, before the round can absorb it, which done literally puts two
// AESENC (and XORs) on the path from S4 back to S4. The kernel removes the
// chained AESENC by linearity, with A(x) = AESENC(x, 0):
//
//	M0  = A(S3^S5) ^ S0 ^ C0           S'1 = A(S0) ^ M0
//	M1  = A(S4^S6) ^ S2 ^ C1           S'4 = A(S3) ^ M1
//
// computing PU = AESENC(U, S0), P0 = AESENC(S0, C0), PT = AESENC(T, C1) and
// P3 = AESENC(S3, S2), so that M0 = PU^C0, S'1 = P0^PU, M1 = PT^S2 and
// S'4 = P3^PT, and it carries U = S3^S5 and T = S4^S6 from round to round,
// computing T' = S'4^S'6 = P3^PT^S'6 straight from the AESENC results (one
// VPTERNLOGD with AVX-512, two VPXOR otherwise) and U' = S'3^S'5. Every
// value then depends on the previous round's through at most one AESENC and
// one XOR, and the loop T -> PT -> T' bounds decryption at one AESENC plus
// one XOR per round: 5 cycles per 32 bytes at a 4-cycle AESENC, against 4
// for encryption. No schedule does better: T' = A(T) ^ A(S3) ^ A(S5) ^ ...
// needs either a final XOR after A(T) (the loop above) or A(S3) and A(S5)
// folded into PT's key, which puts two AESENC on the paths from S3 and S5,
// and the cycle T -> S4 -> S5 -> T then needs at least 4 + 4 + 9 cycles for
// three rounds. Without AVX-512 the two XORs cost the S4 -> S'6 -> T' -> S'4
// cycle one more cycle every two rounds. The bound assumes every AESENC
// issues as soon as its inputs are ready; but those of a round become ready
// almost together, and two AES units cannot issue eight of them on time (no
// schedule that repeats every round fits in under 6 cycles), so Zen 4 runs
// about 6.7 cycles.
package main

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../rocca_amd64.s -pkg rocca

var xmm = []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}

// General-purpose registers.
var (
	sp     = RAX // state
	src    = RSI
	dst    = RDI
	n      = RCX // rounds left
	stride = RDX // absorb: bytes between blocks
)

// Vector registers besides the state's X0..X6.
var (
	rU, rT                 = X7, X8 // decryption: S3^S5 and S4^S6
	tA, tB, tC, tD, tE, tF = X9, X10, X11, X12, X13, X14
	tmp                    = X15 // arrange
)

type op int

const (
	absorb op = iota
	encrypt
	decrypt
)

type gen struct {
	o    op
	tern bool // decryption: VPTERNLOGD (AVX-512) for three-way XORs
	// m[i] is the register that holds S_i now.
	m [7]VecPhysical
}

var labels int

func label(s string) string {
	labels++
	return fmt.Sprintf("%s_%d", s, labels)
}

// zBytes is Z0 || Z1, the initialisation constants.
var zBytes = [32]byte{
	0xcd, 0x65, 0xef, 0x23, 0x91, 0x44, 0x37, 0x71, 0x22, 0xae, 0x28, 0xd7, 0x98, 0x2f, 0x8a, 0x42,
	0xbc, 0xdb, 0x89, 0x81, 0xa5, 0xdb, 0xb5, 0xe9, 0x2f, 0x3b, 0x4d, 0xec, 0xcf, 0xfb, 0xc0, 0xb5,
}

// iotaBytes is 0, 1, ..., 31 (see lanes.go's ragged); tailMask is 32
// bytes 0xff, then 32 zeros (see lanes256.go's raggedVEX and partialVEX);
// laneOrder orders the lanes' output (see lanes.go's scatterWhole).
var iotaBytes, tailMask, shiftDown, smallShuf, laneOrder Mem

func main() {
	ConstraintExpr("!purego")
	z := GLOBL("z", RODATA|NOPTR)
	for i, b := range zBytes {
		DATA(i, U8(b))
	}
	zz := GLOBL("zz", RODATA|NOPTR) // Z0 and Z1 in both lanes of a ymm register
	for i, half := range []int{0, 0, 16, 16} {
		for j := range 16 {
			DATA(16*i+j, U8(zBytes[half+j]))
		}
	}
	// The bytes' indexes in a block, for the ragged lanes' byte masks.
	iotaBytes = GLOBL("iota", RODATA|NOPTR)
	for i := range 32 {
		DATA(i, U8(i))
	}
	// The quadwords of the first halves (0 to 7) and the second (8 to 15)
	// in the order of the lanes' whole blocks, lanes 0 and 1 and then 2
	// and 3 (scatterWhole).
	laneOrder = GLOBL("laneOrder", RODATA|NOPTR)
	for i, q := range []uint64{0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15} {
		DATA(8*i, U64(q))
	}
	tailMask = GLOBL("tail", RODATA|NOPTR)
	for i := range 8 {
		v := uint64(0)
		if i < 4 {
			v = ^v
		}
		DATA(8*i, U64(v))
	}
	initialize(z)
	r := zmm32
	k := &lanes{name: "lanesVAES512", evex: true, s: r[0:7], nx: r[8:15]}
	k.m0, k.m1, k.o0, k.o1, k.t0, k.t1, k.x0 = r[16], r[17], r[18], r[19], r[20], r[21], r[22]
	k.k0, k.k1, k.z0, k.z1 = r[23], r[24], r[25], r[26]
	lanesKernel(k, z)
	r = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	lanesKernel(&lanes{name: "lanesVAES256", s: r[0:7], nx: r[7:14], m0: r[14], m1: r[15]}, zz)
	// shiftDown at 16-k shuffles the k bytes that end a 16-byte load down
	// to bytes 0..k-1 and zeros the rest.
	shiftDown = GLOBL("shiftdown", RODATA|NOPTR)
	for i := range 32 {
		b := byte(i)
		if i >= 16 {
			b = 0x80
		}
		DATA(i, U8(b))
	}
	// smallShuf[k-1] puts the k < 16 bytes of a buffer shorter than 16 in
	// place from loadSmall's two loads of s bytes each, s the largest power
	// of two up to k, at bytes 0 and 8, and zeros the rest: byte j < s from
	// the first, s <= j < k from the second.
	smallShuf = GLOBL("smallshuf", RODATA|NOPTR)
	for k := 1; k < 16; k++ {
		s := 1
		for 2*s <= k {
			s *= 2
		}
		for j := range 16 {
			b := byte(0x80)
			switch {
			case j < s:
				b = byte(j)
			case j < k:
				b = byte(j + 8 + s - k)
			}
			DATA(16*(k-1)+j, U8(b))
		}
	}
	finalize()
	for _, avx512 := range []bool{true, false} {
		message(false, avx512, z)
		message(true, avx512, z)
	}
	(&gen{o: absorb}).blocks("absorbAVX", "func(s *[7][16]byte, src *byte, n, stride int)",
		"absorbAVX runs n >= 1 rounds that absorb the 32-byte blocks at src, stride bytes apart.")
	(&gen{o: encrypt}).blocks("encryptAVX", "func(s *[7][16]byte, dst, src *byte, n int)",
		"encryptAVX encrypts n >= 1 blocks from src into dst.")
	(&gen{o: decrypt}).blocks("decryptAVX", "func(s *[7][16]byte, dst, src *byte, n int)",
		"decryptAVX decrypts n >= 1 blocks from src into dst.")
	(&gen{o: decrypt, tern: true}).blocks("decryptAVX512", "func(s *[7][16]byte, dst, src *byte, n int)",
		"decryptAVX512 is decryptAVX with VPTERNLOGD.")
	Generate()
}

func (g *gen) loadState() {
	for i := range g.m {
		g.m[i] = xmm[i]
		VMOVDQU(Mem{Base: sp, Disp: 16 * i}, g.m[i])
	}
}

func (g *gen) storeState() {
	for i, r := range g.m {
		VMOVDQU(r, Mem{Base: sp, Disp: 16 * i})
	}
}

// initialize emits initAVX: the state from key and nonce, the 16 rounds
// that absorb Z0 || Z1, and the key added in.
func initialize(z Mem) {
	TEXT("initAVX", NOSPLIT, "func(s *[7][16]byte, key *[32]byte, nonce *byte)")
	Pragma("noescape")
	Doc("initAVX initialises s from key and the 16-byte nonce.")
	Load(Param("s"), sp)
	g := new(gen)
	g.initState(z)
	g.storeState()
	RET()
}

// initState loads key and nonce from the parameters of those names and
// initialises the state in registers.
func (g *gen) initState(z Mem) {
	Load(Param("key"), RBX)
	Load(Param("nonce"), src)
	k0, k1, z0, z1 := tA, tB, tC, tD
	VMOVDQU(Mem{Base: RBX}, k0)
	VMOVDQU(Mem{Base: RBX, Disp: 16}, k1)
	VMOVDQU(z, z0)
	VMOVDQU(z.Offset(16), z1)
	g.m = [7]VecPhysical(xmm[:7])
	s := g.m
	VMOVDQA(k1, s[0])
	VMOVDQU(Mem{Base: src}, s[1])
	VMOVDQA(z0, s[2])
	VMOVDQA(k0, s[3])
	VMOVDQA(z1, s[4])
	VPXOR(k1, s[1], s[5])
	VPXOR(s[6], s[6], s[6])
	for range 16 {
		g.absorbRound(z0, z1)
	}
	for i, k := range []VecPhysical{k0, k0, k1, k0, k0, k1, k1} {
		VPXOR(k, g.m[i], g.m[i])
	}
}

// finalize emits finalizeAVX: 16 rounds that absorb the bit lengths, and the
// tag.
func finalize() {
	TEXT("finalizeAVX", NOSPLIT, "func(s *[7][16]byte, tag *[32]byte, adLen, mLen uint64)")
	Pragma("noescape")
	Doc("finalizeAVX finalises s after adLen bytes of associated data and mLen of message and writes the tag.")
	Load(Param("s"), sp)
	g := new(gen)
	g.loadState()
	g.final()
}

// final runs the finalisation on the state in registers, with the lengths
// in the parameters adLen and mLen, writes the tag to the parameter tag and
// returns.
func (g *gen) final() {
	for i, p := range []string{"adLen", "mLen"} {
		x := []VecPhysical{tA, tB}[i]
		Load(Param(p), R8)
		MOVQ(R8, R9)
		SHLQ(U8(3), R8)
		SHRQ(U8(61), R9)
		VMOVQ(R8, x)
		VPINSRQ(U8(1), R9, x, x)
	}
	for range 16 {
		g.absorbRound(tA, tB)
	}
	Load(Param("tag"), dst)
	s := g.m
	VPXOR(s[0], s[1], tC)
	VPXOR(s[2], s[3], tD)
	VPXOR(tC, tD, tC)
	VMOVDQU(tC, Mem{Base: dst})
	VPXOR(s[4], s[5], tC)
	VPXOR(s[6], tC, tC)
	VMOVDQU(tC, Mem{Base: dst, Disp: 16})
	RET()
}

// blocks emits a kernel that runs n >= 1 rounds over the blocks at src.
func (g *gen) blocks(name, sig, doc string) {
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	Doc(doc)
	Load(Param("s"), sp)
	Load(Param("src"), src)
	if g.o != absorb {
		Load(Param("dst"), dst)
	}
	Load(Param("n"), n)
	if g.o == absorb {
		Load(Param("stride"), stride)
	}
	g.loadState()
	g.loop(func() {
		g.storeState()
		RET()
	})
}

// loop emits the rounds over n >= 0 blocks at src (and dst), then exit
// once for each arrangement the registers may end in, with g.m set to it.
func (g *gen) loop(exit func()) {
	if g.o == decrypt {
		VPXOR(g.m[5], g.m[3], rU)
		VPXOR(g.m[6], g.m[4], rT)
	}

	loop, tail := label("loop"), label("tail")
	exits := make([]string, 7)
	arrangements := make([][7]VecPhysical, 7)
	for j := range exits {
		exits[j] = label("exit")
	}

	Label(loop)
	CMPQ(n, U8(7))
	JB(LabelRef(tail))
	for j := range 7 {
		g.round(j)
	}
	if g.o != absorb {
		ADDQ(U32(7*32), src)
		ADDQ(U32(7*32), dst)
	}
	SUBQ(U8(7), n)
	JMP(LabelRef(loop))

	// Fewer than 7 rounds left, and the registers in their first roles.
	Label(tail)
	arrangements[0] = g.m
	TESTQ(n, n)
	JZ(LabelRef(exits[0]))
	for j := range 6 {
		g.round(j)
		arrangements[j+1] = g.m
		if j < 5 {
			CMPQ(n, U8(j+1))
			JE(LabelRef(exits[j+1]))
		}
	}
	for j := 6; j >= 0; j-- {
		Label(exits[j])
		g.m = arrangements[j]
		exit()
	}
}

// turn records the roles after a round: S'i is in the register of S(i-1),
// S'0 in that of S6.
func (g *gen) turn() {
	s := g.m
	g.m = [7]VecPhysical{s[6], s[0], s[1], s[2], s[3], s[4], s[5]}
}

// absorbRound emits R(S, x0, x1).
func (g *gen) absorbRound(x0, x1 Op) {
	s := g.m
	VAESENC(s[4], s[5], s[5]) // S'6 = A(S5) ^ S4
	VAESENC(s[3], s[4], s[4]) // S'5 = A(S4) ^ S3
	VAESENC(x1, s[3], s[3])   // S'4 = A(S3) ^ X1
	VAESENC(s[6], s[2], s[2]) // S'3 = A(S2) ^ S6
	VPXOR(s[1], s[6], s[6])   // S'0 = S6 ^ S1
	VAESENC(s[0], s[1], s[1]) // S'2 = A(S1) ^ S0
	VAESENC(x0, s[0], s[0])   // S'1 = A(S0) ^ X0
	g.turn()
}

// round emits round j of a group of seven: its blocks are at 32*j from src
// and dst (absorb moves src by stride instead).
func (g *gen) round(j int) {
	s := g.m
	in0, in1 := Mem{Base: src, Disp: 32 * j}, Mem{Base: src, Disp: 32*j + 16}
	out0, out1 := Mem{Base: dst, Disp: 32 * j}, Mem{Base: dst, Disp: 32*j + 16}
	switch {
	case g.o == absorb:
		g.absorbRound(Mem{Base: src}, Mem{Base: src, Disp: 16})
		ADDQ(stride, src)

	case g.o == encrypt:
		VMOVDQU(in0, tA)
		VMOVDQU(in1, tB)
		g.encryptRound(func(c VecPhysical, i int) { VMOVDQU(c, []Mem{out0, out1}[i]) })

	default:
		// See the file comment for the names. The loop T -> PT -> T'
		// comes first.
		VMOVDQU(in0, tA)
		VMOVDQU(in1, tB)
		VAESENC(tB, rT, tC)       // PT
		VAESENC(s[2], s[3], rT)   // P3
		VPXOR(tC, rT, tB)         // S'4, moved to its register below
		VAESENC(s[4], s[5], s[5]) // S'6
		if g.tern {
			VPTERNLOGD(U8(0x96), s[5], tC, rT) // T' = P3 ^ PT ^ S'6
		} else {
			VPXOR(s[5], rT, rT)
			VPXOR(tC, rT, rT)
		}
		VAESENC(s[0], rU, rU) // PU
		VAESENC(tA, s[0], tD) // P0
		VPXOR(rU, tA, tA)     // M0
		VMOVDQU(tA, out0)
		VPXOR(s[2], tC, tC) // M1
		VMOVDQU(tC, out1)
		VAESENC(s[3], s[4], s[4]) // S'5
		VMOVDQA(tB, s[3])         // S'4
		VAESENC(s[6], s[2], s[2]) // S'3
		VPXOR(s[1], s[6], s[6])   // S'0
		VAESENC(s[0], s[1], s[1]) // S'2
		VPXOR(tD, rU, s[0])       // S'1
		VPXOR(s[2], s[4], rU)     // U' = S'3 ^ S'5
		g.turn()
	}
}

// encryptRound encrypts the block M0 || M1 in tA and tB, passing C0 and C1
// to store, and absorbs it.
func (g *gen) encryptRound(store func(c VecPhysical, i int)) {
	// C0 = AESENC(S3^S5, S0^M0) and C1 = AESENC(S4^S6, S2^M1) are off the
	// state's critical path: they come last, so that they take the AES
	// units after the state's rounds.
	s := g.m
	VPXOR(s[5], s[3], tC)
	VPXOR(s[6], s[4], tD)
	VPXOR(s[0], tA, tE)
	VPXOR(s[2], tB, tF)
	g.absorbRound(tA, tB)
	VAESENC(tE, tC, tC)
	store(tC, 0)
	VAESENC(tF, tD, tD)
	store(tD, 1)
}

// arrange moves the state into the registers of arrangement to, through
// tmp, so that the paths of a branch meet in one arrangement.
func (g *gen) arrange(to [7]VecPhysical) {
	// to[need(r)] is r: the block that register r must receive.
	need := func(r VecPhysical) int {
		for i, x := range to {
			if x == r {
				return i
			}
		}
		panic("register not in the state")
	}
	var done [7]bool
	for i := range to {
		if done[i] || g.m[i] == to[i] {
			continue
		}
		// Free to[i] into tmp, then fill each register from the one that
		// holds its block until the cycle comes back to to[i].
		VMOVDQA(to[i], tmp)
		for j := i; ; {
			done[j] = true
			from := g.m[j]
			if from == to[i] {
				VMOVDQA(tmp, to[j])
				break
			}
			VMOVDQA(from, to[j])
			j = need(from)
		}
	}
	g.m = to
}

// message emits sealAVX512 or openAVX512 (sealAVX or openAVX without
// avx512), a whole message in one call with the state in registers from the
// initialisation to the tag. The partial last blocks of associated data
// and message are read, and the output's written, in the caller's buffers,
// touching no byte past them: through byte masks with AVX-512, else by
// partialVEX's loads and stores.
func message(open, avx512 bool, z Mem) {
	name, o, doc := "sealAVX", encrypt, "sealAVX encrypts the mLen bytes at src into dst and writes the tag."
	if open {
		name, o, doc = "openAVX", decrypt, "openAVX decrypts the mLen bytes at src into dst and writes the tag the plaintext should have."
	}
	if avx512 {
		name, doc = name+"512", strings.Replace(doc, "AVX", "AVX512", 1)
	}
	TEXT(name, NOSPLIT, "func(key *[32]byte, nonce, ad *byte, adLen int, dst, src *byte, mLen int, tag *[32]byte)")
	Pragma("noescape")
	Doc(doc, "It authenticates the adLen bytes at ad.")
	g := &gen{o: absorb}
	partial := g.partial
	if !avx512 {
		partial = g.partialVEX
	}
	g.initState(z)
	Load(Param("ad"), src)
	Load(Param("adLen"), n)
	SHRQ(U8(5), n)
	MOVQ(U32(32), stride)
	g.joinLoop()
	partial("ad", "adLen")
	g.o, g.tern = o, avx512
	Load(Param("src"), src)
	Load(Param("dst"), dst)
	Load(Param("mLen"), n)
	SHRQ(U8(5), n)
	g.joinLoop()
	partial("src", "mLen")
	g.final()
}

// joinLoop emits loop with exits that meet after it, the state back in the
// arrangement it entered in.
func (g *gen) joinLoop() {
	start, done := g.m, label("done")
	g.loop(func() {
		g.arrange(start)
		JMP(LabelRef(done))
	})
	Label(done)
	g.m = start
}

// partial emits the round of the partial last block, if any, of the
// parameters p and l (pointer and length): its l%32 bytes are loaded
// through byte masks in K1 (M0) and K2 (M1), zero-padded, and the output
// stored at the same offset of dst through them.
func (g *gen) partial(p, l string) {
	start, skip := g.m, label("whole")
	Load(Param(l), RCX)
	MOVQ(RCX, R8)
	ANDQ(U8(31), RCX)
	JZ(LabelRef(skip))
	SUBQ(RCX, R8) // the whole blocks' bytes
	Load(Param(p), src)
	ADDQ(R8, src)
	MOVL(U32(1), R9L)
	SHLL(CL, R9L)
	DECL(R9L)
	KMOVD(R9L, K1)
	KSHIFTRD(U8(16), K1, K2)
	VMOVDQU8_Z(Mem{Base: src}, K1, tA)
	VMOVDQU8_Z(Mem{Base: src, Disp: 16}, K2, tB)
	masks := []Op{K1, K2}
	if g.o != absorb {
		Load(Param("dst"), dst)
		ADDQ(R8, dst)
	}
	switch g.o {
	case absorb:
		g.absorbRound(tA, tB)
	case encrypt:
		g.encryptRound(func(c VecPhysical, i int) { VMOVDQU8(c, masks[i], Mem{Base: dst, Disp: 16 * i}) })
	default:
		// M, zero-padded before the round absorbs it.
		g.partialPlain()
		for i, r := range []VecPhysical{tC, tD} {
			VMOVDQU8(r, masks[i], Mem{Base: dst, Disp: 16 * i})
			VMOVDQU8_Z(r, masks[i], r)
		}
		g.absorbRound(tC, tD)
	}
	g.arrange(start)
	Label(skip)
}

// partialPlain puts M = keystream ^ C into tC and tD, C being a partial
// block in tA and tB: the plaintext, and keystream past its end.
func (g *gen) partialPlain() {
	s := g.m
	VPXOR(s[5], s[3], tC)
	VPXOR(s[6], s[4], tD)
	VAESENC(s[0], tC, tC)
	VAESENC(s[2], tD, tD)
	VPXOR(tA, tC, tC)
	VPXOR(tB, tD, tD)
}

// partialVEX is partial without mask registers. A block's first 16 bytes,
// when it has them, are loaded whole; a rest of k < 16 bytes by a load of
// the 16 bytes that end with it, shuffled down, where the buffer has them
// (it is 16 bytes long or more), else by loadSmall. The output goes out 16,
// 8, 4, 2 and 1 bytes at a time from the register.
func (g *gen) partialVEX(p, l string) {
	start, skip := g.m, label("whole")
	r, full, k, t := RCX, R8, R9, R10
	Load(Param(l), r)
	MOVQ(r, full)
	ANDQ(U8(31), r)
	JZ(LabelRef(skip))
	SUBQ(r, full)
	Load(Param(p), src)
	ADDQ(full, src)
	MOVQ(r, k)
	ANDQ(U8(15), k)
	VPXOR(tB, tB, tB)
	// Into x, the k > 0 bytes of the rest, which ends at src+r.
	shifted := func(x VecPhysical) {
		VMOVDQU(Mem{Base: src, Index: r, Scale: 1, Disp: -16}, x)
		LEAQ(shiftDown, t)
		SUBQ(k, t)
		VPSHUFB(Mem{Base: t, Disp: 16}, x, x)
	}
	low, small, loaded := label("low"), label("small"), label("loaded")
	CMPQ(r, U8(16))
	JB(LabelRef(low))
	VMOVDQU(Mem{Base: src}, tA)
	JE(LabelRef(loaded))
	shifted(tB)
	JMP(LabelRef(loaded))
	Label(low)
	TESTQ(full, full)
	JZ(LabelRef(small))
	shifted(tA)
	JMP(LabelRef(loaded))
	Label(small)
	loadSmall(src, r, t, tA)
	Label(loaded)

	// store writes the block's r bytes of c0 and c1 to dst+full.
	store := func(c0, c1 VecPhysical) {
		Load(Param("dst"), dst)
		ADDQ(full, dst)
		out, rest := tE, label("rest")
		VMOVDQA(c0, out)
		CMPQ(r, U8(16))
		JB(LabelRef(rest))
		VMOVDQU(c0, Mem{Base: dst})
		ADDQ(U8(16), dst)
		VMOVDQA(c1, out)
		Label(rest)
		storeBytes(out, dst, r)
	}
	switch g.o {
	case absorb:
		g.absorbRound(tA, tB)
	case encrypt:
		g.encryptRound(func(c VecPhysical, i int) {
			if i == 1 {
				store(tC, c)
			}
		})
	default:
		// M, zero-padded, is stored and absorbed.
		g.partialPlain()
		LEAQ(tailMask, t)
		SUBQ(r, t)
		VPAND(Mem{Base: t, Disp: 32}, tC, tC)
		VPAND(Mem{Base: t, Disp: 48}, tD, tD)
		store(tC, tD)
		g.absorbRound(tC, tD)
	}
	g.arrange(start)
	Label(skip)
}

// loadSmall loads the k (1..15) bytes at from, all of a buffer shorter
// than 16, into x, zero-padded: two loads of s bytes, s the largest power
// of two up to k, one at from and one ending at from+k, into x's bytes 0
// and 8, and a shuffle by smallShuf[k-1] that puts the bytes in place.
// Bytes copied to the stack would stall the block's load on their stores.
func loadSmall(from, k, t GPPhysical, x VecPhysical) {
	shuffle := label("shuffle")
	for _, s := range []int{8, 4, 2, 1} {
		below := label("below")
		if s > 1 {
			CMPQ(k, U8(s))
			JB(LabelRef(below))
		}
		load := map[int]func(Mem){
			8: func(m Mem) { MOVQ(m, t) },
			4: func(m Mem) { MOVL(m, t.As32()) },
			2: func(m Mem) { MOVWLZX(m, t.As32()) },
			1: func(m Mem) { MOVBLZX(m, t.As32()) },
		}[s]
		load(Mem{Base: from})
		VMOVQ(t, x)
		if s > 1 {
			load(Mem{Base: from, Index: k, Scale: 1, Disp: -s})
			VPINSRQ(U8(1), t, x, x)
			JMP(LabelRef(shuffle))
			Label(below)
		}
	}
	Label(shuffle)
	LEAQ(smallShuf, t)
	LEAQ(Mem{Base: t, Index: k, Scale: 8}, t)
	VPSHUFB(Mem{Base: t, Index: k, Scale: 8, Disp: -16}, x, x)
}

// storeBytes writes the low k%16 bytes of x to to, 8, 4, 2 and 1 at a
// time, shifting x down past each; it moves to.
func storeBytes(x VecPhysical, to, k GPPhysical) {
	for _, w := range []int{8, 4, 2, 1} {
		skip := label("skip")
		TESTB(U8(w), k.As8())
		JZ(LabelRef(skip))
		m := Mem{Base: to}
		switch w {
		case 8:
			VMOVQ(x, m)
		case 4:
			VMOVD(x, m)
		case 2:
			VPEXTRW(U8(0), x, m)
		case 1:
			VPEXTRB(U8(0), x, m)
		}
		if w > 1 {
			VPSRLDQ(U8(w), x, x)
			ADDQ(U8(w), to)
		}
		Label(skip)
	}
}
