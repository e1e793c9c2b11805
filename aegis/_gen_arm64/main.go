// Command _gen_arm64 generates aegis_arm64.s: the AEGIS kernels for the
// ARMv8 Cryptography Extensions on NEON registers, one function per family
// (AEGIS-128*, eight words per lane; AEGIS-256*, six), through the emitter
// the arm64 generators share (internal/arm64gen).
//
// A kernel works on one lane, the one that starts off bytes into every
// word, input block, tag and context, and takes the operations and the job
// (see aegis_arm64.go) of the amd64 kernels, whose generator (../_asm)
// gives the contract of each; the Go side calls it once per lane.
//
// ARMv8's AESE adds its key before SubBytes and ShiftRows, and AESMC is the
// MixColumns, so AESRound(x, k) is AESE x with a zero key, AESMC, and an EOR
// with k. The kernels instead keep every state word S_j as two registers,
// S_j = A_j ^ B_j, and let AESE do the XOR: an update with message words M_j
// (M0 and M1 at words 0 and 4 of AEGIS-128*, M at word 0 of AEGIS-256*,
// zero elsewhere) is
//
//	A'_{j+1} = AESMC(AESE(A_j, B_j)) = AESRound(S_j, 0)
//	B'_j     = A_j ^ B_j ^ M_j       = S_j ^ M_j
//
// so that S'_j = A'_j ^ B'_j = AESRound(S_{j-1}, S_j ^ M_j). That is three
// instructions a word where the zero-key form needs a copy too (AESE
// overwrites its input), and the chain from one update to the next is the
// fused AESE and AESMC alone, the EOR being off it. The B'_j before the
// message are the state the update started from, which the keystream reads.
//
// B'_j goes to a spare register, and AESE writes A'_{j+1} over A_j or B_j,
// freeing the other as the next spare; the registers of the words thus move
// from update to update. With the words taken from the last to the first
// and the rounds written over B_j for the words in overB, the assignment
// comes back after six updates for both families, the shortest cycle of
// any one such choice (an exhaustive search): loops run six updates a turn,
// leaving after any of them, and put the words back in their home
// registers on the way out.
package main

import (
	"log"
	"slices"

	"github.com/faelabs/fae/internal/arm64gen"
)

//go:generate go run . -out ../aegis_arm64.s

// The kernel operations, numbered as aegis.go and aegis_arm64.go number
// them.
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

// General-purpose registers.
const (
	rOp   = "R0"
	rJob  = "R1"
	rWS   = "R2" // word size: stride of the words, offset of M1
	rOff  = "R3" // the lane's offset into every per-lane array
	rS    = "R4" // the state
	rSrc  = "R5"
	rDst  = "R6"
	rN    = "R7"
	rStep = "R8"
	rRest = "R9" // step - ws: from M1 to the next block's M0
	rP    = "R10"
	rT    = "R11"
	rMask = "R12"
)

// Vector registers beyond the state's V0..V(2*words): the input halves,
// the output halves, Init's context block, Finalize's input, DecPartial's
// mask halves, AEGIS-256's key ^ nonce halves, and a scratch register for
// the moves back home.
const (
	vIn0     = 17
	vIn1     = 18
	vOut0    = 19
	vOut1    = 20
	vCtx     = 21
	vT       = 22
	vMask0   = 23
	vMask1   = 24
	vKN0     = 25
	vKN1     = 26
	vScratch = 27
)

// period is the number of updates after which the state words are back in
// their registers.
const period = 6

func main() {
	arm64gen.Main(func(f *arm64gen.File) {
		g := &gen{File: f}
		g.Data("c0", []byte{0x00, 0x01, 0x01, 0x02, 0x03, 0x05, 0x08, 0x0d, 0x15, 0x22, 0x37, 0x59, 0x90, 0xe9, 0x79, 0x62})
		g.Data("c1", []byte{0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2, 0x2f, 0xf1, 0x20, 0x11, 0x31, 0x42, 0x73, 0xb5, 0x28, 0xdd})
		// overB: words 0, 1, 4 and 7 of AEGIS-128*, 0, 1, 2 and 5 of AEGIS-256*.
		newKern(g, "aegis128ARMv8", 8, 0b10010011).function()
		newKern(g, "aegis256ARMv8", 6, 0b100111).function()
	})
}

