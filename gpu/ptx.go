package gpu

import (
	"fmt"
	"strings"
	"sync"
)

// The kernels are PTX text generated here, at a low ISA version (PTX 7.0,
// sm_52) so that any recent driver JIT-compiles them for the GPU it drives.
// Every kernel has the same parameters:
//
//	p_dst, p_src   output and input blocks (global memory)
//	p_tables       the tables of tables.go
//	p_aux          OCB's offset tables (see maskOCB)
//	p_sum          16 bytes that the checksum or AD sum is XORed into
//	               (the batch kernels: the batch's table, batch.go)
//	p_n            the number of blocks of this launch
//	p_first        the index of the launch's block 0 in its message (0
//	               for the batch kernels)
//	p_per          groups of 32 blocks per warp (below)
//	p_k            the round keys, 16 bytes each in the AES state's byte
//	               order (decryption kernels: the equivalent inverse
//	               cipher's), and at kConst the mode's constants
//
// The round keys and constants are kernel parameters, so they live in the
// constant bank and take no registers. Blocks go to warps in groups of 32
// by absolute index (group q holds blocks 32q..32q+31, lane r takes
// 32q+r): each warp takes p_per consecutive groups, so a warp's loads and
// stores are 512 contiguous bytes, and OCB's offsets follow from one
// warp-uniform update per group.
//
// AES runs on T-tables in shared memory, replicated 32 times so that lane
// r reads only bank r: no bank conflicts, whatever the data. Table word x
// of lane r sits at T + 256x + 4r (+128 for the second table of a region),
// where T is 64 KiB aligned, so one prmt builds the address from the state
// byte and a per-lane constant. Table lookups are indexed by secret data:
// these kernels are NOT constant time, and an attacker who shares the GPU
// can in principle learn the key from timing.
//
// The block's 32-bit words are loaded little-endian, so byte 0 of an AES
// column is the low byte of its word.

// op is what a kernel does with block i of the launch.
type op int

const (
	opECB  op = iota // dst = E(src)
	opCTR            // dst = src ^ E(counter + i)
	opEnc            // dst = E(src ^ Δ) ^ Δ, sum ^= src
	opDec            // dst = D(src ^ Δ) ^ Δ, sum ^= dst
	opHash           // sum ^= E(src ^ Δ)
)

// maskKind is how an AEAD kernel finds Δ, the mask of block first+i.
type maskKind int

const (
	// maskNone: ECB and CTR. CTR's constants are the counter of block 0 as
	// two little-endian 64-bit words: the high and the low half of the
	// 128-bit big-endian counter.
	maskNone maskKind = iota
	// maskOCB: block a = first+i (1-based) has the offset Offset_0 ^ the
	// XOR of L_j over the set bits j of its Gray code a ^ a>>1. For
	// a = 32q+r that is G_r ^ H_q, where G_r (Offset_0 folded in) depends
	// on the lane and H_q on the group: H_q is the XOR of L_{j+5} over the
	// bits j of q's Gray code, and L_4 when q is odd, so H_{q+1} =
	// H_q ^ M_{ntz(q+1)} with M_j = L_{j+5} ^ L_4. aux holds L_0..L_31,
	// M_0..M_26 and G_0..G_31 (auxL, auxM, auxG).
	maskOCB
	// maskRAOCB: the constants are B, R1 and R2; Δ = AESENC(AESENC(B ⊞ a,
	// R1), R2) for block a = first+i.
	maskRAOCB
)

// kernel names one generated kernel.
type kernel struct {
	op     op
	mask   maskKind
	rounds int  // 10, 12 or 14; 0 for the bitsliced kernels, which take any
	sliced bool // bitsliced (sliced.go), else table-based
	batch  bool // the blocks of many messages (batch.go)
}

func (k kernel) name() string {
	m := [...]string{"", "ocb_", "raocb_"}[k.mask]
	o := [...]string{"ecb", "ctr", "enc", "dec", "hash"}[k.op]
	b := ""
	if k.batch {
		b = "_batch"
	}
	if k.sliced {
		return fmt.Sprintf("fae_bs_%s%s%s", m, o, b)
	}
	return fmt.Sprintf("fae_%s%s_r%d%s", m, o, k.rounds, b)
}

