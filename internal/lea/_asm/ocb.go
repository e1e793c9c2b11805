package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The OCB3 kernels fuse fae's OCB3 (package ocb) with the rounds above.
// Each processes n > 0 whole blocks that follow block index i, a multiple of
// 32, of a message or of the associated data. Offsets come from ocb's per-key
// tables: rel[j] is the offset of block j+1 of a 32-block group relative to
// the offset before the group, exact for j < 31; the group's last block
// takes rel[30] ^ L_ntz, one lookup in l per group. They are XORed into
// whole blocks before the transpose and after the inverse transpose, so the
// rounds are ECB's, and the checksum (or AD sum) accumulates in a register.
//
// On zmm, passes take four sets (two groups, 64 blocks), then one group of
// two sets, then the last 1..31 blocks with masked loads and stores. On ymm,
// where registers allow two sets, a group takes two passes, and n must be a
// multiple of 32: the caller does the rest.

type ocbOp int

const (
	ocbEnc  ocbOp = iota // dst = E(src^O)^O, sum ^= src
	ocbDec               // dst = D(src^O)^O, sum ^= dst
	ocbHash              // sum ^= E(src^O)
)

// General-purpose registers beyond those of the ECB kernels.
var (
	relp = R10 // relative offsets
	ltab = R11 // L_i
	idx  = R12 // index of the block before the next one
	tmp  = R13
)

// Vector registers beyond four sets (Z0..Z23).
var (
	zBase  = Z24                      // offset before the pass, broadcast
	zBase1 = Z25                      // offset before the pass's second group
	zLast  = [2]VecPhysical{Z26, Z27} // each group's last vector of relative offsets
	zAcc   = Z28                      // checksum or AD sum, lane by lane
)

func (a isa) ocb(o ocbOp) {
	fn := "ocb" + [...]string{"Enc", "Dec", "Hash"}[o] + a.name
	args := "rel, l *[32][16]byte, dst, src *byte, n int, i uint64, "
	if o == ocbHash {
		args = "rel, l *[32][16]byte, src *byte, n int, i uint64, "
	}
	TEXT(fn, NOSPLIT, "func(rk *[192]uint32, rounds int, "+args+
		"off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)")
	Pragma("noescape")
	Load(Param("rk"), rk)
	Load(Param("rounds"), rounds)
	Load(Param("rel"), relp)
	Load(Param("l"), ltab)
	if o != ocbHash {
		Load(Param("dst"), dst)
	}
	Load(Param("src"), src)
	Load(Param("n"), n)
	Load(Param("i"), idx)
	Load(Param("off0"), tmp)
	VMOVQ(tmp, X0)
	Load(Param("off1"), tmp)
	VPINSRQ(U8(1), tmp, X0, X0)
	VSHUFI64X2(U8(0), Z0, Z0, zBase)
	VPXORD(zAcc, zAcc, zAcc)

	two, tail, tail2, done := fn+"_two", fn+"_tail", fn+"_tail2", fn+"_done"
	Label(two)
	CMPQ(n, U8(64))
	JB(LabelRef(fn + "_one"))
	a.ocbPass(o, fn+"_2", 2)
	JMP(LabelRef(two))
	Label(fn + "_one")
	CMPQ(n, U8(32))
	JB(LabelRef(tail))
	a.ocbPass(o, fn+"_1", 1)

	Label(tail)
	TESTQ(n, n)
	JZ(LabelRef(done))
	CMPQ(n, U8(16))
	JA(LabelRef(tail2))
	a.ocbTail(o, fn+"_t1", 1)
	JMP(LabelRef(fn + "_last"))
	Label(tail2)
	a.ocbTail(o, fn+"_t2", 2)
	// The offset of the last block: base ^ rel[n-1].
	Label(fn + "_last")
	MOVQ(n, tmp)
	SHLQ(U8(4), tmp)
	VBROADCASTI32X4(Mem{Base: relp, Index: tmp, Scale: 1, Disp: -16}, Z0)
	VPXORD(Z0, zBase, zBase)

	Label(done)
	VMOVDQA64(zBase, Z0)
	VMOVQ(X0, tmp)
	Store(tmp, Return("o0"))
	VPEXTRQ(U8(1), X0, tmp)
	Store(tmp, Return("o1"))
	VMOVDQA64(zAcc, Z0)
	VEXTRACTI64X4(U8(1), Z0, Y1)
	VPXOR(Y1, Y0, Y0)
	VEXTRACTI128(U8(1), Y0, X1)
	VPXOR(X1, X0, X0)
	Load(Param("sum0"), tmp)
	VMOVQ(tmp, X1)
	Load(Param("sum1"), tmp)
	VPINSRQ(U8(1), tmp, X1, X1)
	VPXOR(X1, X0, X0)
	VMOVQ(X0, tmp)
	Store(tmp, Return("s0"))
	VPEXTRQ(U8(1), X0, tmp)
	Store(tmp, Return("s1"))
	VZEROUPPER()
	RET()
}

