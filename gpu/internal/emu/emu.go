// Package emu runs the PTX subset that package gpu generates, so that its
// tests check every generated kernel bit for bit against the CPU code
// without a GPU. Only tests import it: the library never links it.
//
// A thread block runs in lockstep, as warps do: each instruction executes
// for every thread at the same program counter, register by register over
// the threads. Threads whose branches diverge form groups, and the group at
// the lowest program counter runs first, so that the groups of a structured
// branch or loop meet again where it ends. The kernels share data between
// threads only across bar.sync, so this order gives the result of any
// other; a kernel that does not, whose thread reads or writes a shared
// word another thread wrote since the last barrier, faults, since lockstep
// would hide the race. Thread blocks run one after another. Loads and
// stores are checked against the allocations and their alignment, as a GPU
// faults.
package emu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Module is a parsed PTX module.
type Module struct {
	kernels map[string]*kernel

	// One launch at a time, reusing the block's state and the poison it
	// starts from: filling them afresh took most of a small launch.
	mu                   sync.Mutex
	regs, regsPoison     []uint64
	shared, sharedPoison []byte
	races                races
}

type kernel struct {
	params map[string]int // name -> index into the launch's arguments
	blob   string         // the one byte-array parameter, if any
	nregs  int
	pseudo []pseudoReg       // registers that hold operands other than registers
	shared map[string]uint32 // the dynamic shared array -> its address
	code   []inst
}

// SharedBase is where the dynamic shared memory starts in a block's shared
// window, as on a GPU that reserves the window's first kilobyte: the
// kernels must not assume it starts at 0.
const SharedBase = 1024

type instKind int

const (
	kindExec instKind = iota
	kindBranch
	kindBarrier
	kindReturn
)

type inst struct {
	text    string
	kind    instKind
	pred    int // register of the guard predicate, or -1
	negPred bool
	target  int // branch target
	exec    func(b *cta, act []int32)
}

// pseudoKind says what a pseudo register holds. Immediates, special
// registers and symbols compile to registers set at launch (ctaid for each
// block), so that every operand is a register.
type pseudoKind int

const (
	pseudoImm pseudoKind = iota
	pseudoTid
	pseudoNtid
	pseudoCtaid
	pseudoNctaid
)

type pseudoReg struct {
	kind pseudoKind
	v    uint64 // pseudoImm's value
	reg  int
}

// cta is the state of the thread block being run. Register r of thread t
// is regs[r*n+t].
type cta struct {
	n      int
	regs   []uint64
	shared []byte
	mem    *Memory
	args   []uint64
	blob   []byte
	races  *races
}

// races finds data races in shared memory, which lockstep execution would
// hide: for each 32-bit word, the thread that last wrote it and in which
// epoch, the span between two barriers. Epochs count on across blocks and
// launches, so that nothing needs clearing.
type races struct {
	epoch   uint32
	epochs  []uint32
	writers []int32
}

// next starts an epoch.
func (r *races) next() {
	r.epoch++
	if r.epoch == 0 { // wrapped: forget every write
		clear(r.epochs)
		r.epoch = 1
	}
}

// access records thread t's access of span bytes at a and faults if
// another thread wrote any of them in this epoch.
func (r *races) access(a, span uint64, t int32, write bool) {
	for w := a / 4; w < (a+span)/4; w++ {
		if r.epochs[w] == r.epoch && r.writers[w] != t {
			faultf("thread %d accesses shared word %#x, which thread %d wrote since the last barrier", t, 4*w, r.writers[w])
		}
		if write {
			r.epochs[w], r.writers[w] = r.epoch, t
		}
	}
}

// row returns register r of every thread.
func (b *cta) row(r int) []uint64 { return b.regs[r*b.n : (r+1)*b.n] }

// fault is raised (as a panic, recovered by Launch) on a bad access.
type fault struct{ msg string }

func faultf(format string, args ...any) { panic(fault{fmt.Sprintf(format, args...)}) }