type gen struct {
	*arm64gen.File
}

func (g *gen) and(a, b, d int) { g.Op("VAND %s, %s, %s", g.V(a), g.V(b), g.V(d)) }
func (g *gen) mov(s, d int)    { g.Op("VMOV %s, %s", g.V(s), g.V(d)) }
func (g *gen) zero(d int)      { g.Xor(d, d, d) }

// field loads job field f into r; lanePtr also offsets it to the lane.
func (g *gen) field(f int, r string) { g.Op("MOVD %d(%s), %s", f, rJob, r) }

func (g *gen) lanePtr(f int, r string) {
	g.field(f, r)
	g.Op("ADD %s, %s", rOff, r)
}

// loadP and storeP move one register from or to the address in p and
// advance p by inc (a register).
func (g *gen) loadP(p, inc string, r int)  { g.Op("VLD1.P (%s)(%s), [%s]", p, inc, g.V(r)) }
func (g *gen) storeP(p, inc string, r int) { g.Op("VST1.P [%s], (%s)(%s)", g.V(r), p, inc) }

// A kern is the kernel of one family, with the registers its state words
// are in at the point of the code being generated.
type kern struct {
	*gen
	name  string
	words int
	overB uint // the words whose round AESE writes over B_j
	a, b  []int
	spare int
}

func newKern(g *gen, name string, words int, overB uint) *kern {
	k := &kern{gen: g, name: name, words: words, overB: overB}
	k.home()
	// The loops rely on the cycle; check it.
	for range period {
		k.rename()
	}
	if !k.atHome() {
		log.Fatalf("%s: the registers do not come back after %d updates", name, period)
	}
	return k
}

// home sets the home registers: A_j in V(j), B_j in V(words+j), the spare
// in V(2*words).
func (k *kern) home() {
	k.a, k.b = make([]int, k.words), make([]int, k.words)
	for j := range k.words {
		k.a[j], k.b[j] = j, k.words+j
	}
	k.spare = 2 * k.words
}

func (k *kern) atHome() bool {
	for j := range k.words {
		if k.a[j] != j || k.b[j] != k.words+j {
			return false
		}
	}
	return true
}

// rename moves the words' registers as an update does, calling word, if
// not nil, with each word's registers: the spare x for B'_j, d for the
// round's output A'_{j+1}, and the other input, key.
func (k *kern) rename(word ...func(j, x, d, key int)) {
	w := k.words
	a, b := make([]int, w), make([]int, w)
	for j := w - 1; j >= 0; j-- {
		x, d, key := k.spare, k.a[j], k.b[j]
		if k.overB>>j&1 != 0 {
			d, key = key, d
		}
		for _, f := range word {
			f(j, x, d, key)
		}
		a[(j+1)%w], b[j], k.spare = d, x, key
	}
	k.a, k.b = a, b
}

// update emits the rounds of an update. The message words are left to the
// caller, to XOR into B'_0 (and B'_4), k.b after the call; until then every
// k.b[j] holds S_j as it was before the update.
func (k *kern) update() {
	k.rename(func(j, x, d, key int) {
		k.Xor(k.a[j], k.b[j], x)
		k.Op("AESE %s, %s", k.V(key), k.V(d))
		k.Op("AESMC %s, %s", k.V(d), k.V(d))
	})
}

