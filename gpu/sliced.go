package gpu

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// The bitsliced kernels: AES with no table lookup and no branch on secret
// data, the package's default (constant time).
//
// A thread carries 32 blocks at once, as 128 32-bit slices: bit k of
// slice 8j+t is bit t of byte j of its block k, one of the granularities
// the NSS 2017 paper compares and the natural one for 32-bit registers: a
// slice is a register, SubBytes one Boyar–Peralta circuit per byte
// position over 8 registers, ShiftRows a renaming of registers, MixColumns
// XORs of whole registers, all 32 lanes of a register doing useful work.
// The 128 slices and the circuits' temporaries take about 200 of the 255
// registers a thread may have, so a thread block has at most slicedThreads
// threads (65536 registers per multiprocessor).
//
// Block k of lane r in group Q (1024 blocks) has the absolute index
// 1024Q+32k+r: for each k the warp loads and stores 512 contiguous bytes,
// and for OCB block 32q+r with q = 32Q+k keeps the offset G_r ^ H_q of the
// table kernels (maskOCB). Each warp takes p_per consecutive groups.
//
// Slices go in and out by a transposition of the 32x32 bit matrices of
// each of the four words of the 32 blocks (word w's bit b is bit b%8 of
// byte 4w+b/8, slice 32w+b): its two byte-granular stages are PRMTs, its
// three others a shift and a LOP3 per word.
//
// The round keys are bitsliced on the host (sliceKeys): each slice of a
// round key is 0 or all ones, 512 bytes per round at p_aux+auxKeys, loaded
// as warp-uniform 16-byte loads; p_k holds the number of rounds, then the
// mode's constants as for the table kernels. The S-box circuit computes
// S(x)^0x63; the 0x63 passes through MixColumns and its inverse, so it is
// folded into round keys 1..Nr, and the inverse S-box (L∘S∘L, L linear)
// takes its input with the same 0x63, which the same keys in reverse order
// supply. RAOCB's masks, two AES rounds per block, are bitsliced too, kept
// in shared memory between the whitening before and after the cipher.

const (
	slicedThreads = 256
	slicedShift   = 10 // log2 of the blocks of a group: 32 threads x 32
	sliceBytes    = 512
	// auxKeys is where the bitsliced round keys start in aux: rounds 0 to
	// 14, then RAOCB's R1 and R2 as rounds 15 and 16.
	auxKeys    = auxSize
	auxR1      = 15
	auxTotal   = auxKeys + 17*sliceBytes
	scratchOff = lowSize // RAOCB's masks: slice i of thread t at +1024i+4t
)

// sharedBytes is the dynamic shared memory kernel k takes.
func (k kernel) sharedBytes() int {
	switch {
	case !k.sliced:
		return sharedSize
	case k.mask == maskRAOCB:
		return scratchOff + 128*4*slicedThreads
	}
	return lowSize
}

// state is the 128 slices' registers.
type state [128]string

// logic builds a circuit of XOR and AND gates and emits it with gates
// merged into LOP3s: a gate whose result feeds only one other gate is
// folded into it where the merged function has at most three inputs.
type logic struct {
	g     *gen
	nodes []lnode
	regs  map[string]int
}

type lnode struct {
	op   byte // 0 input, '^', '&'
	a, b int
	reg  string // the input's register, or the output's
	uses int
	out  bool
	// Set when deciding: the node's function of at most three leaves, and
	// whether it gets a register (else it is merged into its one user).
	leaves []int
	tt     uint8
	mat    bool
}

func newLogic(g *gen) *logic { return &logic{g: g, regs: map[string]int{}} }

func (l *logic) in(reg string) int {
	if i, ok := l.regs[reg]; ok {
		return i
	}
	l.nodes = append(l.nodes, lnode{reg: reg, mat: true})
	l.regs[reg] = len(l.nodes) - 1
	return len(l.nodes) - 1
}

func (l *logic) gate(op byte, a, b int) int {
	l.nodes[a].uses++
	l.nodes[b].uses++
	l.nodes = append(l.nodes, lnode{op: op, a: a, b: b})
	return len(l.nodes) - 1
}

func (l *logic) xor(a, b int) int { return l.gate('^', a, b) }
func (l *logic) and(a, b int) int { return l.gate('&', a, b) }

// The truth tables of LOP3's three inputs.
var lop3Vars = [3]uint8{0xf0, 0xcc, 0xaa}

// eval returns the truth table, over the leaves of into (a superset of
// leaves), of the function tt of leaves.
func eval(tt uint8, leaves, into []int) uint8 {
	var r uint8
	for i := range 8 {
		j := 0
		for v, x := range leaves {
			for w, y := range into {
				if x == y && i>>(2-w)&1 != 0 {
					j |= 1 << (2 - v)
				}
			}
		}
		r |= (tt >> j & 1) << i
	}
	return r
}