// allKernels lists every kernel of the module: the bitsliced ones, then
// the table-based ones for each number of rounds; the AEADs' each for one
// message and for batches.
func allKernels() []kernel {
	ks := []kernel{{op: opECB, sliced: true}, {op: opCTR, sliced: true}}
	aeads := func(k kernel) {
		for _, m := range []maskKind{maskOCB, maskRAOCB} {
			for _, o := range []op{opEnc, opDec, opHash} {
				for _, b := range []bool{false, true} {
					k.op, k.mask, k.batch = o, m, b
					ks = append(ks, k)
				}
			}
		}
	}
	aeads(kernel{sliced: true})
	for _, r := range []int{10, 12, 14} {
		ks = append(ks, kernel{op: opECB, rounds: r}, kernel{op: opCTR, rounds: r})
		aeads(kernel{rounds: r})
	}
	return ks
}

// The parameter block p_k: round keys, then the mode's constants.
const (
	kConst = 240
	kBytes = kConst + 48
)

// Layout of aux for OCB, in bytes.
const (
	auxL    = 0
	auxM    = 32 * 16
	auxG    = auxM + 32*16
	auxSize = auxG + 32*16
)

// Dynamic shared memory: a low area (offsets from its start), then two
// 64 KiB regions of replicated tables at the first 64 KiB boundary after
// it. Region 0 holds tables 0 and 1 (Te or Td), region 1 tables 2 and 3.
// The low area holds OCB's L and M, the plain inverse S-box and Te (for
// the last round of decryption and RAOCB's decryption masks, which are
// too few lookups to earn a replicated copy) and one 16-byte slot per
// thread for the reduction of the sums.
const (
	lowL       = 0
	lowM       = lowL + 32*16
	lowInvS    = lowM + 32*16
	lowTe      = lowInvS + 1024
	lowRed     = lowTe + 4096
	maxThreads = 1024
	lowSize    = lowRed + 16*maxThreads
	regionSize = 1 << 16
	// sharedSize leaves room to round the regions' start up to 64 KiB
	// wherever the window starts.
	sharedSize = lowSize + 3*regionSize
)

// module is the PTX module of every kernel, generated once: it takes tens
// of milliseconds, and tests make many engines.
var module = sync.OnceValue(func() string { return generate(allKernels()) })

// generate returns a PTX module holding ks.
func generate(ks []kernel) string {
	var b strings.Builder
	b.WriteString("// Generated by fae/gpu (ptx.go, sliced.go). The fae_bs_ kernels are\n// bitsliced, constant time; the others table-based, not constant time.\n")
	b.WriteString(".version 7.0\n.target sm_52\n.address_size 64\n")
	b.WriteString("\n.extern .shared .align 16 .b8 dsmem[];\n")
	for _, k := range ks {
		b.WriteString("\n")
		if k.sliced {
			b.WriteString(genSliced(k))
		} else {
			b.WriteString(genKernel(k))
		}
	}
	return b.String()
}

// gen accumulates one kernel's body. Registers are named freshly for every
// value (ptxas allocates the real ones); loop-carried values reuse theirs.
type gen struct {
	body        strings.Builder
	nr, nrd, np int
	labels      int
	sm          string // the dynamic shared memory's address
	lanebase    string // T | 4*lane: the bytes prmt keeps of a table address
	zero        string
	tid, ntid   string
	rounds      int
	decrypt     bool
}

func (g *gen) r() string  { g.nr++; return fmt.Sprintf("%%r%d", g.nr) }
func (g *gen) rd() string { g.nrd++; return fmt.Sprintf("%%rd%d", g.nrd) }
func (g *gen) p() string  { g.np++; return fmt.Sprintf("%%p%d", g.np) }

func (g *gen) label() string { g.labels++; return fmt.Sprintf("L%d", g.labels) }
func (g *gen) mark(l string) { g.body.WriteString(l + ":\n") }

func (g *gen) in(format string, args ...any) {
	g.body.WriteString("\t")
	fmt.Fprintf(&g.body, format, args...)
	g.body.WriteString(";\n")
}

