package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// keyExpansion generates expandKeyAESNI, FIPS-197's KeyExpansion in legacy
// SSE encoding, so that it runs on every CPU with AES-NI.
//
// The step that feeds word w into the schedule, SubWord(RotWord(w)) ^ rcon,
// is computed with PSHUFB and AESENCLAST rather than AESKEYGENASSIST, which
// some CPUs run at a fraction of AESENCLAST's speed and which takes rcon as
// an immediate: PSHUFB puts RotWord(w) in all four columns, so ShiftRows
// leaves the state alone and AESENCLAST returns SubWord(RotWord(w)) ^ rcon
// in every column when rcon is the round key. The rest of a step is
// XOR-prefix sums over the four columns of a register.
func keyExpansion() {
	// rotWord[0:16] holds a PSHUFB mask that puts RotWord(column 3) in every
	// column, rotWord[16:32] one that does the same for column 1.
	rotWord := GLOBL("rotWord", RODATA|NOPTR)
	for i, m := range []uint64{0x0c0f0e0d0c0f0e0d, 0x0407060504070605} {
		DATA(16*i, U64(m))
		DATA(16*i+8, U64(m))
	}
	// rconKeys[16*i:] is round constant i+1 in every column: the round key
	// that makes AESENCLAST add it.
	rconKeys := GLOBL("rconKeys", RODATA|NOPTR)
	for i, rc := range []uint64{0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36} {
		DATA(16*i, U64(rc|rc<<32))
		DATA(16*i+8, U64(rc|rc<<32))
	}

	TEXT("expandKeyAESNI", NOSPLIT, "func(nr int, key *byte, enc, dec *[240]byte)")
	Doc("expandKeyAESNI expands the 16-, 24- or 32-byte key of an nr-round AES into",
		"the encryption round keys enc and the decryption round keys dec (see Block).")
	e := &expander{key: RAX, enc: RDI, dec: RSI,
		a: X0, b: X1, t: X2, s: X3, rk: X4, imc: X5, mask: X6, rc: X7, zero: X8,
		rotWord: rotWord, rconKeys: rconKeys}
	nr := RCX
	Load(Param("nr"), nr)
	Load(Param("key"), e.key)
	Load(Param("enc"), e.enc)
	Load(Param("dec"), e.dec)
	// Branch on the key size, which is not secret.
	r128, r192 := label("expand128"), label("expand192")
	CMPQ(nr, U8(12))
	JB(LabelRef(r128))
	JE(LabelRef(r192))
	e.expand256()
	RET()
	Label(r128)
	e.expand128()
	RET()
	Label(r192)
	e.expand192()
	RET()
}

type expander struct {
	nr            int
	key, enc, dec GPPhysical
	// a and b hold the newest key schedule words, four in a and, for
	// AES-192 and AES-256, two or four in b; t is the word fed into the
	// next step, s a shifted copy for prefix sums, rk an AES-192 round key
	// gathered from a and b, imc its InvMixColumns.
	a, b, t, s, rk, imc, mask, rc, zero VecPhysical
	rotWord, rconKeys                   Mem
}

// roundKey stores r as encryption round key i and the decryption round key
// made from it.
func (e *expander) roundKey(i int, r VecPhysical) {
	MOVOU(r, Mem{Base: e.enc, Disp: 16 * i})
	d := Mem{Base: e.dec, Disp: 16 * (e.nr - i)}
	if i == 0 || i == e.nr {
		MOVOU(r, d)
		return
	}
	AESIMC(r, e.imc)
	MOVOU(e.imc, d)
}

// rotSub sets t to SubWord(RotWord(w)) ^ rcon_i in every column, w being the
// column of x that e.mask selects.
func (e *expander) rotSub(x VecPhysical, i int) {
	MOVOU(e.rconKeys.Offset(16*(i-1)), e.rc)
	MOVO(x, e.t)
	PSHUFB(e.mask, e.t)
	AESENCLAST(e.rc, e.t)
}

// prefix sets column c of x to the XOR of its columns 0..c.
func (e *expander) prefix(x VecPhysical) {
	MOVO(x, e.s)
	PSLLDQ(U8(4), e.s)
	PXOR(e.s, x)
	MOVO(x, e.s)
	PSLLDQ(U8(8), e.s)
	PXOR(e.s, x)
}

// next turns the key schedule words w[j..j+3] in x into w[j+Nk..j+Nk+3],
// given t, the transformed w[j+Nk-1], in every column.
func (e *expander) next(x VecPhysical) {
	e.prefix(x)
	PXOR(e.t, x)
}

func (e *expander) expand128() {
	e.nr = 10
	MOVOU(Mem{Base: e.key}, e.a)
	MOVOU(e.rotWord, e.mask)
	e.roundKey(0, e.a)
	for i := 1; i <= 10; i++ {
		e.rotSub(e.a, i)
		e.next(e.a)
		e.roundKey(i, e.a)
	}
}

// expand256 alternates the two kinds of AES-256 step: words 8i..8i+3 come
// from RotWord and rcon, words 8i+4..8i+7 from SubWord alone.
func (e *expander) expand256() {
	e.nr = 14
	MOVOU(Mem{Base: e.key}, e.a)
	MOVOU(Mem{Base: e.key, Disp: 16}, e.b)
	MOVOU(e.rotWord, e.mask)
	PXOR(e.zero, e.zero)
	e.roundKey(0, e.a)
	e.roundKey(1, e.b)
	for i := 1; i <= 7; i++ {
		e.rotSub(e.b, i)
		e.next(e.a)
		e.roundKey(2*i, e.a)
		if i == 7 {
			break
		}
		PSHUFD(U8(0xff), e.a, e.t)
		AESENCLAST(e.zero, e.t)
		e.next(e.b)
		e.roundKey(2*i+1, e.b)
	}
}

// expand192 makes six words per step, four in a and two in the low half
// of b (the high half holds junk that never reaches the low half). Two
// steps make three round keys: a after an even step, and the low half of b
// with the low half of a, and the high half of a with the low half of b,
// after an odd one.
func (e *expander) expand192() {
	e.nr = 12
	MOVOU(Mem{Base: e.key}, e.a)
	MOVQ(Mem{Base: e.key, Disp: 16}, e.b)
	MOVOU(e.rotWord.Offset(16), e.mask)
	e.roundKey(0, e.a)
	for i := 1; i <= 8; i++ {
		e.rotSub(e.b, i)
		e.next(e.a)
		j := 3 * i / 2
		if i%2 == 0 {
			e.roundKey(j, e.a)
		} else {
			MOVO(e.b, e.rk)
			PUNPCKLQDQ(e.a, e.rk)
			e.roundKey(j, e.rk)
		}
		if i == 8 {
			break
		}
		// The next two words: b[0] ^ a[3], then b[0] ^ b[1] ^ a[3].
		PSHUFD(U8(0xff), e.a, e.t)
		MOVO(e.b, e.s)
		PSLLDQ(U8(4), e.s)
		PXOR(e.s, e.b)
		PXOR(e.t, e.b)
		if i%2 == 1 {
			MOVO(e.b, e.rk)
			PALIGNR(U8(8), e.a, e.rk)
			e.roundKey(j+1, e.rk)
		}
	}
}