// combine merges the functions of a and b under op, or fails when they
// have more than three leaves together.
func combine(op byte, la []int, ta uint8, lb []int, tb uint8) ([]int, uint8, bool) {
	leaves := append([]int(nil), la...)
	for _, x := range lb {
		if !slices.Contains(leaves, x) {
			leaves = append(leaves, x)
		}
	}
	if len(leaves) > 3 {
		return nil, 0, false
	}
	a, b := eval(ta, la, leaves), eval(tb, lb, leaves)
	if op == '^' {
		return leaves, a ^ b, true
	}
	return leaves, a & b, true
}

// emit computes outs into the registers dst (fresh ones where dst[i] is
// empty), which must not be inputs of the circuit, and returns them.
func (l *logic) emit(outs []int, dst []string) []string {
	for i, o := range outs {
		n := &l.nodes[o]
		if n.out {
			panic("gpu: a circuit output twice")
		}
		if n.op == 0 {
			r := dst[i]
			if r == "" {
				r = l.g.r()
			}
			l.g.in("mov.b32 %s, %s", r, l.reg(o))
			dst[i] = r
			continue
		}
		n.out = true
		n.reg = dst[i]
	}
	leaf := func(i int) ([]int, uint8) { return []int{i}, lop3Vars[0] }
	for i := range l.nodes {
		n := &l.nodes[i]
		if n.op == 0 {
			continue
		}
		// A fused operand keeps its own function; others become leaves.
		fusable := func(x int) bool { m := &l.nodes[x]; return m.op != 0 && m.uses == 1 && !m.out }
		type side struct {
			leaves []int
			tt     uint8
			fused  bool
		}
		opts := func(x int) []side {
			ll, lt := leaf(x)
			s := []side{{ll, lt, false}}
			if fusable(x) {
				s = append([]side{{l.nodes[x].leaves, l.nodes[x].tt, true}}, s...)
			}
			return s
		}
		done := false
		for _, sa := range opts(n.a) {
			for _, sb := range opts(n.b) {
				if done {
					break
				}
				leaves, tt, ok := combine(n.op, sa.leaves, sa.tt, sb.leaves, sb.tt)
				if !ok {
					continue
				}
				n.leaves, n.tt, done = leaves, tt, true
				if !sa.fused {
					l.nodes[n.a].mat = true
				}
				if !sb.fused {
					l.nodes[n.b].mat = true
				}
			}
		}
		if n.out || n.uses != 1 {
			n.mat = true
		}
	}
	for i := range l.nodes {
		n := &l.nodes[i]
		if n.op == 0 || !n.mat {
			continue
		}
		if n.reg == "" {
			n.reg = l.g.r()
		}
		l.g.lop3(n.reg, n.tt, l.regsOf(n.leaves)...)
	}
	for i, o := range outs {
		if dst[i] == "" {
			dst[i] = l.nodes[o].reg
		}
	}
	return dst
}

func (l *logic) reg(i int) string { return l.nodes[i].reg }

func (l *logic) regsOf(leaves []int) []string {
	var r []string
	for _, x := range leaves {
		r = append(r, l.reg(x))
	}
	return r
}

// lop3 computes the function tt of up to three registers into d, as a
// plain XOR, AND or OR where it is one.
func (g *gen) lop3(d string, tt uint8, srcs ...string) {
	if len(srcs) == 2 {
		switch tt {
		case 0x3c:
			g.in("xor.b32 %s, %s, %s", d, srcs[0], srcs[1])
			return
		case 0xc0:
			g.in("and.b32 %s, %s, %s", d, srcs[0], srcs[1])
			return
		case 0xfc:
			g.in("or.b32 %s, %s, %s", d, srcs[0], srcs[1])
			return
		}
	}
	for len(srcs) < 3 {
		srcs = append(srcs, srcs[0]) // an input the function ignores
	}
	g.in("lop3.b32 %s, %s, %s, %s, 0x%02x", d, srcs[0], srcs[1], srcs[2], tt)
}

// sbox is Boyar and Peralta's circuit as internal/aes has it: S(x)^0x63 of
// the byte whose bits are in (from the least significant), in bit order.
func (l *logic) sbox(in [8]int) [8]int {
	x0, x1, x2, x3, x4, x5, x6, x7 := in[7], in[6], in[5], in[4], in[3], in[2], in[1], in[0]
	s := l.sboxMSB(x0, x1, x2, x3, x4, x5, x6, x7)
	var out [8]int
	for i := range out {
		out[i] = s[7-i]
	}
	return out
}