type word4 [4]string

func (g *gen) fresh4() word4 { return word4{g.r(), g.r(), g.r(), g.r()} }

func vec(w word4) string { return "{" + strings.Join(w[:], ", ") + "}" }

func (g *gen) xor4(a, b word4) word4 {
	d := g.fresh4()
	for j := range d {
		g.in("xor.b32 %s, %s, %s", d[j], a[j], b[j])
	}
	return d
}

func (g *gen) bswap(x string) string {
	d := g.r()
	g.in("prmt.b32 %s, %s, %s, 0x0123", d, x, g.zero)
	return d
}

// param4 loads the four words at byte off of p_k. Each use loads afresh:
// ptxas reads them from the constant bank as operands.
func (g *gen) param4(off int) word4 {
	w := g.fresh4()
	for j := range w {
		g.in("ld.param.u32 %s, [p_k+%d]", w[j], off+4*j)
	}
	return w
}

func (g *gen) key(i int) word4 { return g.param4(16 * i) }

// lookup returns word (byte n of w) of the table replicated at slot t
// (0..3: region t/2, half t%2) for this thread's lane: one prmt puts the
// byte into bits 8..15 of lanebase.
func (g *gen) lookup(t int, w string, n int) string {
	idx, v := g.r(), g.r()
	g.in("prmt.b32 %s, %s, %s, 0x%x", idx, w, g.lanebase, 0x7604|n<<4)
	g.in("ld.shared.u32 %s, [%s+%d]", v, idx, t/2*regionSize+t%2*128)
	return v
}

// lookupPlain returns the word at byte offset table + 4*(byte n of w) of
// the low area's plain tables.
func (g *gen) lookupPlain(table int, w string, n int) string {
	idx, addr, v := g.r(), g.r(), g.r()
	if n == 0 {
		g.in("shl.b32 %s, %s, 2", idx, w)
	} else {
		g.in("shr.u32 %s, %s, %d", idx, w, 8*n-2)
	}
	g.in("and.b32 %s, %s, 0x3fc", idx, idx)
	g.in("add.u32 %s, %s, %s", addr, idx, g.sm)
	g.in("ld.shared.u32 %s, [%s+%d]", v, addr, table)
	return v
}

// round is one full AES round (AESENC) or inverse round (AESDEC, with the
// equivalent inverse cipher's key) on T-tables: column j takes row r from
// column j+r (ShiftRows) or j-r (InvShiftRows). The tables are the
// replicated ones (Te, or Td for inverse), or with plain the low area's Te.
func (g *gen) round(s word4, k word4, inverse, plain bool) word4 {
	d := g.fresh4()
	for j := range 4 {
		acc := k[j]
		for r := range 4 {
			c := (j + r) % 4
			if inverse {
				c = (j - r + 4) % 4
			}
			var v string
			if plain {
				v = g.lookupPlain(lowTe+1024*r, s[c], r)
			} else {
				v = g.lookup(r, s[c], r)
			}
			t := g.r()
			g.in("xor.b32 %s, %s, %s", t, acc, v)
			acc = t
		}
		d[j] = acc
	}
	return d
}

// lastRound is SubBytes, ShiftRows and AddRoundKey (or their inverses): the
// S-box bytes come from the Te tables (byte r of Te_{(r+2)%4}[x] is S[x]),
// the inverse S-box from its plain table.
func (g *gen) lastRound(s word4, k word4) word4 {
	d := g.fresh4()
	for j := range 4 {
		acc := k[j]
		for r := range 4 {
			t, v := g.r(), g.r()
			if g.decrypt {
				b := g.lookupPlain(lowInvS, s[(j-r+4)%4], r)
				g.in("shl.b32 %s, %s, %d", v, b, 8*r)
			} else {
				b := g.lookup((r+2)%4, s[(j+r)%4], r)
				g.in("and.b32 %s, %s, 0x%x", v, b, uint32(0xff)<<(8*r))
			}
			g.in("xor.b32 %s, %s, %s", t, acc, v)
			acc = t
		}
		d[j] = acc
	}
	return d
}