// goHome emits the moves that put the words back in their home registers.
// The spare is free, so only cycles among the words need the scratch
// register.
func (k *kern) goHome() {
	type move struct{ dst, src int }
	var moves []move
	for j := range k.words {
		if k.a[j] != j {
			moves = append(moves, move{j, k.a[j]})
		}
		if k.b[j] != k.words+j {
			moves = append(moves, move{k.words + j, k.b[j]})
		}
	}
	for len(moves) > 0 {
		i := slices.IndexFunc(moves, func(m move) bool {
			return !slices.ContainsFunc(moves, func(o move) bool { return o.src == m.dst })
		})
		if i < 0 {
			// Only cycles are left: save the first destination.
			d := moves[0].dst
			k.mov(d, vScratch)
			for i := range moves {
				if moves[i].src == d {
					moves[i].src = vScratch
				}
			}
			continue
		}
		k.mov(moves[i].src, moves[i].dst)
		moves = slices.Delete(moves, i, i+1)
	}
	k.home()
}

func (k *kern) mustBeHome() {
	if !k.atHome() {
		log.Fatalf("%s: state words away from home at a join", k.name)
	}
}

func (k *kern) function() {
	k.Func(k.name, "op int, j *job", 16)
	k.Op("MOVD op+0(FP), %s", rOp)
	k.Op("MOVD j+8(FP), %s", rJob)
	k.field(jWS, rWS)
	k.field(jOff, rOff)
	k.lanePtr(jS, rS)
	l := func(s string) string { return k.name + "_" + s }
	k.Op("CMP $%d, %s", opInit, rOp)
	k.Op("BEQ %s", l("init"))
	k.Op("CMP $%d, %s", opSeal, rOp)
	k.Op("BEQ %s", l("seal"))
	k.Op("CMP $%d, %s", opOpen, rOp)
	k.Op("BEQ %s", l("open"))
	k.loadState()
	k.Op("CMP $%d, %s", opEnc, rOp)
	k.Op("BEQ %s", l("enc"))
	k.Op("CMP $%d, %s", opDec, rOp)
	k.Op("BEQ %s", l("dec"))
	k.Op("CMP $%d, %s", opFinal, rOp)
	k.Op("BEQ %s", l("final"))

	k.blocks()
	k.loop("absorb", k.absorb)
	k.Op("B %s", l("done"))

	k.Label(l("enc"))
	k.blocks()
	k.lanePtr(jDst, rDst)
	k.loop("enc", k.enc)
	k.Op("B %s", l("done"))

	k.Label(l("dec"))
	k.blocks()
	k.lanePtr(jDst, rDst)
	k.loop("dec", k.dec)
	k.Op("B %s", l("done"))

	k.Label(l("init"))
	k.init()
	k.Op("B %s", l("done"))

	// Finalize leaves the words away from home: store them from there.
	k.Label(l("final"))
	k.final(false)
	k.storeState()
	k.Op("RET")
	k.home()

	k.Label(l("done"))
	k.storeState()
	k.Op("RET")

	k.message(false)
	k.message(true)
}

// loadState loads the state words, ws bytes apart, into the A_j, and
// clears the B_j.
func (k *kern) loadState() {
	k.Op("MOVD %s, %s", rS, rP)
	for j := range k.words {
		k.loadP(rP, rWS, k.a[j])
		k.zero(k.b[j])
	}
}

// storeState stores the state words, ws bytes apart.
func (k *kern) storeState() {
	k.Op("MOVD %s, %s", rS, rP)
	for j := range k.words {
		t := vOut0 + j%2
		k.Xor(k.a[j], k.b[j], t)
		k.storeP(rP, rWS, t)
	}
}

// blocks loads src, n, step and rest for a block operation.
func (k *kern) blocks() {
	k.lanePtr(jSrc, rSrc)
	k.field(jN, rN)
	k.steps()
}

func (k *kern) steps() {
	k.field(jStep, rStep)
	k.Op("SUB %s, %s, %s", rWS, rStep, rRest)
}