func (l *logic) sboxMSB(x0, x1, x2, x3, x4, x5, x6, x7 int) [8]int {
	// Top linear layer.
	y14 := l.xor(x3, x5)
	y13 := l.xor(x0, x6)
	y9 := l.xor(x0, x3)
	y8 := l.xor(x0, x5)
	t0 := l.xor(x1, x2)
	y1 := l.xor(t0, x7)
	y4 := l.xor(y1, x3)
	y12 := l.xor(y13, y14)
	y2 := l.xor(y1, x0)
	y5 := l.xor(y1, x6)
	y3 := l.xor(y5, y8)
	t1 := l.xor(x4, y12)
	y15 := l.xor(t1, x5)
	y20 := l.xor(t1, x1)
	y6 := l.xor(y15, x7)
	y10 := l.xor(y15, t0)
	y11 := l.xor(y20, y9)
	y7 := l.xor(x7, y11)
	y17 := l.xor(y10, y11)
	y19 := l.xor(y10, y8)
	y16 := l.xor(t0, y11)
	y21 := l.xor(y13, y16)
	y18 := l.xor(x0, y16)

	// Middle non-linear layer: inversion in GF(2^4)^2.
	t2 := l.and(y12, y15)
	t3 := l.and(y3, y6)
	t4 := l.xor(t3, t2)
	t5 := l.and(y4, x7)
	t6 := l.xor(t5, t2)
	t7 := l.and(y13, y16)
	t8 := l.and(y5, y1)
	t9 := l.xor(t8, t7)
	t10 := l.and(y2, y7)
	t11 := l.xor(t10, t7)
	t12 := l.and(y9, y11)
	t13 := l.and(y14, y17)
	t14 := l.xor(t13, t12)
	t15 := l.and(y8, y10)
	t16 := l.xor(t15, t12)
	t17 := l.xor(t4, t14)
	t18 := l.xor(t6, t16)
	t19 := l.xor(t9, t14)
	t20 := l.xor(t11, t16)
	t21 := l.xor(t17, y20)
	t22 := l.xor(t18, y19)
	t23 := l.xor(t19, y21)
	t24 := l.xor(t20, y18)

	t25 := l.xor(t21, t22)
	t26 := l.and(t21, t23)
	t27 := l.xor(t24, t26)
	t28 := l.and(t25, t27)
	t29 := l.xor(t28, t22)
	t30 := l.xor(t23, t24)
	t31 := l.xor(t22, t26)
	t32 := l.and(t31, t30)
	t33 := l.xor(t32, t24)
	t34 := l.xor(t23, t33)
	t35 := l.xor(t27, t33)
	t36 := l.and(t24, t35)
	t37 := l.xor(t36, t34)
	t38 := l.xor(t27, t36)
	t39 := l.and(t29, t38)
	t40 := l.xor(t25, t39)

	t41 := l.xor(t40, t37)
	t42 := l.xor(t29, t33)
	t43 := l.xor(t29, t40)
	t44 := l.xor(t33, t37)
	t45 := l.xor(t42, t41)
	z0 := l.and(t44, y15)
	z1 := l.and(t37, y6)
	z2 := l.and(t33, x7)
	z3 := l.and(t43, y16)
	z4 := l.and(t40, y1)
	z5 := l.and(t29, y7)
	z6 := l.and(t42, y11)
	z7 := l.and(t45, y17)
	z8 := l.and(t41, y10)
	z9 := l.and(t44, y12)
	z10 := l.and(t37, y3)
	z11 := l.and(t33, y4)
	z12 := l.and(t43, y13)
	z13 := l.and(t40, y5)
	z14 := l.and(t29, y2)
	z15 := l.and(t42, y9)
	z16 := l.and(t45, y14)
	z17 := l.and(t41, y8)

	// Bottom linear layer.
	t46 := l.xor(z15, z16)
	t47 := l.xor(z10, z11)
	t48 := l.xor(z5, z13)
	t49 := l.xor(z9, z10)
	t50 := l.xor(z2, z12)
	t51 := l.xor(z2, z5)
	t52 := l.xor(z7, z8)
	t53 := l.xor(z0, z3)
	t54 := l.xor(z6, z7)
	t55 := l.xor(z16, z17)
	t56 := l.xor(z12, t48)
	t57 := l.xor(t50, t53)
	t58 := l.xor(z4, t46)
	t59 := l.xor(z3, t54)
	t60 := l.xor(t46, t57)
	t61 := l.xor(z14, t57)
	t62 := l.xor(t52, t58)
	t63 := l.xor(t49, t58)
	t64 := l.xor(z4, t59)
	t65 := l.xor(t61, t62)
	t66 := l.xor(z1, t63)
	t67 := l.xor(t64, t65)

	s3 := l.xor(t53, t66)
	// s0 (the most significant bit) to s7.
	return [8]int{l.xor(t59, t63), l.xor(t64, s3), l.xor(t55, t67), s3, l.xor(t51, t66), l.xor(t47, t65), l.xor(t56, t62), l.xor(t48, t60)}
}