// cipher runs the whole block cipher on s.
func (g *gen) cipher(s word4) word4 {
	s = g.xor4(s, g.key(0))
	for i := 1; i < g.rounds; i++ {
		s = g.round(s, g.key(i), g.decrypt, false)
	}
	return g.lastRound(s, g.key(g.rounds))
}

// copyWords copies n 32-bit words from global src+off to shared dstOff of
// the low area, the threads of the block sharing the work.
func (g *gen) copyWords(src string, off, dstOff, n int) {
	k, loop, done := g.r(), g.label(), g.label()
	g.in("mov.u32 %s, %s", k, g.tid)
	g.mark(loop)
	p := g.p()
	g.in("setp.ge.u32 %s, %s, %d", p, k, n)
	g.in("@%s bra %s", p, done)
	o, a, v, so := g.rd(), g.rd(), g.r(), g.r()
	g.in("mul.wide.u32 %s, %s, 4", o, k)
	g.in("add.u64 %s, %s, %s", a, src, o)
	g.in("ld.global.u32 %s, [%s+%d]", v, a, off)
	g.in("shl.b32 %s, %s, 2", so, k)
	g.in("add.u32 %s, %s, %s", so, so, g.sm)
	g.in("st.shared.u32 [%s+%d], %s", so, dstOff, v)
	g.in("add.u32 %s, %s, %s", k, k, g.ntid)
	g.in("bra %s", loop)
	g.mark(done)
}

// fillRegions writes the four tables at byte off of tables (Te or Td) into
// the regions at base, each word 32 times: 16-byte index w of the regions
// holds lanes 4(w%8).. of table 2(w>>12) + (w>>3)%2, entry (w>>4)%256.
func (g *gen) fillRegions(tables string, off int, base string) {
	w, loop, done := g.r(), g.label(), g.label()
	g.in("mov.u32 %s, %s", w, g.tid)
	g.mark(loop)
	p := g.p()
	g.in("setp.ge.u32 %s, %s, %d", p, w, 2*regionSize/16)
	g.in("@%s bra %s", p, done)
	a, b, c := g.r(), g.r(), g.r()
	g.in("shr.u32 %s, %s, 1", a, w) // table/2 * 2048
	g.in("and.b32 %s, %s, 0x800", a, a)
	g.in("shl.b32 %s, %s, 7", b, w) // table%2 * 1024
	g.in("and.b32 %s, %s, 0x400", b, b)
	g.in("shr.u32 %s, %s, 2", c, w) // entry * 4
	g.in("and.b32 %s, %s, 0x3fc", c, c)
	g.in("or.b32 %s, %s, %s", a, a, b)
	g.in("or.b32 %s, %s, %s", a, a, c)
	o, addr, v, so := g.rd(), g.rd(), g.r(), g.r()
	g.in("cvt.u64.u32 %s, %s", o, a)
	g.in("add.u64 %s, %s, %s", addr, tables, o)
	g.in("ld.global.u32 %s, [%s+%d]", v, addr, off)
	g.in("shl.b32 %s, %s, 4", so, w)
	g.in("add.u32 %s, %s, %s", so, so, base)
	g.in("st.shared.v4.u32 [%s], {%s, %s, %s, %s}", so, v, v, v, v)
	g.in("add.u32 %s, %s, %s", w, w, g.ntid)
	g.in("bra %s", loop)
	g.mark(done)
}