// loop emits a loop that runs body, one block, n >= 1 times. A turn is
// period blocks, and each block but the last of a turn may end the loop;
// its exit puts the words back home.
func (k *kern) loop(name string, body func()) {
	k.mustBeHome()
	top, end := k.NewLabel(k.name+"_"+name), k.NewLabel(k.name+"_"+name+"End")
	exits := make([]string, period)
	var at [period][]int // where the words are after each block: a, b, spare
	k.Label(top)
	for u := range period {
		body()
		at[u] = append(append(slices.Clone(k.a), k.b...), k.spare)
		k.Op("SUBS $1, %s", rN)
		if u < period-1 {
			exits[u] = k.NewLabel(k.name + "_" + name + "Exit")
			k.Op("BEQ %s", exits[u])
		} else {
			k.Op("BNE %s", top)
		}
	}
	k.mustBeHome()
	k.Op("B %s", end)
	for u := range period - 1 {
		k.Label(exits[u])
		w := k.words
		k.a, k.b, k.spare = slices.Clone(at[u][:w]), slices.Clone(at[u][w:2*w]), at[u][2*w]
		k.goHome()
		if u < period-2 {
			k.Op("B %s", end)
		}
	}
	k.Label(end)
}

// once runs body, one block, and puts the words back home.
func (k *kern) once(body func()) {
	body()
	k.goHome()
}

// halves returns the input words of a block: M0 and M1, or M.
func (k *kern) halves() []int {
	if k.words == 8 {
		return []int{0, 1}
	}
	return []int{0}
}

// loadBlock loads the input block at src, advancing src by step.
func (k *kern) loadBlock() {
	if k.words == 8 {
		k.loadP(rSrc, rWS, vIn0)
		k.loadP(rSrc, rRest, vIn1)
		return
	}
	k.loadP(rSrc, rStep, vIn0)
}

// storeBlock stores the output block at dst, advancing dst by step.
func (k *kern) storeBlock() {
	if k.words == 8 {
		k.storeP(rDst, rWS, vOut0)
		k.storeP(rDst, rRest, vOut1)
		return
	}
	k.storeP(rDst, rStep, vOut0)
}

// absorbMsg XORs the message words in r0 (and r1) into B'_0 (and B'_4).
func (k *kern) absorbMsg(r0, r1 int) {
	k.Xor(r0, k.b[0], k.b[0])
	if k.words == 8 {
		k.Xor(r1, k.b[4], k.b[4])
	}
}

// absorb is Update with the block at src.
func (k *kern) absorb() {
	k.loadBlock()
	k.update()
	k.absorbMsg(vIn0, vIn1)
}

// keystream sets output half i to input half i XOR its keystream, from the
// state before the update, which the B'_j other than the message's hold:
// z0 = S1 ^ S6 ^ (S2 & S3), z1 = S2 ^ S5 ^ (S6 & S7) for AEGIS-128*,
// z = S1 ^ S4 ^ S5 ^ (S2 & S3) for AEGIS-256*.
func (k *kern) keystream(i int) {
	s := k.b
	out, in := vOut0+i, vIn0+i
	var terms []int
	switch {
	case k.words == 6:
		k.and(s[2], s[3], out)
		terms = []int{s[1], s[4], s[5]}
	case i == 0:
		k.and(s[2], s[3], out)
		terms = []int{s[1], s[6]}
	default:
		k.and(s[6], s[7], out)
		terms = []int{s[2], s[5]}
	}
	for _, t := range append(terms, in) {
		k.Xor(t, out, out)
	}
}

// enc is Enc of the block at src, whose output goes to dst.
func (k *kern) enc() {
	k.loadBlock()
	k.update()
	for _, i := range k.halves() {
		k.keystream(i)
	}
	k.storeBlock()
	k.absorbMsg(vIn0, vIn1)
}

// dec is Dec of the block at src, whose output goes to dst.
func (k *kern) dec() {
	k.loadBlock()
	k.update()
	for _, i := range k.halves() {
		k.keystream(i)
	}
	k.storeBlock()
	k.absorbMsg(vOut0, vOut1)
}

