// Command aes generates aes_amd64.s, the AES-NI and VAES kernels of package aes
// the AES-NI key expansion (keys.go) and single-block encryption in
// registers (words.go).
//
// Every kernel takes the round count nr (10, 12 or 14), the round keys xk
// (Block.enc or Block.dec) and n whole blocks. Round key slot 0 is xk[0:16];
// slots 1..14 live at p+16*(slot-4) with p = xk+16*(nr-10), so the last ten
// rounds (slots 5..14) always have the same offsets and only slots 1..4, the
// extra rounds of AES-192 and AES-256, depend on nr.
//
// Each kernel runs a main loop with 8 registers of blocks in flight, then
// the remaining n mod 8*(blocks per register) blocks in one group per set
// bit of that count, narrowing to a single xmm block. The groups are
// independent, so out-of-order execution overlaps them.
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../aes_amd64.s -pkg aes

const lastSlot = 14

// Register widths in bytes; each kernel family is named by its widest.
const (
	xmm = 16
	ymm = 32
	zmm = 64
)

// bswapMask reverses the bytes of each 128-bit lane (VPSHUFB), turning a
// little-endian 128-bit counter into the big-endian counter block.
// ctrConsts holds the 128-bit values 0, 1, 2, 3, 4 (little-endian): the lane
// offsets of a counter register start at ctrConsts, and 16*i(SB) is i.
var bswapMask, ctrConsts Mem

func main() {
	ConstraintExpr("!purego")
	bswapMask = GLOBL("bswapMask", RODATA|NOPTR)
	for i := 0; i < 64; i += 16 {
		DATA(i, U64(0x08090a0b0c0d0e0f))
		DATA(i+8, U64(0x0001020304050607))
	}
	ctrConsts = GLOBL("ctrConsts", RODATA|NOPTR)
	for i := 0; i < 5; i++ {
		DATA(16*i, U64(uint64(i)))
		DATA(16*i+8, U64(0))
	}

	for _, f := range []struct {
		name  string
		width int
	}{{"AESNI", xmm}, {"VAES256", ymm}, {"VAES512", zmm}} {
		ecb := "func(nr int, xk *[240]byte, dst, src *byte, n int)"
		TEXT("encryptBlocks"+f.name, NOSPLIT, ecb)
		Doc(fmt.Sprintf("encryptBlocks%s encrypts n blocks from src to dst (ECB) with the round keys xk.", f.name))
		newKernel(f.width, false, false).body()

		TEXT("decryptBlocks"+f.name, NOSPLIT, ecb)
		Doc(fmt.Sprintf("decryptBlocks%s decrypts n blocks from src to dst (ECB) with the decryption round keys xk.", f.name))
		newKernel(f.width, true, false).body()

		TEXT("ctrBlocks"+f.name, NOSPLIT, "func(nr int, xk *[240]byte, dst, src *byte, n int, hi, lo uint64)")
		Doc(fmt.Sprintf("ctrBlocks%s XORs n blocks of src with the keystream of the counter blocks", f.name),
			"hi<<64|lo, hi<<64|(lo+1), ... (big-endian) into dst. lo+n-1 must not overflow.")
		newKernel(f.width, false, true).body()
	}
	keyExpansion()
	encryptWords()
	Generate()
}

var (
	xs = []VecPhysical{X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15}
	ys = []VecPhysical{Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15}
	zs = []VecPhysical{Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15,
		Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27, Z28, Z29, Z30, Z31}
)

// as returns r with width w.
func as(r VecPhysical, w int) VecPhysical {
	switch w {
	case xmm:
		return r.AsX().(VecPhysical)
	case ymm:
		return r.AsY().(VecPhysical)
	}
	return r.AsZ().(VecPhysical)
}

type kernel struct {
	width    int // widest register, in bytes: xmm means legacy SSE encoding
	dec, ctr bool

	nr, xk, p, dst, src, n GPPhysical

	state     []VecPhysical // blocks in flight
	tmp       VecPhysical   // round keys not held in registers; xmm CTR data
	c         VecPhysical   // CTR: little-endian counters (lo, hi) per lane
	inc, inc2 VecPhysical   // CTR: add width/16 or 2 to every lane of c
	bswap     VecPhysical
	keys      [lastSlot + 1]VecPhysical // round key registers; nil: loaded per round
}