// invAffine is L of internal/aes's invSbox: bit i of L(x) is
// x[i+2]^x[i+5]^x[i+7] (indices mod 8).
func (l *logic) invAffine(x [8]int) [8]int {
	var y [8]int
	for i := range y {
		y[i] = l.xor(l.xor(x[(i+2)%8], x[(i+5)%8]), x[(i+7)%8])
	}
	return y
}

// xtime multiplies the byte in bits x by 2 in GF(2^8).
func (l *logic) xtime(x [8]int) [8]int {
	return [8]int{x[7], l.xor(x[0], x[7]), x[1], l.xor(x[2], x[7]), l.xor(x[3], x[7]), x[4], x[5], x[6]}
}

func (l *logic) xor8(x, y [8]int) [8]int {
	var z [8]int
	for i := range z {
		z[i] = l.xor(x[i], y[i])
	}
	return z
}

// mixColumn is MixColumns of one column a (rows 0 to 3), plus k unless
// nil: b_r = 2(a_r^a_r+1) ^ a_r+1 ^ a_r+2 ^ a_r+3 ^ k_r, each bit of b_r
// one chain of XORs of its 4 to 6 terms, two LOP3s.
func (l *logic) mixColumn(a [4][8]int, k *[4][8]int) [4][8]int {
	var t, b [4][8]int
	for r := range 4 {
		t[r] = l.xor8(a[r], a[(r+1)%4])
	}
	for r := range 4 {
		for i := range 8 {
			// Bit i of 2t: bit i-1 of t, and bit 7 of t where the
			// reduction polynomial 0x1b has bit i.
			terms := []int{a[(r+1)%4][i], t[(r+2)%4][i]}
			if i > 0 {
				terms = append(terms, t[r][i-1])
			}
			if 0x1b>>i&1 != 0 {
				terms = append(terms, t[r][7])
			}
			if k != nil {
				terms = append(terms, k[r][i])
			}
			b[r][i] = l.xorAll(terms)
		}
	}
	return b
}

// xorAll is the XOR of terms as a chain from the first, which merges into
// one LOP3 per two terms after the first.
func (l *logic) xorAll(terms []int) int {
	x := terms[0]
	for _, y := range terms[1:] {
		x = l.xor(x, y)
	}
	return x
}

// byteIn returns the inputs of the 8 slices of byte j of s.
func (l *logic) byteIn(s *state, j int) [8]int {
	var x [8]int
	for t := range x {
		x[t] = l.in(s[8*j+t])
	}
	return x
}

// keyBytes loads the slices of round key bytes j..j+n-1 from kp+off.
func (g *gen) keyBytes(kp string, off, j, n int) []string {
	var ks []string
	for i := 0; i < 8*n; i += 4 {
		w := g.fresh4()
		g.in("ld.global.nc.v4.u32 %s, [%s+%d]", vec(w), kp, off+4*(8*j+i))
		ks = append(ks, w[:]...)
	}
	return ks
}

// subBytes returns SubBytes of in (less 0x63), or InvSubBytes of in with
// 0x63 added, taking byte j from in's byte src(j).
func (g *gen) subBytes(in *state, inverse bool, src func(j int) int) state {
	var out state
	for j := range 16 {
		l := newLogic(g)
		x := l.byteIn(in, src(j))
		var y [8]int
		if inverse {
			y = l.invAffine(l.sbox(l.invAffine(x)))
		} else {
			y = l.sbox(x)
		}
		copy(out[8*j:], l.emit(y[:], make([]string, 8)))
	}
	return out
}

// shiftRowsSrc is the byte that ShiftRows moves to byte j: row r of
// column c comes from column c+r.
func shiftRowsSrc(j int) int { c, r := j/4, j%4; return 4*((c+r)%4) + r }

// invShiftRowsSrc is InvShiftRows's: row r of column c from column c-r.
func invShiftRowsSrc(j int) int { c, r := j/4, j%4; return 4*((c-r+4)%4) + r }