func genKernel(k kernel) string {
	g := &gen{decrypt: k.op == opDec, rounds: k.rounds}
	st := g.prologue()
	ptr, first, lane := st.ptr, st.first, st.lane
	regions := g.r()
	g.in("add.u32 %s, %s, %d", regions, g.sm, lowSize+regionSize-1)
	g.in("and.b32 %s, %s, 0x%x", regions, regions, ^uint32(regionSize-1))
	g.lanebase = g.r()
	g.in("shl.b32 %s, %s, 2", g.lanebase, lane)
	g.in("or.b32 %s, %s, %s", g.lanebase, g.lanebase, regions)

	// Tables into shared memory, then one barrier.
	if g.decrypt {
		g.fillRegions(ptr["p_tables"], tdOffset, regions)
		g.copyWords(ptr["p_tables"], sinvOffset, lowInvS, 256)
		if k.mask == maskRAOCB {
			g.copyWords(ptr["p_tables"], teOffset, lowTe, 1024)
		}
	} else {
		g.fillRegions(ptr["p_tables"], teOffset, regions)
	}
	if k.mask == maskOCB {
		g.copyWords(ptr["p_aux"], auxL, lowL, 2*32*4) // L and M
	}
	g.in("bar.sync 0")

	qs, qe, limit := g.warpGroups(st, 5)
	mc := g.modeConsts(k, st)
	gr, base, sum := mc.gr, mc.base, mc.sum
	var bp batchPtrs
	var h word4
	switch {
	case k.batch:
		bp = g.batchPtrs(st)
	case k.mask == maskOCB:
		h = g.groupOffset(qs)
	}

	// The loop over the warp's groups, loading the next group's block
	// while the current one is enciphered.
	end := g.label()
	p := g.p()
	g.in("setp.ge.u32 %s, %s, %s", p, qs, qe)
	g.in("@%s bra %s", p, end)
	q, a, i, valid := g.r(), g.r(), g.r(), g.p()
	g.in("mov.u32 %s, %s", q, qs)
	g.in("shl.b32 %s, %s, 5", a, q)
	g.in("or.b32 %s, %s, %s", a, a, lane)
	g.in("sub.u32 %s, %s, %s", i, a, first)
	g.in("setp.lt.u32 %s, %s, %s", valid, i, limit)
	x := g.fresh4()
	for _, r := range x {
		g.in("mov.b32 %s, 0", r)
	}
	g.load(x, ptr["p_src"], i, valid)
	loop := g.label()
	g.mark(loop)
	iNext, vNext := g.r(), g.p()
	g.in("add.u32 %s, %s, 32", iNext, i)
	g.in("setp.lt.u32 %s, %s, %s", vNext, iNext, limit)
	xNext := g.fresh4()
	for j := range xNext {
		g.in("mov.b32 %s, %s", xNext[j], x[j])
	}
	g.load(xNext, ptr["p_src"], iNext, vNext)

	var mask, xi word4
	var sumAt string // a batch's sum of the block's message
	switch {
	case k.batch && k.mask == maskOCB:
		mask, sumAt = g.batchMask(k, bp, i, valid)
	case k.batch:
		xi, sumAt = g.batchMask(k, bp, i, valid)
	case k.mask == maskOCB:
		mask = g.xor4(h, gr)
	case k.mask == maskRAOCB:
		for j := range xi {
			t := g.r()
			g.in("add.u32 %s, %s, %s", t, base[j], a)
			xi[j] = g.bswap(t)
		}
	}
	if k.mask == maskRAOCB {
		plain := g.decrypt
		mask = g.round(g.round(xi, g.param4(kConst+16), false, plain), g.param4(kConst+32), false, plain)
	}

	var y word4
	switch k.op {
	case opECB:
		y = g.cipher(x)
	case opCTR:
		y = g.xor4(x, g.cipher(g.counter(mc, a)))
	case opEnc, opDec:
		y = g.xor4(g.cipher(g.xor4(x, mask)), mask)
	case opHash:
		y = g.cipher(g.xor4(x, mask))
	}
	acc := func(x word4) {
		if k.batch {
			g.redXor(sumAt, x, valid)
		} else {
			g.xorInto(sum, x, valid)
		}
	}
	switch k.op {
	case opEnc:
		acc(x)
	case opDec, opHash:
		acc(y)
	}
	if k.op != opHash {
		g.store(y, ptr["p_dst"], i, valid)
	}

	// Next group.
	g.in("add.u32 %s, %s, 1", q, q)
	g.in("add.u32 %s, %s, 32", a, a)
	g.in("mov.u32 %s, %s", i, iNext)
	g.in("mov.pred %s, %s", valid, vNext)
	for j := range x {
		g.in("mov.b32 %s, %s", x[j], xNext[j])
	}
	if k.mask == maskOCB && !k.batch {
		g.ocbNext(h, q)
	}
	more := g.p()
	g.in("setp.lt.u32 %s, %s, %s", more, q, qe)
	g.in("@%s bra %s", more, loop)
	g.mark(end)
	if k.mask != maskNone && !k.batch {
		g.reduce(sum, ptr["p_sum"])
	}
	g.in("ret")
	return g.entry(k, maxThreads)
}