// Parse parses a module made of package gpu's generated PTX.
func Parse(src string) (*Module, error) {
	m := &Module{kernels: map[string]*kernel{}}
	dynamic := "" // the module's .extern .shared array
	var lines []string
	for l := range strings.SplitSeq(src, "\n") {
		if i := strings.Index(l, "//"); i >= 0 {
			l = l[:i]
		}
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, ".visible .entry ") {
			if strings.HasPrefix(l, ".version") || strings.HasPrefix(l, ".target") || strings.HasPrefix(l, ".address_size") {
				continue
			}
			// .extern .shared .align A .b8 NAME[];
			if f := strings.Fields(strings.TrimSuffix(l, ";")); len(f) == 6 && f[0] == ".extern" && f[1] == ".shared" && strings.HasSuffix(f[5], "[]") {
				dynamic = strings.TrimSuffix(f[5], "[]")
				continue
			}
			return nil, fmt.Errorf("ptx: unexpected line %q", l)
		}
		name := strings.TrimSuffix(strings.TrimPrefix(l, ".visible .entry "), "(")
		k := &kernel{params: map[string]int{}, shared: map[string]uint32{}}
		if dynamic != "" {
			k.shared[dynamic] = SharedBase
		}
		for i++; i < len(lines) && lines[i] != ")"; i++ {
			f := strings.Fields(strings.TrimSuffix(lines[i], ","))
			switch {
			case len(f) == 3 && f[0] == ".param":
				k.params[f[2]] = len(k.params)
			case len(f) == 5 && f[0] == ".param" && f[1] == ".align" && f[3] == ".b8" && k.blob == "":
				// .param .align A .b8 NAME[SIZE]: the launch's byte array.
				k.blob, _, _ = strings.Cut(f[4], "[")
			default:
				return nil, fmt.Errorf("ptx: bad parameter %q", lines[i])
			}
		}
		for i++; i < len(lines) && lines[i] != "{"; i++ { // .maxntid and such
		}
		var body []string
		for i++; i < len(lines) && lines[i] != "}"; i++ {
			body = append(body, lines[i])
		}
		if err := k.compile(body); err != nil {
			return nil, fmt.Errorf("ptx: %s: %w", name, err)
		}
		m.kernels[name] = k
	}
	return m, nil
}