// encRound is one AES round on in, SubBytes, ShiftRows, MixColumns (unless
// last) and the round key at kp+off, into out.
func (g *gen) encRound(in, out *state, kp string, off int, last bool) {
	s := g.subBytes(in, false, shiftRowsSrc)
	for c := range 4 {
		ks := g.keyBytes(kp, off, 4*c, 4)
		l := newLogic(g)
		var a, k [4][8]int
		for r := range 4 {
			a[r] = l.byteIn(&s, 4*c+r)
			for t := range 8 {
				k[r][t] = l.in(ks[8*r+t])
			}
		}
		b := a
		if !last {
			b = l.mixColumn(a, &k)
		} else {
			for r := range 4 {
				b[r] = l.xor8(a[r], k[r])
			}
		}
		var outs []int
		for r := range 4 {
			outs = append(outs, b[r][:]...)
		}
		l.emit(outs, out[32*c:32*c+32])
	}
}

// decRound is one round of the inverse cipher on in: InvShiftRows,
// InvSubBytes, the round key at kp+off and InvMixColumns (unless last),
// into out. InvMixColumns is MixColumns after P: a_0,2 ^= 4(a_0^a_2),
// a_1,3 ^= 4(a_1^a_3).
func (g *gen) decRound(in, out *state, kp string, off int, last bool) {
	s := g.subBytes(in, true, invShiftRowsSrc)
	for c := range 4 {
		ks := g.keyBytes(kp, off, 4*c, 4)
		l := newLogic(g)
		var a [4][8]int
		for r := range 4 {
			x := l.byteIn(&s, 4*c+r)
			for t := range 8 {
				x[t] = l.xor(x[t], l.in(ks[8*r+t]))
			}
			a[r] = x
		}
		if !last {
			for r := range 2 {
				u := l.xtime(l.xtime(l.xor8(a[r], a[r+2])))
				a[r], a[r+2] = l.xor8(a[r], u), l.xor8(a[r+2], u)
			}
			a = l.mixColumn(a, nil)
		}
		var outs []int
		for r := range 4 {
			outs = append(outs, a[r][:]...)
		}
		l.emit(outs, out[32*c:32*c+32])
	}
}

// transpose transposes the 32x32 bit matrix in rows (row i bit j to row j
// bit i) and returns its new rows: for j = 16, 8, 4, 2, 1 the bits of row
// i with bit j of their column set swap with those of row i+j without.
func (g *gen) transpose(rows []string, masks map[int]string) []string {
	a := append([]string(nil), rows...)
	for j := 16; j > 0; j >>= 1 {
		for i := range 32 {
			if i&j != 0 {
				continue
			}
			x, y := a[i], a[i+j]
			nx, ny := g.r(), g.r()
			switch j {
			case 16:
				g.in("prmt.b32 %s, %s, %s, 0x5410", nx, x, y)
				g.in("prmt.b32 %s, %s, %s, 0x7632", ny, x, y)
			case 8:
				g.in("prmt.b32 %s, %s, %s, 0x6240", nx, x, y)
				g.in("prmt.b32 %s, %s, %s, 0x7351", ny, x, y)
			default:
				// x' = x&m | y<<j&^m, y' = x>>j&m | y&^m: LOP3 0xe4 is
				// a&c | b&^c.
				ys, xs := g.r(), g.r()
				g.in("shl.b32 %s, %s, %d", ys, y, j)
				g.in("shr.u32 %s, %s, %d", xs, x, j)
				g.lop3(nx, 0xe4, x, ys, masks[j])
				g.lop3(ny, 0xe4, xs, y, masks[j])
			}
			a[i], a[i+j] = nx, ny
		}
	}
	return a
}

// slice transposes the blocks w (four words each) into the slices of
// a state, or back with words the state and w the result.
func (g *gen) toSlices(w *[32]word4, masks map[int]string) state {
	var s state
	for wi := range 4 {
		var rows []string
		for k := range 32 {
			rows = append(rows, w[k][wi])
		}
		copy(s[32*wi:], g.transpose(rows, masks))
	}
	return s
}

func (g *gen) fromSlices(s *state, masks map[int]string) [32]word4 {
	var w [32]word4
	for wi := range 4 {
		rows := g.transpose(s[32*wi:32*wi+32], masks)
		for k := range 32 {
			w[k][wi] = rows[k]
		}
	}
	return w
}

// freshState returns 128 new registers.
func (g *gen) freshState() state {
	var s state
	for i := range s {
		s[i] = g.r()
	}
	return s
}