// pointerParams are the kernels' pointer parameters (see the top).
var pointerParams = []string{"p_dst", "p_src", "p_tables", "p_aux", "p_sum"}

// start is what every kernel begins with: the pointer parameters as global
// addresses, the launch's block count, first index and groups per warp,
// and the thread's block index and lane.
type start struct {
	ptr                        map[string]string
	n, first, per, ctaid, lane string
}

// prologue loads the parameters and the thread's indices, and sets g's
// tid, ntid, sm and zero.
func (g *gen) prologue() start {
	st := start{ptr: map[string]string{}}
	for _, name := range pointerParams {
		a, b := g.rd(), g.rd()
		g.in("ld.param.u64 %s, [%s]", a, name)
		g.in("cvta.to.global.u64 %s, %s", b, a)
		st.ptr[name] = b
	}
	st.n, st.first, st.per = g.r(), g.r(), g.r()
	g.in("ld.param.u32 %s, [p_n]", st.n)
	g.in("ld.param.u32 %s, [p_first]", st.first)
	g.in("ld.param.u32 %s, [p_per]", st.per)
	g.tid, g.ntid = g.r(), g.r()
	st.ctaid, st.lane = g.r(), g.r()
	g.in("mov.u32 %s, %%tid.x", g.tid)
	g.in("mov.u32 %s, %%ntid.x", g.ntid)
	g.in("mov.u32 %s, %%ctaid.x", st.ctaid)
	g.in("and.b32 %s, %s, 31", st.lane, g.tid)
	g.sm, g.zero = g.r(), g.r()
	g.in("mov.u32 %s, dsmem", g.sm)
	g.in("mov.b32 %s, 0", g.zero)
	return st
}

// warpGroups returns this warp's groups [qs, qe) of 1<<shift blocks, by
// absolute index, and limit, the bound on the launch-relative index of the
// blocks that are the warp's and the launch's.
func (g *gen) warpGroups(st start, shift int) (qs, qe, limit string) {
	gw, q0, qend := g.r(), g.r(), g.r()
	qs, qe, limit = g.r(), g.r(), g.r()
	g.in("mad.lo.u32 %s, %s, %s, %s", gw, st.ctaid, g.ntid, g.tid)
	g.in("shr.u32 %s, %s, 5", gw, gw)
	g.in("shr.u32 %s, %s, %d", q0, st.first, shift)
	g.in("add.u32 %s, %s, %s", qend, st.first, st.n)
	g.in("sub.u32 %s, %s, 1", qend, qend)
	g.in("shr.u32 %s, %s, %d", qend, qend, shift)
	g.in("add.u32 %s, %s, 1", qend, qend)
	g.in("mad.lo.u32 %s, %s, %s, %s", qs, gw, st.per, q0)
	g.in("add.u32 %s, %s, %s", qe, qs, st.per)
	g.in("min.u32 %s, %s, %s", qe, qe, qend)
	g.in("shl.b32 %s, %s, %d", limit, qe, shift)
	g.in("sub.u32 %s, %s, %s", limit, limit, st.first)
	g.in("min.u32 %s, %s, %s", limit, limit, st.n)
	return qs, qe, limit
}

// consts are a mode's values for the whole launch.
type consts struct {
	ctrHi, ctrLo string // CTR's counter of block 0 (maskNone)
	gr           word4  // OCB's G_r of this lane
	base         word4  // RAOCB's B, as big-endian numbers for ⊞
	sum          word4  // the AEADs' sum, zero
}