// decPartial is DecPartial for the zero-padded block at src (and dst): the
// output is its ciphertext XOR the keystream, masked by the mask at rMask
// to the ciphertext's bytes, and is absorbed.
func (k *kern) decPartial() {
	k.loadBlock()
	k.loadP(rMask, rWS, vMask0)
	if k.words == 8 {
		k.Op("VLD1 (%s), [%s]", rMask, k.V(vMask1))
	}
	k.update()
	for _, i := range k.halves() {
		k.keystream(i)
		k.and(vMask0+i, vOut0+i, vOut0+i)
	}
	k.storeBlock()
	k.absorbMsg(vOut0, vOut1)
}

// loadConst loads the constant name into register r.
func (k *kern) loadConst(name string, r int) {
	k.Op("MOVD $%s<>(SB), %s", name, rP)
	k.Op("VLD1 (%s), [%s]", rP, k.V(r))
}

// init emits Init, with the key and nonce the same for every lane and
// the lane's context block XORed into S3 and S7 (S3 and S5) before every
// update; the state ends home.
func (k *kern) init() {
	k.field(jKey, rP)
	k.field(jNonce, rT)
	k.lanePtr(jCtx, rMask)
	k.Op("VLD1 (%s), [%s]", rMask, k.V(vCtx))
	s := k.a
	for _, r := range k.b {
		k.zero(r)
	}
	ctx := func() {
		k.Xor(vCtx, k.b[3], k.b[3])
		k.Xor(vCtx, k.b[k.words-1], k.b[k.words-1])
	}
	if k.words == 8 {
		// S = {K^N, C1, C0, C1, K^N, K^C0, K^C1, K^C0}; Repeat(10,
		// Update(N, K)).
		key, nonce := vIn1, vIn0
		k.Op("VLD1 (%s), [%s]", rP, k.V(key))
		k.Op("VLD1 (%s), [%s]", rT, k.V(nonce))
		k.loadConst("c0", s[2])
		k.loadConst("c1", s[1])
		k.Xor(key, nonce, s[0])
		k.Xor(key, nonce, s[4])
		k.Xor(key, s[2], s[5])
		k.Xor(key, s[2], s[7])
		k.Xor(key, s[1], s[6])
		k.mov(s[1], s[3])
		for range 10 {
			ctx()
			k.update()
			k.absorbMsg(nonce, key)
		}
		k.goHome()
		return
	}
	// S = {K0^N0, K1^N1, C1, C0, K0^C0, K1^C1}; Repeat(4, Update(K0),
	// Update(K1), Update(K0^N0), Update(K1^N1)).
	k0, k1, kn0, kn1 := vIn0, vIn1, vKN0, vKN1
	k.Op("VLD1 (%s), [%s, %s]", rP, k.V(k0), k.V(k1))
	k.Op("VLD1 (%s), [%s, %s]", rT, k.V(kn0), k.V(kn1))
	k.loadConst("c0", s[3])
	k.loadConst("c1", s[2])
	k.Xor(k0, kn0, kn0)
	k.Xor(k1, kn1, kn1)
	k.mov(kn0, s[0])
	k.mov(kn1, s[1])
	k.Xor(k0, s[3], s[4])
	k.Xor(k1, s[2], s[5])
	for range 4 {
		for _, m := range []int{k0, k1, kn0, kn1} {
			ctx()
			k.update()
			k.absorbMsg(m, 0)
		}
	}
	k.goHome()
}