// slicedCipher runs AES (or the inverse cipher) with the round keys at kp
// on in, leaving the result in the loop-carried registers x. The rounds
// between the first and the last are a loop, kept rolled: unrolled, each
// kernel would be several times larger for the driver to compile and for
// the instruction cache.
func (g *gen) slicedCipher(in *state, x *state, kp, rounds string) {
	// AddRoundKey of key 0, or of key Nr when decrypting.
	k, off := g.rd(), g.rd()
	g.in("mov.b64 %s, %s", k, kp)
	if g.decrypt {
		g.in("mul.wide.u32 %s, %s, %d", off, rounds, sliceBytes)
		g.in("add.u64 %s, %s, %s", k, k, off)
	}
	for c := range 4 {
		ks := g.keyBytes(k, 0, 4*c, 4)
		for i, kr := range ks {
			g.in("xor.b32 %s, %s, %s", x[32*c+i], in[32*c+i], kr)
		}
	}
	left, loop, last := g.r(), g.label(), g.label()
	g.in("sub.u32 %s, %s, 1", left, rounds)
	g.mark(loop)
	step := sliceBytes
	if g.decrypt {
		step = -sliceBytes
	}
	g.in("add.s64 %s, %s, %d", k, k, step)
	p := g.p()
	g.in("setp.eq.u32 %s, %s, 0", p, left)
	g.in("@%s bra %s", p, last)
	if g.decrypt {
		g.decRound(x, x, k, 0, false)
	} else {
		g.encRound(x, x, k, 0, false)
	}
	g.in("sub.u32 %s, %s, 1", left, left)
	g.in("bra %s", loop)
	g.mark(last)
	if g.decrypt {
		g.decRound(x, x, k, 0, true)
	} else {
		g.encRound(x, x, k, 0, true)
	}
}