func newKernel(width int, dec, ctr bool) *kernel {
	k := &kernel{width: width, dec: dec, ctr: ctr,
		nr: R8, xk: RAX, p: RDX, dst: RDI, src: RSI, n: RBX}
	regs := map[int][]VecPhysical{xmm: xs, ymm: ys, zmm: zs}[width]
	k.state, k.tmp = regs[:8], regs[8]
	free := regs[9:16]
	if ctr {
		k.c, k.inc, k.bswap = free[0], free[1], free[2]
		free = free[3:]
		if width == zmm {
			k.inc2 = free[0]
		}
	}
	if width == zmm {
		// All 15 round keys fit, in Z16-Z30.
		for s := range k.keys {
			k.keys[s] = regs[16+s]
		}
		return k
	}
	// Keep the whitening key and the last rounds' keys, which every key
	// size uses, in the registers left over; load the others per round.
	for i, s := range []int{0, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5} {
		if i == len(free) {
			break
		}
		k.keys[s] = free[i]
	}
	return k
}

var labels int

func label(name string) string {
	labels++
	return fmt.Sprintf("%s_%d", name, labels)
}

// rounds calls f for round key slots 1..14 in order, skipping the slots
// the key size does not use. It branches on nr, which is not secret.
func (k *kernel) rounds(f func(slot int)) {
	r10, r12 := label("rounds10"), label("rounds12")
	CMPQ(k.nr, U8(12))
	JB(LabelRef(r10))
	JE(LabelRef(r12))
	f(1)
	f(2)
	Label(r12)
	f(3)
	f(4)
	Label(r10)
	for s := 5; s <= lastSlot; s++ {
		f(s)
	}
}

func (k *kernel) keyMem(slot int) Mem {
	if slot == 0 {
		return Mem{Base: k.xk}
	}
	return Mem{Base: k.p, Disp: 16 * (slot - 4)}
}

// loadKey broadcasts round key slot to every lane of r.
func (k *kernel) loadKey(slot int, r VecPhysical) {
	switch k.width {
	case xmm:
		MOVOU(k.keyMem(slot), r)
	case ymm:
		VBROADCASTI128(k.keyMem(slot), r)
	case zmm:
		VBROADCASTI32X4(k.keyMem(slot), r)
	}
}

// key returns the register holding round key slot, loading it if needed.
func (k *kernel) key(slot int) VecPhysical {
	if r := k.keys[slot]; r != nil {
		return r
	}
	k.loadKey(slot, k.tmp)
	return k.tmp
}

func (k *kernel) aesRound(slot int, key, s VecPhysical) {
	last := slot == lastSlot
	if k.width == xmm {
		switch {
		case k.dec && last:
			AESDECLAST(key, s)
		case k.dec:
			AESDEC(key, s)
		case last:
			AESENCLAST(key, s)
		default:
			AESENC(key, s)
		}
		return
	}
	switch {
	case k.dec && last:
		VAESDECLAST(key, s, s)
	case k.dec:
		VAESDEC(key, s, s)
	case last:
		VAESENCLAST(key, s, s)
	default:
		VAESENC(key, s, s)
	}
}

// xor sets s ^= x; x may be memory, except in the legacy SSE kernels.
func (k *kernel) xor(x Op, s VecPhysical) { k.xorTo(x, s, s) }

// xorTo sets d = x ^ y; d must be y in the legacy SSE kernels.
func (k *kernel) xorTo(x Op, y, d VecPhysical) {
	switch {
	case k.width == xmm:
		if y != d {
			panic("legacy PXOR is destructive")
		}
		PXOR(x, d)
	case k.width == zmm: // EVEX, for registers 16-31
		VPXORQ(x, y, d)
	default:
		VPXOR(x, y, d)
	}
}

func (k *kernel) move(from, to Op) {
	switch {
	case k.width == xmm:
		MOVOU(from, to)
	case k.width == zmm: // EVEX, for registers 16-31
		VMOVDQU64(from, to)
	default:
		VMOVDQU(from, to)
	}
}

// nextCounter puts the next counter blocks, big-endian, in s, and advances
// the counters by the number of blocks s holds unless this is the last use.
func (k *kernel) nextCounter(s VecPhysical, w int, last bool) {
	inc := k.inc
	if w == ymm && k.width == zmm {
		inc = k.inc2
	}
	if k.width == xmm {
		MOVOU(k.c, s)
		PSHUFB(k.bswap, s)
		if !last {
			PADDQ(inc, k.c)
		}
		return
	}
	VPSHUFB(as(k.bswap, w), as(k.c, w), s)
	if !last {
		VPADDQ(inc, k.c, k.c)
	}
}