// Kernels returns the names of the module's kernels, sorted.
func (m *Module) Kernels() []string {
	var names []string
	for n := range m.kernels {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func (k *kernel) compile(body []string) error {
	labels := map[string]int{}
	var stmts []string
	for _, l := range body {
		switch {
		case strings.HasPrefix(l, ".reg"):
			continue // registers are numbered as they are met
		case strings.HasSuffix(l, ":"):
			labels[strings.TrimSuffix(l, ":")] = len(stmts)
		default:
			stmts = append(stmts, strings.TrimSuffix(l, ";"))
		}
	}
	regs, n := allocate(stmts, labels)
	c := &compiler{k: k, n: n, regs: regs, pseudo: map[pseudoReg]int{}, imms: map[int]uint64{}, labels: labels}
	for _, s := range stmts {
		in, err := c.inst(s)
		if err != nil {
			return fmt.Errorf("%q: %w", s, err)
		}
		k.code = append(k.code, in)
	}
	k.nregs = c.n
	return nil
}

var regToken = regexp.MustCompile(`%(r|rd|p)[0-9]+\b`)

// allocate maps the registers of stmts to rows, sharing a row between
// registers whose live ranges are disjoint: package gpu names a register
// for every value, tens of thousands in a bitsliced kernel, which as rows
// would be megabytes to poison and to keep in cache for every thread block.
// A register lives from its first to its last appearance, and over the
// whole of a loop (a span from a label to a branch back to it) in which
// its first appearance reads it: a value carried from one iteration to
// the next. A guarded write reads too (the threads it leaves keep the old
// value). Two registers share a row only if one's range ends strictly
// before the other's begins.
func allocate(stmts []string, labels map[string]int) (map[string]int, int) {
	type span struct {
		first, last int
		name        string
	}
	spans := map[string]*span{}
	type occ struct {
		name string
		read bool
	}
	occs := make([][]occ, len(stmts))
	for i, s := range stmts {
		guarded := strings.HasPrefix(s, "@")
		body := s
		if guarded {
			_, body, _ = strings.Cut(s, " ")
		}
		opcode, rest, _ := strings.Cut(body, " ")
		dst := ""
		switch strings.Split(opcode, ".")[0] {
		case "st", "red", "bra", "bar", "ret":
		default:
			dst = operands(rest)[0]
		}
		// The registers read: all but one appearance of each written one,
		// unless the write is guarded.
		all := regToken.FindAllString(s, -1)
		written := regToken.FindAllString(dst, -1)
		read := map[string]bool{}
		for _, name := range all {
			if i := slices.Index(written, name); i >= 0 && !guarded {
				written = slices.Delete(written, i, i+1)
				continue
			}
			read[name] = true
		}
		for _, name := range all {
			if slices.ContainsFunc(occs[i], func(o occ) bool { return o.name == name }) {
				continue
			}
			occs[i] = append(occs[i], occ{name, read[name]})
			sp := spans[name]
			if sp == nil {
				sp = &span{first: i, name: name}
				spans[name] = sp
			}
			sp.last = i
		}
	}
	// Loops: a branch at b back to the label at l <= b.
	for b, s := range stmts {
		f := strings.Fields(s)
		if len(f) > 0 && strings.HasPrefix(f[0], "@") {
			f = f[1:]
		}
		if len(f) != 2 || f[0] != "bra" {
			continue
		}
		l, ok := labels[f[1]]
		if !ok || l > b {
			continue
		}
		seen := map[string]bool{}
		for i := l; i <= b; i++ {
			for _, o := range occs[i] {
				if !seen[o.name] && o.read {
					sp := spans[o.name]
					sp.first, sp.last = min(sp.first, l), max(sp.last, b)
				}
				seen[o.name] = true
			}
		}
	}
	order := make([]*span, 0, len(spans))
	for _, sp := range spans {
		order = append(order, sp)
	}
	slices.SortFunc(order, func(x, y *span) int {
		if x.first != y.first {
			return x.first - y.first
		}
		return strings.Compare(x.name, y.name)
	})
	rows := map[string]int{}
	var ends []int // the last appearance of each row's current register
	for _, sp := range order {
		row := slices.IndexFunc(ends, func(e int) bool { return e < sp.first })
		if row < 0 {
			row = len(ends)
			ends = append(ends, 0)
		}
		ends[row] = sp.last
		rows[sp.name] = row
	}
	return rows, len(ends)
}

type compiler struct {
	k      *kernel
	n      int // registers so far
	regs   map[string]int
	pseudo map[pseudoReg]int // by kind and value, reg 0
	imms   map[int]uint64    // the immediates' registers -> their values
	labels map[string]int
}

func (c *compiler) reg(name string) (int, error) {
	if !strings.HasPrefix(name, "%r") && !strings.HasPrefix(name, "%p") {
		return 0, fmt.Errorf("not a register: %q", name)
	}
	r, ok := c.regs[name]
	if !ok {
		r = c.n
		c.n++
		c.regs[name] = r
	}
	return r, nil
}

func (c *compiler) pseudoReg(kind pseudoKind, v uint64) int {
	key := pseudoReg{kind: kind, v: v}
	r, ok := c.pseudo[key]
	if !ok {
		r = c.n
		c.n++
		c.pseudo[key] = r
		key.reg = r
		c.k.pseudo = append(c.k.pseudo, key)
		if kind == pseudoImm {
			c.imms[r] = v
		}
	}
	return r
}

// imm returns the value of register r if it holds an immediate.
func (c *compiler) imm(r int) (uint64, bool) {
	v, ok := c.imms[r]
	return v, ok
}

// value compiles a source operand: a register, an immediate, a special
// register or a shared symbol's address.
func (c *compiler) value(s string) (int, error) {
	switch s {
	case "%tid.x":
		return c.pseudoReg(pseudoTid, 0), nil
	case "%ntid.x":
		return c.pseudoReg(pseudoNtid, 0), nil
	case "%ctaid.x":
		return c.pseudoReg(pseudoCtaid, 0), nil
	case "%nctaid.x":
		return c.pseudoReg(pseudoNctaid, 0), nil
	}
	if strings.HasPrefix(s, "%") {
		return c.reg(s)
	}
	if off, ok := c.k.shared[s]; ok {
		return c.pseudoReg(pseudoImm, uint64(off)), nil
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("bad operand %q", s)
	}
	return c.pseudoReg(pseudoImm, uint64(v)), nil
}

// address is a compiled memory operand: a parameter's value, an offset in
// the byte-array parameter, or a register plus an offset.
type address struct {
	param  int // index of the argument, or -1
	inBlob bool
	reg    int // -1 for none
	off    uint64
}

// address compiles [reg], [reg+imm], [param] or [blob+imm].
func (c *compiler) address(s string) (address, error) {
	a := address{param: -1, reg: -1}
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return a, fmt.Errorf("bad address %q", s)
	}
	s = s[1 : len(s)-1]
	if p, ok := c.k.params[s]; ok {
		a.param = p
		return a, nil
	}
	if i := strings.IndexByte(s, '+'); i >= 0 {
		off, err := strconv.ParseInt(s[i+1:], 0, 64)
		if err != nil {
			return a, fmt.Errorf("bad offset in %q", s)
		}
		s, a.off = s[:i], uint64(off)
	}
	if s == c.k.blob && s != "" {
		a.inBlob = true
		return a, nil
	}
	var err error
	a.reg, err = c.reg(s)
	return a, err
}

func (c *compiler) vector(s string) ([]int, error) {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return nil, fmt.Errorf("bad vector %q", s)
	}
	var rs []int
	for f := range strings.SplitSeq(s[1:len(s)-1], ",") {
		r, err := c.reg(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// operands splits "a, {b, c}, [d+1]" at the top-level commas.
func operands(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := range len(s) {
		switch s[i] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	if t := strings.TrimSpace(s[start:]); t != "" {
		out = append(out, t)
	}
	return out
}

func (c *compiler) inst(s string) (inst, error) {
	in := inst{text: s, pred: -1}
	if strings.HasPrefix(s, "@") {
		sp := strings.IndexByte(s, ' ')
		if sp < 0 {
			return in, errors.New("guard without instruction")
		}
		p := s[1:sp]
		if in.negPred = strings.HasPrefix(p, "!"); in.negPred {
			p = p[1:]
		}
		r, err := c.reg(p)
		if err != nil {
			return in, err
		}
		in.pred, s = r, strings.TrimSpace(s[sp+1:])
	}
	opcode, rest, _ := strings.Cut(s, " ")
	ops := operands(rest)
	parts := strings.Split(opcode, ".")
	switch parts[0] {
	case "ret":
		in.kind = kindReturn
		return in, nil
	case "bar":
		in.kind = kindBarrier
		return in, nil
	case "bra":
		t, ok := c.labels[rest]
		if !ok {
			return in, fmt.Errorf("unknown label %q", rest)
		}
		in.kind, in.target = kindBranch, t
		return in, nil
	case "ld", "st", "red":
		var err error
		in.exec, err = c.memory(parts, ops)
		return in, err
	}
	if len(ops) < 2 {
		return in, errors.New("too few operands")
	}
	d, err := c.reg(ops[0])
	if err != nil {
		return in, err
	}
	src := make([]int, len(ops)-1)
	for i, o := range ops[1:] {
		if src[i], err = c.value(o); err != nil {
			return in, err
		}
	}
	in.exec, err = c.arith(opcode, parts, d, src)
	return in, err
}

// arith compiles an instruction that computes register d from the
// registers src, each thread on its own. 32-bit results are zero-extended.
func (c *compiler) arith(opcode string, parts []string, d int, src []int) (func(*cta, []int32), error) {
	typ := parts[len(parts)-1]
	m := ^uint64(0)
	if strings.HasSuffix(typ, "32") {
		m = 0xffffffff
	}
	want := func(n int) error {
		if len(src) != n {
			return fmt.Errorf("want %d operands", n+1)
		}
		return nil
	}
	rm := m // the result's
	if opcode == "mul.wide.u32" {
		rm = ^uint64(0)
	}
	a := src[0]
	// un and bin apply f over the threads; the operations that one call
	// per thread would slow down most have loops of their own below.
	un := func(f func(x uint64) uint64) (func(*cta, []int32), error) {
		if err := want(1); err != nil {
			return nil, err
		}
		return func(b *cta, act []int32) {
			D, A := b.row(d), b.row(a)
			for _, t := range act {
				D[t] = f(A[t])
			}
		}, nil
	}
	bin := func(f func(x, y uint64) uint64) (func(*cta, []int32), error) {
		if err := want(2); err != nil {
			return nil, err
		}
		s := src[1]
		return func(b *cta, act []int32) {
			D, A, B := b.row(d), b.row(a), b.row(s)
			for _, t := range act {
				D[t] = f(A[t]&m, B[t]&m) & rm
			}
		}, nil
	}
	switch parts[0] {
	case "mov", "cvta":
		if err := want(1); err != nil {
			return nil, err
		}
		return func(b *cta, act []int32) {
			D, A := b.row(d), b.row(a)
			for _, t := range act {
				D[t] = A[t] & m
			}
		}, nil
	case "cvt": // cvt.u64.u32 and cvt.u32.u64: zero extension or truncation
		return un(func(x uint64) uint64 { return x & 0xffffffff })
	case "xor", "and", "or", "add":
		if err := want(2); err != nil {
			return nil, err
		}
		s := src[1]
		switch parts[0] {
		case "xor":
			return func(b *cta, act []int32) {
				D, A, B := b.row(d), b.row(a), b.row(s)
				for _, t := range act {
					D[t] = (A[t] ^ B[t]) & m
				}
			}, nil
		case "and":
			return func(b *cta, act []int32) {
				D, A, B := b.row(d), b.row(a), b.row(s)
				for _, t := range act {
					D[t] = A[t] & B[t] & m
				}
			}, nil
		case "or":
			return func(b *cta, act []int32) {
				D, A, B := b.row(d), b.row(a), b.row(s)
				for _, t := range act {
					D[t] = (A[t] | B[t]) & m
				}
			}, nil
		default:
			return func(b *cta, act []int32) {
				D, A, B := b.row(d), b.row(a), b.row(s)
				for _, t := range act {
					D[t] = (A[t] + B[t]) & m
				}
			}, nil
		}
	case "sub":
		return bin(func(x, y uint64) uint64 { return x - y })
	case "min":
		if typ[0] != 'u' {
			return nil, errors.New("only unsigned min")
		}
		return bin(func(x, y uint64) uint64 { return min(x, y) })
	case "neg":
		return un(func(x uint64) uint64 { return -x & m })
	case "shl", "shr":
		if parts[0] == "shr" && parts[1][0] != 'u' && parts[1][0] != 'b' {
			return nil, errors.New("only unsigned shifts")
		}
		left := parts[0] == "shl"
		if err := want(2); err != nil {
			return nil, err
		}
		if k, ok := c.imm(src[1]); ok && k < 64 {
			// The common case, a constant count: one loop of its own.
			if left {
				return func(b *cta, act []int32) {
					D, A := b.row(d), b.row(a)
					for _, t := range act {
						D[t] = A[t] << k & m
					}
				}, nil
			}
			return func(b *cta, act []int32) {
				D, A := b.row(d), b.row(a)
				for _, t := range act {
					D[t] = (A[t] & m) >> k
				}
			}, nil
		}
		return bin(func(x, y uint64) uint64 {
			if y >= 64 {
				return 0
			}
			if left {
				return x << y
			}
			return x >> y
		})
	case "mul":
		if opcode != "mul.lo.u32" && opcode != "mul.wide.u32" {
			return nil, errors.New("unsupported multiplication")
		}
		return bin(func(x, y uint64) uint64 { return x * y })
	case "mad":
		if opcode != "mad.lo.u32" || want(3) != nil {
			return nil, errors.New("unsupported mad")
		}
		s, u := src[1], src[2]
		return func(b *cta, act []int32) {
			D, A, B, C := b.row(d), b.row(a), b.row(s), b.row(u)
			for _, t := range act {
				D[t] = (A[t]*B[t] + C[t]) & 0xffffffff
			}
		}, nil
	case "prmt":
		if opcode != "prmt.b32" || want(3) != nil {
			return nil, errors.New("unsupported prmt")
		}
		s, sel := src[1], src[2]
		if v, ok := c.imm(sel); ok && v&0x8888 == 0 {
			// A constant selector without sign replication: four shifts.
			var sh [4]uint64
			for i := range sh {
				sh[i] = 8 * (v >> (4 * i) & 7)
			}
			return func(b *cta, act []int32) {
				D, A, B := b.row(d), b.row(a), b.row(s)
				for _, t := range act {
					x := B[t]<<32 | A[t]&0xffffffff
					D[t] = x>>sh[0]&0xff | (x>>sh[1]&0xff)<<8 | (x>>sh[2]&0xff)<<16 | (x>>sh[3]&0xff)<<24
				}
			}, nil
		}
		return func(b *cta, act []int32) {
			D, A, B, S := b.row(d), b.row(a), b.row(s), b.row(sel)
			for _, t := range act {
				D[t] = prmt(A[t], B[t], S[t])
			}
		}, nil
	case "lop3":
		// lop3.b32 d, a, b, c, immLut: bit i of d is bit (a_i<<2 |
		// b_i<<1 | c_i) of immLut.
		if opcode != "lop3.b32" || want(4) != nil {
			return nil, errors.New("unsupported lop3")
		}
		lut, ok := c.imm(src[3])
		if !ok || lut > 0xff {
			return nil, errors.New("lop3 wants an 8-bit constant table")
		}
		s, u := src[1], src[2]
		// The tables package gpu's circuits use most have loops of their
		// own.
		var f func(D, A, B, C []uint64, act []int32)
		switch lut {
		case 0x96: // a ^ b ^ c
			f = func(D, A, B, C []uint64, act []int32) {
				for _, t := range act {
					D[t] = (A[t] ^ B[t] ^ C[t]) & 0xffffffff
				}
			}
		case 0xe4: // a&c | b&^c
			f = func(D, A, B, C []uint64, act []int32) {
				for _, t := range act {
					D[t] = (A[t]&C[t] | B[t]&^C[t]) & 0xffffffff
				}
			}
		case 0x6a: // a&b ^ c
			f = func(D, A, B, C []uint64, act []int32) {
				for _, t := range act {
					D[t] = (A[t]&B[t] ^ C[t]) & 0xffffffff
				}
			}
		case 0x78: // a ^ b&c
			f = func(D, A, B, C []uint64, act []int32) {
				for _, t := range act {
					D[t] = (A[t] ^ B[t]&C[t]) & 0xffffffff
				}
			}
		default:
			f = func(D, A, B, C []uint64, act []int32) {
				for _, t := range act {
					D[t] = lop3(A[t], B[t], C[t], lut)
				}
			}
		}
		return func(b *cta, act []int32) { f(b.row(d), b.row(a), b.row(s), b.row(u), act) }, nil
	case "bfe":
		if (opcode != "bfe.s32" && opcode != "bfe.u32") || want(3) != nil {
			return nil, errors.New("unsupported bfe")
		}
		signed, s, u := opcode == "bfe.s32", src[1], src[2]
		return func(b *cta, act []int32) {
			D, A, B, C := b.row(d), b.row(a), b.row(s), b.row(u)
			for _, t := range act {
				D[t] = bfe32(A[t], B[t], C[t], signed)
			}
		}, nil
	case "bfind":
		if opcode != "bfind.u32" {
			return nil, errors.New("unsupported bfind")
		}
		return un(func(x uint64) uint64 { return uint64(uint32(bits.Len32(uint32(x)) - 1)) })
	case "setp":
		if typ[0] != 'u' {
			return nil, errors.New("only unsigned comparisons")
		}
		if err := want(2); err != nil {
			return nil, err
		}
		s := src[1]
		var f func(D, A, B []uint64, act []int32)
		switch parts[1] {
		case "eq":
			f = func(D, A, B []uint64, act []int32) {
				for _, t := range act {
					D[t] = b2u(A[t]&m == B[t]&m)
				}
			}
		case "ne":
			f = func(D, A, B []uint64, act []int32) {
				for _, t := range act {
					D[t] = b2u(A[t]&m != B[t]&m)
				}
			}
		case "lt":
			f = func(D, A, B []uint64, act []int32) {
				for _, t := range act {
					D[t] = b2u(A[t]&m < B[t]&m)
				}
			}
		case "ge":
			f = func(D, A, B []uint64, act []int32) {
				for _, t := range act {
					D[t] = b2u(A[t]&m >= B[t]&m)
				}
			}
		default:
			return nil, errors.New("unsupported comparison")
		}
		return func(b *cta, act []int32) { f(b.row(d), b.row(a), b.row(s), act) }, nil
	}
	return nil, fmt.Errorf("unsupported instruction %q", opcode)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// bfe32 is bfe.u32 or bfe.s32: the len bits of a from bit pos (both taken
// from their operand's low byte), and above them 0, or for bfe.s32 the
// field's top bit (bit 31 where the field passes it; 0 when len is 0).
func bfe32(a, pos, length uint64, signed bool) uint64 {
	pos, length = pos&0xff, length&0xff
	var sbit uint64
	if signed && length != 0 {
		sbit = a >> min(pos+length-1, 31) & 1
	}
	var d uint64
	for i := range uint64(32) {
		v := sbit
		if i < length && pos+i <= 31 {
			v = a >> (pos + i) & 1
		}
		d |= v << i
	}
	return d
}

// lop3 is lop3.b32 of x, y and z with the table lut: bit i of the result
// is bit x_i<<2 | y_i<<1 | z_i of lut, here the OR of the minterms lut
// sets.
func lop3(x, y, z, lut uint64) uint64 {
	m := func(i uint) uint64 { return -(lut >> i & 1) }
	xy, xny, nxy, nxny := x&y, x&^y, y&^x, ^(x | y)
	f1 := xy&m(7) | xny&m(5) | nxy&m(3) | nxny&m(1) // z set
	f0 := xy&m(6) | xny&m(4) | nxy&m(2) | nxny&m(0)
	return (z&f1 | ^z&f0) & 0xffffffff
}

// prmt is prmt.b32: bytes of the pair (y:x) picked by the selector's four
// nibbles, a nibble's bit 3 replicating the byte's sign.
func prmt(x, y, sel uint64) uint64 {
	v := (y&0xffffffff)<<32 | x&0xffffffff
	var r uint64
	for i := range 4 {
		n := sel >> (4 * i) & 0xf
		b := v >> (8 * (n & 7)) & 0xff
		if n&8 != 0 {
			b = 0xff * (b >> 7)
		}
		r |= b << (8 * i)
	}
	return r
}

// memory compiles ld, st and red: ld.SPACE[.v4].TYPE d, [a];
// st.SPACE[.v4].TYPE [a], v; red.global.xor.b32 [a], v.
func (c *compiler) memory(parts, ops []string) (func(*cta, []int32), error) {
	// ld.global.nc reads through the non-coherent cache: the same here.
	if len(parts) > 2 && parts[0] == "ld" && parts[1] == "global" && parts[2] == "nc" {
		parts = slices.Delete(slices.Clone(parts), 2, 3)
	}
	if len(ops) != 2 || len(parts) < 3 {
		return nil, errors.New("bad memory instruction")
	}
	space, typ := parts[1], parts[len(parts)-1]
	size := 4
	if strings.HasSuffix(typ, "64") {
		size = 8
	}
	lanes := 1
	if parts[2] == "v4" {
		lanes = 4
	}
	addrOp, dataOp := ops[1], ops[0]
	if parts[0] != "ld" {
		addrOp, dataOp = ops[0], ops[1]
	}
	ad, err := c.address(addrOp)
	if err != nil {
		return nil, err
	}
	var regs []int
	if lanes == 4 {
		if regs, err = c.vector(dataOp); err != nil {
			return nil, err
		}
	} else {
		r, err := c.reg(dataOp)
		if err != nil {
			return nil, err
		}
		regs = []int{r}
	}
	if space == "param" {
		if parts[0] != "ld" || lanes != 1 {
			return nil, errors.New("param space is read-only and scalar")
		}
		// The value is the same for every thread.
		r, mask := regs[0], uint64(1)<<(8*size)-1
		var get func(b *cta) uint64
		switch {
		case ad.inBlob:
			get = func(b *cta) uint64 {
				a := ad.off
				if a%uint64(size) != 0 || a+uint64(size) > uint64(len(b.blob)) {
					faultf("parameter access of %d bytes at %d out of range or misaligned", size, a)
				}
				var v [8]byte
				copy(v[:], b.blob[a:a+uint64(size)])
				return binary.LittleEndian.Uint64(v[:])
			}
		case ad.param >= 0:
			get = func(b *cta) uint64 { return b.args[ad.param] & mask }
		default:
			return nil, errors.New("bad parameter address")
		}
		return func(b *cta, act []int32) {
			v, D := get(b), b.row(r)
			for _, t := range act {
				D[t] = v
			}
		}, nil
	}
	if ad.reg < 0 {
		return nil, errors.New("memory address without a register")
	}
	span := uint64(size * lanes)
	var shared bool
	switch space {
	case "global":
	case "shared":
		shared = true
	default:
		return nil, fmt.Errorf("unsupported state space %q", space)
	}
	op := strings.Join(parts, ".")
	switch {
	case parts[0] == "ld" && shared && span == 4:
		// The table lookups, most of the kernels' work: the checks of at
		// and races.access inline, which fault through them.
		d := regs[0]
		return func(b *cta, act []int32) {
			A, D, sh, r := b.row(ad.reg), b.row(d), b.shared, b.races
			for _, t := range act {
				a := A[t] + ad.off
				if a&3 != 0 || a < SharedBase || a+4 > uint64(len(sh)) || r.epochs[a/4] == r.epoch && r.writers[a/4] != t {
					b.at(true, a, span)
					r.access(a, span, t, false)
				}
				D[t] = uint64(binary.LittleEndian.Uint32(sh[a:]))
			}
		}, nil
	case parts[0] == "ld" || parts[0] == "st":
		write := parts[0] == "st"
		return func(b *cta, act []int32) {
			A := b.row(ad.reg)
			var rows [4][]uint64
			for i, r := range regs {
				rows[i] = b.row(r)
			}
			for _, t := range act {
				a := A[t] + ad.off
				p := b.at(shared, a, span)
				if shared {
					b.races.access(a, span, t, write)
				}
				for i := range regs {
					if write {
						store(p[i*size:], size, rows[i][t])
					} else {
						rows[i][t] = load(p[i*size:], size)
					}
				}
			}
		}, nil
	case op == "red.global.xor.b32":
		r := regs[0]
		return func(b *cta, act []int32) {
			A, V := b.row(ad.reg), b.row(r)
			for _, t := range act {
				p := b.at(false, A[t]+ad.off, span)
				store(p, size, load(p, size)^V[t])
			}
		}, nil
	}
	return nil, errors.New("unsupported memory instruction")
}

// at returns the span bytes (a power of two) at a in shared or global
// memory, faulting where a GPU would.
func (b *cta) at(shared bool, a, span uint64) []byte {
	if a&(span-1) != 0 {
		faultf("access of %d bytes at %#x misaligned", span, a)
	}
	if !shared {
		return b.mem.slice(a, int(span))
	}
	if a < SharedBase || a+span > uint64(len(b.shared)) {
		faultf("shared access of %d bytes at %#x out of range", span, a)
	}
	return b.shared[a : a+span]
}

// load returns the little-endian word of size bytes at p.
func load(p []byte, size int) uint64 {
	if size == 8 {
		return binary.LittleEndian.Uint64(p)
	}
	return uint64(binary.LittleEndian.Uint32(p))
}

func store(p []byte, size int, v uint64) {
	if size == 8 {
		binary.LittleEndian.PutUint64(p, v)
	} else {
		binary.LittleEndian.PutUint32(p, uint32(v))
	}
}

// maxSteps bounds the instructions one thread block runs, to end a kernel
// that loops forever.
const maxSteps = 1 << 28

// group is threads at the same program counter.
type group struct {
	pc      int
	threads []int32
}

// Launch runs kernel name on a grid of grid blocks of block threads with
// dynamic bytes of dynamic shared memory; blob is the byte-array parameter.
// A bad access ends the launch with an error.
func (m *Module) Launch(mem *Memory, name string, grid, block, dynamic int, args []uint64, blob []byte) (err error) {
	k, ok := m.kernels[name]
	if !ok {
		return fmt.Errorf("ptx: no kernel %q", name)
	}
	if len(args) != len(k.params) {
		return fmt.Errorf("ptx: %s takes %d arguments, got %d", name, len(k.params), len(args))
	}
	if grid <= 0 || block <= 0 {
		return fmt.Errorf("ptx: %s: empty grid", name)
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(fault)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("ptx: %s: %s", name, f.msg)
		}
	}()
	// The thread blocks run one after another, so they share one shared
	// memory and one set of registers, poisoned between blocks: a kernel
	// that reads what it did not write gets garbage, as on a GPU.
	m.mu.Lock()
	defer m.mu.Unlock()
	b := &cta{n: block, mem: mem, args: args, blob: blob}
	b.regs, m.regs, m.regsPoison = grow(m.regs, m.regsPoison, k.nregs*block, 0xa5a5a5a5a5a5a5a5)
	b.shared, m.shared, m.sharedPoison = grow(m.shared, m.sharedPoison, SharedBase+dynamic, 0xa5)
	if words := len(b.shared) / 4; len(m.races.epochs) < words {
		m.races.epochs = make([]uint32, words)
		m.races.writers = make([]int32, words)
	}
	b.races = &m.races
	all := make([]int32, block)
	for i := range all {
		all[i] = int32(i)
	}
	scratch := make([]int32, block)
	for ctaid := range grid {
		copy(b.shared, m.sharedPoison)
		b.races.next()
		copy(b.regs, m.regsPoison)
		for _, p := range k.pseudo {
			row := b.row(p.reg)
			for t := range row {
				switch p.kind {
				case pseudoImm:
					row[t] = p.v
				case pseudoTid:
					row[t] = uint64(t)
				case pseudoNtid:
					row[t] = uint64(block)
				case pseudoCtaid:
					row[t] = uint64(ctaid)
				case pseudoNctaid:
					row[t] = uint64(grid)
				}
			}
		}
		k.run(b, ctaid, slices.Clone(all), scratch)
	}
	return nil
}

// grow returns n elements of buf, and buf and poison (as long, every
// element v) grown to hold them.
func grow[T any](buf, poison []T, n int, v T) (s, newBuf, newPoison []T) {
	if len(buf) < n {
		buf = make([]T, n)
		poison = make([]T, n)
		for i := range poison {
			poison[i] = v
		}
	}
	return buf[:n], buf, poison
}

// run runs one thread block to its end.
func (k *kernel) run(b *cta, ctaid int, all, scratch []int32) {
	groups := []group{{0, all}}
	var waiting []group // at a barrier
	for steps := 0; ; steps++ {
		if len(groups) == 0 {
			if len(waiting) == 0 {
				return
			}
			// Every thread that has not returned is at a barrier.
			for _, g := range waiting {
				groups = join(groups, g)
			}
			waiting = waiting[:0]
			b.races.next()
		}
		gi := 0
		for i := range groups {
			if groups[i].pc < groups[gi].pc {
				gi = i
			}
		}
		g := &groups[gi]
		if steps > maxSteps || g.pc >= len(k.code) {
			faultf("block %d ran away", ctaid)
		}
		in := &k.code[g.pc]
		act := g.threads
		if in.pred >= 0 {
			P := b.row(in.pred)
			act = scratch[:0]
			for _, t := range g.threads {
				if (P[t] != 0) != in.negPred {
					act = append(act, t)
				}
			}
		}
		switch in.kind {
		case kindExec:
			if len(act) > 0 {
				in.exec(b, act)
			}
			g.pc++
		case kindBranch:
			switch {
			case len(act) == len(g.threads):
				g.pc = in.target
			case len(act) == 0:
				g.pc++
			default:
				// Split: the taken threads leave the group.
				taken := group{in.target, slices.Clone(act)}
				P, rest := b.row(in.pred), g.threads[:0]
				for _, t := range g.threads {
					if (P[t] != 0) == in.negPred {
						rest = append(rest, t)
					}
				}
				g.threads = rest
				g.pc++
				groups = join(groups, taken)
			}
		case kindBarrier, kindReturn:
			if len(act) != len(g.threads) {
				faultf("block %d: %q under a divergent guard", ctaid, in.text)
			}
			if in.kind == kindBarrier {
				waiting = append(waiting, group{g.pc + 1, g.threads})
			}
			groups = slices.Delete(groups, gi, gi+1)
			continue
		}
		// Merge the group that moved with any other at its new counter.
		moved := groups[gi]
		for i := range groups {
			if i != gi && groups[i].pc == moved.pc {
				groups[i].threads = append(groups[i].threads, moved.threads...)
				groups = slices.Delete(groups, gi, gi+1)
				break
			}
		}
	}
}

// join adds g to groups, merging it with a group at the same counter.
func join(groups []group, g group) []group {
	for i := range groups {
		if groups[i].pc == g.pc {
			groups[i].threads = append(groups[i].threads, g.threads...)
			return groups
		}
	}
	return append(groups, g)
}

// Memory is the emulated device's global memory: allocations at distinct,
// 256-byte aligned addresses with gaps between them.
type Memory struct {
	bases []uint64 // sorted, as allocated
	bufs  [][]byte
	next  uint64
	last  int // the allocation of the latest access
}

// NewMemory returns an empty memory.
func NewMemory() *Memory { return &Memory{next: 1 << 32} }

// Alloc returns the address of n new bytes.
func (m *Memory) Alloc(n int) uint64 {
	p := m.next
	m.next += (uint64(n) + 4096 + 255) &^ 255
	m.bases = append(m.bases, p)
	m.bufs = append(m.bufs, make([]byte, n))
	return p
}

// Free frees the allocation at a.
func (m *Memory) Free(a uint64) error {
	i, ok := slices.BinarySearch(m.bases, a)
	if !ok {
		return fmt.Errorf("emu: free of %#x, not an allocation", a)
	}
	m.bases = slices.Delete(m.bases, i, i+1)
	m.bufs = slices.Delete(m.bufs, i, i+1)
	m.last = 0
	return nil
}

// Allocations returns the number of allocations not freed.
func (m *Memory) Allocations() int { return len(m.bases) }

// Slice returns the n bytes at a, which must lie in one allocation.
func (m *Memory) Slice(a uint64, n int) (s []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(fault)
			if !ok {
				panic(r)
			}
			err = errors.New("emu: " + f.msg)
		}
	}()
	return m.slice(a, n), nil
}

func (m *Memory) slice(a uint64, n int) []byte {
	i := m.last
	if i >= len(m.bases) || a < m.bases[i] || a-m.bases[i]+uint64(n) > uint64(len(m.bufs[i])) {
		j, found := slices.BinarySearch(m.bases, a)
		if !found {
			j--
		}
		i = j
	}
	if i >= 0 {
		b := m.bufs[i]
		if off := a - m.bases[i]; off+uint64(n) <= uint64(len(b)) {
			m.last = i
			return b[off : off+uint64(n)]
		}
	}
	faultf("global access of %d bytes at %#x outside any allocation", n, a)
	return nil
}