// genSliced generates bitsliced kernel k (see the top of this file).
func genSliced(k kernel) string {
	g := &gen{decrypt: k.op == opDec}
	st := g.prologue()
	ptr, first, lane := st.ptr, st.first, st.lane
	rounds := g.r()
	g.in("ld.param.u32 %s, [p_k]", rounds)
	masks := map[int]string{}
	for j, m := range []uint32{4: 0x0f0f0f0f, 2: 0x33333333, 1: 0x55555555} {
		if m != 0 {
			masks[j] = g.r()
			g.in("mov.b32 %s, 0x%08x", masks[j], m)
		}
	}
	kp := g.rd()
	g.in("add.u64 %s, %s, %d", kp, ptr["p_aux"], auxKeys)
	if k.mask == maskOCB {
		g.copyWords(ptr["p_aux"], auxL, lowL, 2*32*4) // L and M
		g.in("bar.sync 0")
	}

	qs, qe, limit := g.warpGroups(st, slicedShift)
	mc := g.modeConsts(k, st)
	gr, base, sum := mc.gr, mc.base, mc.sum
	var bp batchPtrs
	if k.batch {
		bp = g.batchPtrs(st)
	}
	var h word4
	var scratch string
	switch k.mask {
	case maskOCB:
		if k.batch {
			break
		}
		q := g.r()
		g.in("shl.b32 %s, %s, 5", q, qs)
		h = g.groupOffset(q)
	case maskRAOCB:
		scratch = g.r()
		g.in("shl.b32 %s, %s, 2", scratch, g.tid)
		g.in("add.u32 %s, %s, %s", scratch, scratch, g.sm)
	}

	end := g.label()
	p := g.p()
	g.in("setp.ge.u32 %s, %s, %s", p, qs, qe)
	g.in("@%s bra %s", p, end)
	qq, a0 := g.r(), g.r()
	g.in("mov.u32 %s, %s", qq, qs)
	loop := g.label()
	g.mark(loop)
	g.in("shl.b32 %s, %s, %d", a0, qq, slicedShift)
	g.in("or.b32 %s, %s, %s", a0, a0, lane)
	// slot returns block k's launch-relative index and whether it is the
	// launch's.
	slot := func(k int) (i, valid string) {
		a := g.r()
		i, valid = g.r(), g.p()
		g.in("add.u32 %s, %s, %d", a, a0, 32*k)
		g.in("sub.u32 %s, %s, %s", i, a, first)
		g.in("setp.lt.u32 %s, %s, %s", valid, i, limit)
		return i, valid
	}
	// ocbStep advances hq from H_q to H_q+1 for q = 32Q+j: for j < 31,
	// ntz(q+1) = ntz(j+1) is known here, and only the step to the next
	// group needs the run-time one.
	var hq word4
	ocbStep := func(j int) {
		if j < 31 {
			m := g.fresh4()
			g.in("ld.shared.v4.u32 %s, [%s+%d]", vec(m), g.sm, lowM+16*bits.TrailingZeros(uint(j+1)))
			g.xorInto(hq, m, "")
			return
		}
		q := g.r()
		g.in("add.u32 %s, %s, 1", q, qq)
		g.in("shl.b32 %s, %s, 5", q, q)
		g.ocbNext(hq, q)
	}
	ocbStart := func() {
		hq = g.fresh4()
		for j := range hq {
			g.in("mov.b32 %s, %s", hq[j], h[j])
		}
	}

	// sumAt returns the address of a batch's sum of slot j's message.
	sumAt := func(j int) string {
		i, valid := slot(j)
		_, _, at := g.batchBlock(bp, i, valid)
		return at
	}
	if k.mask == maskRAOCB {
		// The masks: AESENC(AESENC(B ⊞ a, R1), R2), into shared memory.
		var s state
		if k.batch {
			var w [32]word4
			for j := range w {
				i, valid := slot(j)
				w[j], _ = g.batchMask(k, bp, i, valid)
			}
			s = g.toSlices(&w, masks)
		} else {
			s = g.maskSlices(base, a0)
		}
		d1, d2 := g.freshState(), g.freshState()
		g.encRound(&s, &d1, kp, auxR1*sliceBytes, false)
		g.encRound(&d1, &d2, kp, (auxR1+1)*sliceBytes, false)
		for i, r := range d2 {
			g.in("st.shared.u32 [%s+%d], %s", scratch, scratchOff+4*slicedThreads*i, r)
		}
	}

	// The cipher's input. OCB's offsets step through the group, to the
	// next group's H, which the output reuses.
	var s state
	var hNext word4
	if k.op == opCTR {
		s = g.counterSlices(mc, a0)
	} else {
		var w [32]word4
		if k.mask == maskOCB && !k.batch {
			ocbStart()
		}
		for j := range w {
			i, valid := slot(j)
			x := g.fresh4()
			for _, r := range x {
				g.in("mov.b32 %s, 0", r)
			}
			g.load(x, ptr["p_src"], i, valid)
			switch {
			case k.batch && k.mask == maskOCB:
				m, at := g.batchMask(k, bp, i, valid)
				if k.op == opEnc {
					g.redXor(at, x, valid)
				}
				x = g.xor4(x, m)
			case k.batch && k.op == opEnc:
				g.redXor(sumAt(j), x, valid)
			case k.op == opEnc:
				g.xorInto(sum, x, valid)
			}
			if k.mask == maskOCB && !k.batch {
				x = g.xor4(x, g.xor4(hq, gr))
				ocbStep(j)
			}
			w[j] = x
		}
		hNext = hq
		s = g.toSlices(&w, masks)
	}
	if k.mask == maskRAOCB {
		g.xorScratch(&s, scratch)
	}
	x := g.freshState()
	g.slicedCipher(&s, &x, kp, rounds)
	if k.mask == maskRAOCB && k.op != opHash {
		g.xorScratch(&x, scratch)
	}
	y := g.fromSlices(&x, masks)

	// The output.
	masked := k.mask == maskOCB && k.op != opHash
	if masked && !k.batch {
		ocbStart()
	}
	for j := range y {
		i, valid := slot(j)
		out := y[j]
		var at string // a batch's sum
		switch {
		case k.op == opCTR:
			in := g.fresh4()
			for _, r := range in {
				g.in("mov.b32 %s, 0", r)
			}
			g.load(in, ptr["p_src"], i, valid)
			out = g.xor4(out, in)
		case masked && k.batch:
			var m word4
			m, at = g.batchMask(k, bp, i, valid)
			out = g.xor4(out, m)
		case masked:
			out = g.xor4(out, g.xor4(hq, gr))
			if j < 31 {
				ocbStep(j)
			}
		}
		switch {
		case k.op != opDec && k.op != opHash:
		case !k.batch:
			g.xorInto(sum, out, valid)
		case at != "":
			g.redXor(at, out, valid)
		default:
			g.redXor(sumAt(j), out, valid)
		}
		if k.op != opHash {
			g.store(out, ptr["p_dst"], i, valid)
		}
	}
	if k.mask == maskOCB && !k.batch {
		for j := range h {
			g.in("mov.b32 %s, %s", h[j], hNext[j])
		}
	}
	g.in("add.u32 %s, %s, 1", qq, qq)
	more := g.p()
	g.in("setp.lt.u32 %s, %s, %s", more, qq, qe)
	g.in("@%s bra %s", more, loop)
	g.mark(end)
	if k.mask != maskNone && !k.batch {
		g.reduce(sum, ptr["p_sum"])
	}
	g.in("ret")
	return g.entry(k, slicedThreads)
}

// counterSlices returns the slices of CTR's counter blocks for the absolute
// indices a0+32k, k = 0 to 31, built in place rather than transposed (see
// indexSlices). Bit p of the big-endian counter is bit p%8 of its byte
// 15-p/8.
func (g *gen) counterSlices(c consts, a0 string) state {
	hi, lo := g.add128(c.ctrHi, c.ctrLo, a0)
	lo2, hi2, p := g.rd(), g.rd(), g.p()
	g.in("add.u64 %s, %s, 1024", lo2, lo)
	g.in("setp.lt.u64 %s, %s, %s", p, lo2, lo)
	g.in("mov.b64 %s, %s", hi2, hi)
	g.in("@%s add.u64 %s, %s, 1", p, hi2, hi2)
	u := g.words32(hi, lo)
	f := g.xor4(u, g.words32(hi2, lo2))
	var s state
	g.indexSlices([]string{u[3], u[2], u[1], u[0]}, []string{f[3], f[2], f[1], f[0]}, func(p int, r string) {
		s[8*(15-p/8)+p%8] = r
	})
	return s
}