// ocbPass emits one pass over 1 or 2 whole groups (32 blocks, two sets,
// each).
func (a isa) ocbPass(o ocbOp, name string, groups int) {
	// The group's last block has index idx+32: its relative offset is
	// rel[30] ^ L_ntz(idx+32), in lane 3 of the last vector.
	for g := range groups {
		ADDQ(U8(32), idx)
		BSFQ(idx, tmp)
		SHLQ(U8(4), tmp)
		VMOVDQU(Mem{Base: relp, Disp: 16 * 30}, X4)
		VPXOR(Mem{Base: ltab, Index: tmp, Scale: 1}, X4, X4)
		VMOVDQU64(Mem{Base: relp, Disp: 16 * 28}, zLast[g])
		VINSERTI32X4(U8(3), X4, zLast[g], zLast[g])
	}
	bases := []VecPhysical{zBase, zBase1}
	if groups == 2 {
		VSHUFI64X2(U8(0xff), zLast[0], zLast[0], Z4)
		VPXORD(Z4, zBase, zBase1)
	}
	// offsets returns the relative offsets and the base of vector v.
	offsets := func(v int) (Op, VecPhysical) {
		g, k := v/8, v%8
		if k == 7 {
			return zLast[g], bases[g]
		}
		return Mem{Base: relp, Disp: 64 * k}, bases[g]
	}
	ss := a.sets(2 * groups)
	for s, set := range ss {
		for j := range 4 {
			a.load(Mem{Base: src, Disp: 64 * (4*s + j)}, set.x[j])
		}
		if o == ocbEnc {
			a.accumulate(set.x[:])
		}
		for j := range 4 {
			rel, base := offsets(4*s + j)
			VPTERNLOGD(U8(0x96), rel, base, set.x[j])
		}
		a.transpose(set)
	}
	a.roundLoop(name+"_rounds", ss, o == ocbDec)
	for s, set := range ss {
		a.transpose(set)
		if o != ocbHash {
			for j := range 4 {
				rel, base := offsets(4*s + j)
				VPTERNLOGD(U8(0x96), rel, base, set.x[j])
				a.store(set.x[j], Mem{Base: dst, Disp: 64 * (4*s + j)})
			}
		}
		if o != ocbEnc {
			a.accumulate(set.x[:])
		}
	}
	// The next base is the offset of the last block.
	VSHUFI64X2(U8(0xff), zLast[groups-1], zLast[groups-1], Z4)
	VPXORD(Z4, bases[groups-1], zBase)
	ADDQ(U32(512*groups), src)
	if o != ocbHash {
		ADDQ(U32(512*groups), dst)
	}
	SUBQ(U8(32*groups), n)
}

// ocbTail emits the last n < 32 blocks (n <= 16 with one set, n > 16 with
// two): the last set's vectors load and store only the blocks that exist,
// under masks K1..K4, and lanes past them are zeroed before they reach the
// checksum. Every offset is base ^ rel[j].
func (a isa) ocbTail(o ocbOp, name string, sets int) {
	// Two mask bits (qwords) per block of the last set.
	MOVQ(n, RCX)
	if sets == 2 {
		SUBQ(U8(16), RCX)
	}
	SHLQ(U8(1), RCX)
	MOVL(U32(1), EAX)
	SHLQ(CL, RAX)
	DECQ(RAX)
	masks := []OpmaskPhysical{K1, K2, K3, K4}
	for _, k := range masks {
		KMOVW(EAX, k)
		SHRQ(U8(8), RAX)
	}
	ss := a.sets(sets)
	masked := func(s int) bool { return s == sets-1 }
	for s, set := range ss {
		for j := range 4 {
			m := Mem{Base: src, Disp: 64 * (4*s + j)}
			if masked(s) {
				VMOVDQU64_Z(m, masks[j], set.x[j])
			} else {
				a.load(m, set.x[j])
			}
		}
		if o == ocbEnc {
			a.accumulate(set.x[:])
		}
		for j := range 4 {
			VPTERNLOGD(U8(0x96), Mem{Base: relp, Disp: 64 * (4*s + j)}, zBase, set.x[j])
		}
		a.transpose(set)
	}
	a.roundLoop(name+"_rounds", ss, o == ocbDec)
	for s, set := range ss {
		a.transpose(set)
		for j := range 4 {
			if o != ocbHash {
				VPTERNLOGD(U8(0x96), Mem{Base: relp, Disp: 64 * (4*s + j)}, zBase, set.x[j])
				m := Mem{Base: dst, Disp: 64 * (4*s + j)}
				if masked(s) {
					VMOVDQU64(set.x[j], masks[j], m)
				} else {
					a.store(set.x[j], m)
				}
			}
			if o != ocbEnc && masked(s) {
				VMOVDQU64_Z(set.x[j], masks[j], set.x[j])
			}
		}
		if o != ocbEnc {
			a.accumulate(set.x[:])
		}
	}
}

// accumulate XORs four vectors into zAcc.
func (a isa) accumulate(x []VecPhysical) {
	VPTERNLOGD(U8(0x96), x[1], x[0], zAcc)
	VPTERNLOGD(U8(0x96), x[3], x[2], zAcc)
}