func (g *gen) modeConsts(k kernel, st start) consts {
	var c consts
	if k.batch {
		return c // per message, from the batch's table
	}
	switch k.mask {
	case maskOCB:
		c.gr = g.fresh4()
		ga := g.rd()
		g.in("mul.wide.u32 %s, %s, 16", ga, st.lane)
		g.in("add.u64 %s, %s, %s", ga, ga, st.ptr["p_aux"])
		g.in("ld.global.v4.u32 %s, [%s+%d]", vec(c.gr), ga, auxG)
	case maskRAOCB:
		for j, b := range g.param4(kConst) {
			c.base[j] = g.bswap(b)
		}
	default:
		if k.op == opCTR {
			c.ctrHi, c.ctrLo = g.rd(), g.rd()
			g.in("ld.param.u64 %s, [p_k+%d]", c.ctrHi, kConst)
			g.in("ld.param.u64 %s, [p_k+%d]", c.ctrLo, kConst+8)
		}
	}
	if k.mask != maskNone {
		c.sum = g.fresh4()
		for _, s := range c.sum {
			g.in("mov.b32 %s, 0", s)
		}
	}
	return c
}

// add128 returns the 128-bit number hi:lo (64-bit registers) plus the
// 32-bit a.
func (g *gen) add128(hi, lo, a string) (string, string) {
	a64, nlo, nhi := g.rd(), g.rd(), g.rd()
	g.in("cvt.u64.u32 %s, %s", a64, a)
	g.in("add.u64 %s, %s, %s", nlo, lo, a64)
	p := g.p()
	g.in("setp.lt.u64 %s, %s, %s", p, nlo, lo)
	g.in("mov.b64 %s, %s", nhi, hi)
	g.in("@%s add.u64 %s, %s, 1", p, nhi, nhi)
	return nhi, nlo
}

// words32 returns the 32-bit words of hi:lo from the most significant.
func (g *gen) words32(hi, lo string) word4 {
	var w word4
	for j, h := range []string{hi, hi, lo, lo} {
		t := g.rd()
		w[j] = g.r()
		if j%2 == 0 {
			g.in("shr.u64 %s, %s, 32", t, h)
		} else {
			g.in("mov.b64 %s, %s", t, h)
		}
		g.in("cvt.u32.u64 %s, %s", w[j], t)
	}
	return w
}

// counter returns CTR's counter block for absolute block index a: the
// 128-bit big-endian counter plus a.
func (g *gen) counter(c consts, a string) word4 {
	var ctr word4
	for j, w := range g.words32(g.add128(c.ctrHi, c.ctrLo, a)) {
		ctr[j] = g.bswap(w)
	}
	return ctr
}

// load loads block i of src into x where valid holds.
func (g *gen) load(x word4, src, i, valid string) {
	off, sa := g.rd(), g.rd()
	g.in("mul.wide.u32 %s, %s, 16", off, i)
	g.in("add.u64 %s, %s, %s", sa, src, off)
	g.in("@%s ld.global.v4.u32 %s, [%s]", valid, vec(x), sa)
}

// ocbNext advances h from H_q-1 to H_q (q > 0): H_q = H_q-1 ^ M_ntz(q).
func (g *gen) ocbNext(h word4, q string) {
	t, j, ma := g.r(), g.r(), g.r()
	g.in("neg.s32 %s, %s", t, q)
	g.in("and.b32 %s, %s, %s", t, t, q)
	g.in("bfind.u32 %s, %s", j, t)
	g.in("shl.b32 %s, %s, 4", ma, j)
	g.in("add.u32 %s, %s, %s", ma, ma, g.sm)
	m := g.fresh4()
	g.in("ld.shared.v4.u32 %s, [%s+%d]", vec(m), ma, lowM)
	g.xorInto(h, m, "")
}

// store stores y as block i of dst where valid holds.
func (g *gen) store(y word4, dst, i, valid string) {
	off, da := g.rd(), g.rd()
	g.in("mul.wide.u32 %s, %s, 16", off, i)
	g.in("add.u64 %s, %s, %s", da, dst, off)
	g.in("@%s st.global.v4.u32 [%s], %s", valid, da, vec(y))
}

// groupOffset returns H_q (see maskOCB): the XOR of L_{j+5} over the set
// bits j of q's Gray code, and L_4 when q is odd.
func (g *gen) groupOffset(q string) word4 {
	h := g.fresh4()
	for _, r := range h {
		g.in("mov.b32 %s, 0", r)
	}
	g.xorGray(h, q, lowL+5*16)
	odd, l4 := g.p(), g.fresh4()
	t := g.r()
	g.in("and.b32 %s, %s, 1", t, q)
	g.in("setp.ne.u32 %s, %s, 0", odd, t)
	g.in("ld.shared.v4.u32 %s, [%s+%d]", vec(l4), g.sm, lowL+4*16)
	g.xorInto(h, l4, odd)
	return h
}