// maskSlices returns the slices of B ⊞ a for RAOCB's indices a0+32k, k = 0
// to 31 (base: B's words as numbers), built in place: bit p of word c is
// bit p%8 of byte 4c+3-p/8.
func (g *gen) maskSlices(base word4, a0 string) state {
	var s state
	for c, b := range base {
		u, u2 := g.r(), g.r()
		g.in("add.u32 %s, %s, %s", u, b, a0)
		g.in("add.u32 %s, %s, 1024", u2, u)
		g.in("xor.b32 %s, %s, %s", u2, u2, u)
		g.indexSlices([]string{u}, []string{u2}, func(p int, r string) {
			s[8*(4*c+3-p/8)+p%8] = r
		})
	}
	return s
}

// indexSlices sets, through set, the slices of the number U+32k over the
// lanes k = 0 to 31, as wide as the words of u (U's 32-bit words, the least
// significant first), given f, the words of U ^ (U+1024): its bits 0 to 4
// are U's for every k; bits 5 to 9 are those of m+k mod 32, m = U's bits 5
// to 9, the slice of bit b the pattern of bit b-5 of k (lane k of
// 0xaaaaaaaa, 0xcccccccc, ...) rotated by m; bits 10 and up are U's,
// flipped where f has them in the lanes k where m+k carries (k >= 32-m).
func (g *gen) indexSlices(u, f []string, set func(p int, r string)) {
	m, left, ones, carry := g.r(), g.r(), g.r(), g.r()
	g.in("shr.u32 %s, %s, 5", m, u[0])
	g.in("and.b32 %s, %s, 31", m, m)
	g.in("neg.s32 %s, %s", left, m)
	g.in("add.u32 %s, %s, 32", left, left)
	g.in("mov.b32 %s, 0xffffffff", ones)
	g.in("shl.b32 %s, %s, %s", carry, ones, left) // 0 for m = 0: shifts clamp at 32
	bit := func(w string, b int) string {
		d := g.r()
		g.in("bfe.s32 %s, %s, %d, 1", d, w, b)
		return d
	}
	for p := range 32 * len(u) {
		switch {
		case p < 5:
			set(p, bit(u[0], p))
		case p < 10:
			pat, r, l, d := g.r(), g.r(), g.r(), g.r()
			g.in("mov.b32 %s, 0x%08x", pat, [...]uint32{0xaaaaaaaa, 0xcccccccc, 0xf0f0f0f0, 0xff00ff00, 0xffff0000}[p-5])
			g.in("shr.b32 %s, %s, %s", r, pat, m)
			g.in("shl.b32 %s, %s, %s", l, pat, left)
			g.in("or.b32 %s, %s, %s", d, r, l)
			set(p, d)
		default:
			d := g.r()
			g.lop3(d, 0x78, bit(u[p/32], p%32), bit(f[p/32], p%32), carry) // a ^ b&c
			set(p, d)
		}
	}
}

// xorScratch XORs RAOCB's masks from shared memory into s.
func (g *gen) xorScratch(s *state, scratch string) {
	for i, r := range s {
		m := g.r()
		g.in("ld.shared.u32 %s, [%s+%d]", m, scratch, scratchOff+4*slicedThreads*i)
		g.in("xor.b32 %s, %s, %s", r, r, m)
	}
}

// entry wraps g's body as kernel k's entry, for blocks of at most threads.
func (g *gen) entry(k kernel, threads int) string {
	var hd strings.Builder
	fmt.Fprintf(&hd, ".visible .entry %s(\n", k.name())
	for _, name := range pointerParams {
		fmt.Fprintf(&hd, "\t.param .u64 %s,\n", name)
	}
	hd.WriteString("\t.param .u32 p_n,\n\t.param .u32 p_first,\n\t.param .u32 p_per,\n")
	fmt.Fprintf(&hd, "\t.param .align 16 .b8 p_k[%d]\n)\n", kBytes)
	fmt.Fprintf(&hd, ".maxntid %d, 1, 1\n{\n", threads)
	fmt.Fprintf(&hd, "\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<%d>;\n\t.reg .pred %%p<%d>;\n", g.nr+1, g.nrd+1, g.np+1)
	hd.WriteString(g.body.String())
	hd.WriteString("}\n")
	return hd.String()
}