// group runs regs registers of width w through the cipher, interleaved
// round by round. last says no other group follows.
func (k *kernel) group(w, regs int, last bool) {
	state := make([]VecPhysical, regs)
	for j := range state {
		state[j] = as(k.state[j], w)
	}
	mem := func(base GPPhysical, j int) Mem { return Mem{Base: base, Disp: w * j} }

	key0 := as(k.key(0), w)
	for j, s := range state {
		switch {
		case k.ctr:
			k.nextCounter(s, w, last && j == regs-1)
			k.xor(key0, s)
		case k.width == xmm:
			MOVOU(mem(k.src, j), s)
			PXOR(key0, s)
		default:
			k.xorTo(mem(k.src, j), key0, s)
		}
	}
	k.rounds(func(slot int) {
		key := as(k.key(slot), w)
		for _, s := range state {
			k.aesRound(slot, key, s)
		}
	})
	for j, s := range state {
		if k.ctr {
			if k.width == xmm {
				// The legacy PXOR needs aligned memory.
				MOVOU(mem(k.src, j), k.tmp)
				PXOR(k.tmp, s)
			} else {
				k.xor(mem(k.src, j), s)
			}
		}
		k.move(s, mem(k.dst, j))
	}
	if !last {
		ADDQ(U32(w*regs), k.src)
		ADDQ(U32(w*regs), k.dst)
	}
}

func (k *kernel) body() {
	Load(Param("nr"), k.nr)
	Load(Param("xk"), k.xk)
	Load(Param("dst"), k.dst)
	Load(Param("src"), k.src)
	Load(Param("n"), k.n)
	MOVQ(k.nr, k.p)
	SHLQ(U8(4), k.p)
	LEAQ(Mem{Base: k.xk, Index: k.p, Scale: 1, Disp: -160}, k.p)

	for s := 0; s <= lastSlot; s++ {
		if r := k.keys[s]; r != nil && (s == 0 || s > 4) {
			k.loadKey(s, r)
		}
	}
	if k.width == zmm {
		// Load slots 1..4 only where the key size uses them.
		k.rounds(func(s int) {
			if s <= 4 {
				k.loadKey(s, k.keys[s])
			}
		})
	}

	if k.ctr {
		hi, lo := R9, R10
		Load(Param("hi"), hi)
		Load(Param("lo"), lo)
		switch k.width {
		case xmm:
			MOVQ(lo, k.c)
			PINSRQ(U8(1), hi, k.c)
			MOVOU(ctrConsts.Offset(16), k.inc)
			MOVOU(bswapMask, k.bswap)
		case ymm:
			c := k.c.AsX()
			VMOVQ(lo, c)
			VPINSRQ(U8(1), hi, c, c)
			VINSERTI128(U8(1), c, k.c, k.c)
			VPADDQ(ctrConsts, k.c, k.c)
			VBROADCASTI128(ctrConsts.Offset(32), k.inc)
			VMOVDQU(bswapMask, k.bswap)
		case zmm:
			VPBROADCASTQ(lo, k.c)
			VPBROADCASTQ(hi, k.tmp)
			VPUNPCKLQDQ(k.tmp, k.c, k.c)
			VPADDQ(ctrConsts, k.c, k.c)
			VBROADCASTI32X4(ctrConsts.Offset(64), k.inc)
			VBROADCASTI32X4(ctrConsts.Offset(32), k.inc2)
			VMOVDQU64(bswapMask, k.bswap)
		}
	}

	wide := len(k.state) * k.width / 16
	loop, tail := label("loop"), label("tail")
	CMPQ(k.n, U32(wide))
	JB(LabelRef(tail))
	Label(loop)
	k.group(k.width, len(k.state), false)
	SUBQ(U32(wide), k.n)
	CMPQ(k.n, U32(wide))
	JAE(LabelRef(loop))
	Label(tail)

	// n < wide: one group per set bit of n, from the widest.
	for blocks := wide / 2; blocks >= 1; blocks /= 2 {
		w := min(k.width, 16*blocks)
		skip := label("skip")
		TESTQ(U32(blocks), k.n)
		JZ(LabelRef(skip))
		k.group(w, 16*blocks/w, blocks == 1)
		Label(skip)
	}
	if k.width != xmm {
		VZEROUPPER()
	}
	RET()
}