// Vector registers of the ymm kernels beyond two sets (Y0..Y11) and the
// round key (Y15).
var (
	yBase = Y12 // offset before the group, in both lanes
	yAcc  = Y13 // checksum or AD sum, lane by lane
	yLast = Y14 // relative offsets of the group's last two blocks
)

// ocbYMM emits an AVX2 OCB3 kernel for whole groups.
func (a isa) ocbYMM(o ocbOp) {
	fn := "ocb" + [...]string{"Enc", "Dec", "Hash"}[o] + a.name
	args := "rel, l *[32][16]byte, dst, src *byte, n int, i uint64, "
	if o == ocbHash {
		args = "rel, l *[32][16]byte, src *byte, n int, i uint64, "
	}
	TEXT(fn, NOSPLIT, "func(rk *[192]uint32, rounds int, "+args+
		"off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)")
	Pragma("noescape")
	Load(Param("rk"), rk)
	Load(Param("rounds"), rounds)
	Load(Param("rel"), relp)
	Load(Param("l"), ltab)
	if o != ocbHash {
		Load(Param("dst"), dst)
	}
	Load(Param("src"), src)
	Load(Param("n"), n)
	Load(Param("i"), idx)
	Load(Param("off0"), tmp)
	VMOVQ(tmp, yBase.AsX())
	Load(Param("off1"), tmp)
	VPINSRQ(U8(1), tmp, yBase.AsX(), yBase.AsX())
	VINSERTI128(U8(1), yBase.AsX(), yBase, yBase)
	VPXOR(yAcc, yAcc, yAcc)

	loop, done := fn+"_group", fn+"_done"
	Label(loop)
	CMPQ(n, U8(32))
	JB(LabelRef(done))
	// The group's last block has index idx+32: its relative offset is
	// rel[30] ^ L_ntz(idx+32), in the high lane of yLast.
	ADDQ(U8(32), idx)
	BSFQ(idx, tmp)
	SHLQ(U8(4), tmp)
	VMOVDQU(Mem{Base: relp, Disp: 16 * 30}, X0)
	VPXOR(Mem{Base: ltab, Index: tmp, Scale: 1}, X0, X0)
	VMOVDQU(Mem{Base: relp, Disp: 16 * 30}, yLast)
	VINSERTI128(U8(1), X0, yLast, yLast)
	for h := range 2 {
		a.ocbHalf(o, fmt.Sprintf("%s_%d", fn, h), h)
	}
	// The next base is the offset of the last block.
	VPERM2I128(U8(0x11), yLast, yLast, Y0)
	VPXOR(Y0, yBase, yBase)
	SUBQ(U8(32), n)
	JMP(LabelRef(loop))

	Label(done)
	VMOVQ(yBase.AsX(), tmp)
	Store(tmp, Return("o0"))
	VPEXTRQ(U8(1), yBase.AsX(), tmp)
	Store(tmp, Return("o1"))
	VEXTRACTI128(U8(1), yAcc, X0)
	VPXOR(X0, yAcc.AsX(), X0)
	Load(Param("sum0"), tmp)
	VMOVQ(tmp, X1)
	Load(Param("sum1"), tmp)
	VPINSRQ(U8(1), tmp, X1, X1)
	VPXOR(X1, X0, X0)
	VMOVQ(X0, tmp)
	Store(tmp, Return("s0"))
	VPEXTRQ(U8(1), X0, tmp)
	Store(tmp, Return("s1"))
	VZEROUPPER()
	RET()
}

// ocbHalf emits half h of a group on ymm: 16 blocks, two sets.
func (a isa) ocbHalf(o ocbOp, name string, h int) {
	// xorOffset XORs the offsets of vector v of the half into x.
	xorOffset := func(v int, x VecPhysical) {
		if k := 8*h + v; k == 15 {
			VPXOR(yLast, x, x)
		} else {
			VPXOR(Mem{Base: relp, Disp: 32 * k}, x, x)
		}
		VPXOR(yBase, x, x)
	}
	ss := a.sets(2)
	for s, set := range ss {
		for j := range 4 {
			v := 4*s + j
			a.load(Mem{Base: src, Disp: 32 * v}, set.x[j])
			if o == ocbEnc {
				VPXOR(set.x[j], yAcc, yAcc)
			}
			xorOffset(v, set.x[j])
		}
		a.transpose(set)
	}
	a.roundLoop(name+"_rounds", ss, o == ocbDec)
	for s, set := range ss {
		a.transpose(set)
		for j := range 4 {
			v := 4*s + j
			if o != ocbHash {
				xorOffset(v, set.x[j])
				a.store(set.x[j], Mem{Base: dst, Disp: 32 * v})
			}
			if o != ocbEnc {
				VPXOR(set.x[j], yAcc, yAcc)
			}
		}
	}
	ADDQ(U32(256), src)
	if o != ocbHash {
		ADDQ(U32(256), dst)
	}
}