// xorGray XORs into h the 16 bytes at shared off+16j for each set bit j
// of the Gray code of x, a public index.
func (g *gen) xorGray(h word4, x string, off int) {
	gray, one := g.r(), g.r()
	g.in("shr.u32 %s, %s, 1", gray, x)
	g.in("xor.b32 %s, %s, %s", gray, gray, x)
	g.in("mov.b32 %s, 1", one)
	bits, done := g.label(), g.label()
	g.mark(bits)
	z := g.p()
	g.in("setp.eq.u32 %s, %s, 0", z, gray)
	g.in("@%s bra %s", z, done)
	j, bit, la := g.r(), g.r(), g.r()
	g.in("bfind.u32 %s, %s", j, gray)
	g.in("shl.b32 %s, %s, %s", bit, one, j)
	g.in("xor.b32 %s, %s, %s", gray, gray, bit)
	g.in("shl.b32 %s, %s, 4", la, j)
	g.in("add.u32 %s, %s, %s", la, la, g.sm)
	l := g.fresh4()
	g.in("ld.shared.v4.u32 %s, [%s+%d]", vec(l), la, off)
	g.xorInto(h, l, "")
	g.in("bra %s", bits)
	g.mark(done)
}

// xorInto XORs x into the loop-carried registers sum, where pred holds
// (always if pred is empty).
func (g *gen) xorInto(sum, x word4, pred string) {
	guard := ""
	if pred != "" {
		guard = "@" + pred + " "
	}
	for j := range sum {
		g.in("%sxor.b32 %s, %s, %s", guard, sum[j], sum[j], x[j])
	}
}

// reduce XORs the threads' sums together in shared memory, a tree of
// halving steps (the block size is a power of two), and thread 0 XORs the
// block's sum into the global one atomically: the host reads one 16-byte
// result, whatever the grid.
func (g *gen) reduce(sum word4, dst string) {
	slot, s := g.r(), g.r()
	g.in("shl.b32 %s, %s, 4", slot, g.tid)
	g.in("add.u32 %s, %s, %s", slot, slot, g.sm)
	g.in("st.shared.v4.u32 [%s+%d], %s", slot, lowRed, vec(sum))
	g.in("bar.sync 0")
	g.in("shr.u32 %s, %s, 1", s, g.ntid)
	loop, skip, done, exit := g.label(), g.label(), g.label(), g.label()
	g.mark(loop)
	p, q := g.p(), g.p()
	g.in("setp.eq.u32 %s, %s, 0", p, s)
	g.in("@%s bra %s", p, done)
	g.in("setp.ge.u32 %s, %s, %s", q, g.tid, s)
	g.in("@%s bra %s", q, skip)
	o := g.r()
	g.in("shl.b32 %s, %s, 4", o, s)
	g.in("add.u32 %s, %s, %s", o, o, slot)
	a, b := g.fresh4(), g.fresh4()
	g.in("ld.shared.v4.u32 %s, [%s+%d]", vec(a), slot, lowRed)
	g.in("ld.shared.v4.u32 %s, [%s+%d]", vec(b), o, lowRed)
	g.in("st.shared.v4.u32 [%s+%d], %s", slot, lowRed, vec(g.xor4(a, b)))
	g.mark(skip)
	g.in("bar.sync 0")
	g.in("shr.u32 %s, %s, 1", s, s)
	g.in("bra %s", loop)
	g.mark(done)
	z := g.p()
	g.in("setp.ne.u32 %s, %s, 0", z, g.tid)
	g.in("@%s bra %s", z, exit)
	t := g.fresh4()
	g.in("ld.shared.v4.u32 %s, [%s+%d]", vec(t), slot, lowRed)
	for j := range t {
		g.in("red.global.xor.b32 [%s+%d], %s", dst, 4*j, t[j])
	}
	g.mark(exit)
}