// final emits Finalize's updates, Repeat(7, Update(t, t)) (or Update(t))
// with t = S2 ^ u (S3 ^ u), and writes the lane's tag: to the lane's place
// at tags, its second half ws bytes further, or, if combine, to the whole
// tag at tags, XORed into it unless this is lane 0 (the first call writes
// the tag, so the caller need not clear it). The words end away from home.
func (k *kern) final(combine bool) {
	j := 3
	if k.words == 8 {
		j = 2
	}
	k.Op("ADD $%d, %s, %s", jU, rJob, rP)
	k.Op("VLD1 (%s), [%s]", rP, k.V(vT))
	k.Xor(k.a[j], vT, vT)
	k.Xor(k.b[j], vT, vT)
	for range 7 {
		k.update()
		k.absorbMsg(vT, vT)
	}

	// A 16-byte tag is the XOR of S0..S6 (S0..S5); a 32-byte one that of
	// the first and of the second half of the words.
	tag := func(r int, words []int) {
		k.Xor(k.a[words[0]], k.b[words[0]], r)
		for _, j := range words[1:] {
			k.Xor(k.a[j], r, r)
			k.Xor(k.b[j], r, r)
		}
	}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}[:k.words]
	tag32, done := k.NewLabel(k.name+"_tag32_"), k.NewLabel(k.name+"_tagDone")
	if combine {
		k.field(jTags, rP)
	} else {
		k.lanePtr(jTags, rP)
	}
	k.field(jTagSize, rT)
	k.Op("CMP $16, %s", rT)
	k.Op("BNE %s", tag32)
	tag(vOut0, all[:min(k.words, 7)])
	if combine {
		store := k.NewLabel(k.name + "_tag16Store_")
		k.Op("CBZ %s, %s", rOff, store)
		k.Op("VLD1 (%s), [%s]", rP, k.V(vMask0))
		k.Xor(vMask0, vOut0, vOut0)
		k.Label(store)
	}
	k.Op("VST1 [%s], (%s)", k.V(vOut0), rP)
	k.Op("B %s", done)
	k.Label(tag32)
	tag(vOut0, all[:k.words/2])
	tag(vOut1, all[k.words/2:])
	if combine {
		store := k.NewLabel(k.name + "_tag32Store_")
		k.Op("CBZ %s, %s", rOff, store)
		k.Op("VLD1 (%s), [%s, %s]", rP, k.V(vMask0), k.V(vMask1))
		k.Xor(vMask0, vOut0, vOut0)
		k.Xor(vMask1, vOut1, vOut1)
		k.Label(store)
		k.Op("VST1 [%s, %s], (%s)", k.V(vOut0), k.V(vOut1), rP)
	} else {
		k.storeP(rP, rWS, vOut0)
		k.Op("VST1 [%s], (%s)", k.V(vOut1), rP)
	}
	k.Label(done)
}

// message emits seal or open, a whole message with the state in registers
// from Init to the tag.
func (k *kern) message(open bool) {
	name := "seal"
	if open {
		name = "open"
	}
	l := func(s string) string { return k.name + "_" + name + s }
	k.Label(k.name + "_" + name)
	k.init()
	k.steps()

	k.lanePtr(jAD, rSrc)
	k.field(jADN, rN)
	k.Op("CBZ %s, %s", rN, l("ADLast"))
	k.loop(name+"AD", k.absorb)
	k.Label(l("ADLast"))
	k.field(jADLast, rSrc)
	k.Op("CBZ %s, %s", rSrc, l("Blocks"))
	k.Op("ADD %s, %s", rOff, rSrc)
	k.once(k.absorb)

	k.Label(l("Blocks"))
	k.lanePtr(jSrc, rSrc)
	k.lanePtr(jDst, rDst)
	k.field(jN, rN)
	k.Op("CBZ %s, %s", rN, l("Last"))
	if open {
		k.loop(name, k.dec)
	} else {
		k.loop(name, k.enc)
	}

	k.Label(l("Last"))
	k.field(jLast, rSrc)
	k.Op("CBZ %s, %s", rSrc, l("Final"))
	k.Op("ADD %s, %s", rOff, rSrc)
	k.Op("MOVD %s, %s", rSrc, rDst)
	if open {
		k.lanePtr(jMask, rMask)
		k.once(k.decPartial)
	} else {
		k.once(k.enc)
	}

	k.Label(l("Final"))
	k.final(true)
	k.Op("RET")
	k.home()
}
