package gpu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"strings"
)

// The emulator runs the PTX subset that ptx.go emits, so that tests check
// every generated kernel bit for bit against the CPU code without a GPU.
// It runs a grid deterministically: thread blocks one after another, and
// the threads of a block one after another between barriers (the kernels
// share data between threads only across bar.sync). Loads and stores are
// checked against the allocations and their alignment, as a GPU faults.

// emuModule is a parsed PTX module.
type emuModule struct {
	kernels map[string]*emuKernel
}

type emuKernel struct {
	params map[string]int // name -> index into the launch's arguments
	blob   string         // the one byte-array parameter, if any
	nregs  int
	shared map[string]uint32 // the dynamic shared array -> its address
	code   []emuInst
}

// emuSharedBase is where the dynamic shared memory starts in a block's
// shared window, as on a GPU that reserves the window's first kilobyte:
// the kernels must not assume it starts at 0.
const emuSharedBase = 1024

type instKind int

const (
	kindExec instKind = iota
	kindBranch
	kindBarrier
	kindReturn
)

type emuInst struct {
	text    string
	kind    instKind
	pred    int // register index of the guard predicate, or -1
	negPred bool
	target  int // branch target
	exec    func(t *emuThread)
}

type emuThread struct {
	regs                    []uint64
	pc                      int
	done                    bool
	tid, ntid, ctaid, nctid uint32
	args                    []uint64
	blob                    []byte
	shared                  []byte
	mem                     *emuMemory
}

// emuFault is raised (as a panic, recovered by launch) on a bad access.
type emuFault struct{ msg string }

func fault(format string, args ...any) { panic(emuFault{fmt.Sprintf(format, args...)}) }

// parsePTX parses a module made of generate's output.
func parsePTX(src string) (*emuModule, error) {
	m := &emuModule{kernels: map[string]*emuKernel{}}
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
		k := &emuKernel{params: map[string]int{}, shared: map[string]uint32{}}
		if dynamic != "" {
			k.shared[dynamic] = emuSharedBase
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

func (k *emuKernel) compile(body []string) error {
	regs := map[string]int{}
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
	c := &compiler{k: k, regs: regs, labels: labels}
	for _, s := range stmts {
		in, err := c.inst(s)
		if err != nil {
			return fmt.Errorf("%q: %w", s, err)
		}
		k.code = append(k.code, in)
	}
	k.nregs = len(regs)
	return nil
}

type compiler struct {
	k      *emuKernel
	regs   map[string]int
	labels map[string]int
}

func (c *compiler) reg(name string) (int, error) {
	if !strings.HasPrefix(name, "%r") && !strings.HasPrefix(name, "%p") {
		return 0, fmt.Errorf("not a register: %q", name)
	}
	r, ok := c.regs[name]
	if !ok {
		r = len(c.regs)
		c.regs[name] = r
	}
	return r, nil
}

// value compiles a source operand: a register, an immediate, a special
// register or a shared symbol's address.
func (c *compiler) value(s string) (func(t *emuThread) uint64, error) {
	switch s {
	case "%tid.x":
		return func(t *emuThread) uint64 { return uint64(t.tid) }, nil
	case "%ntid.x":
		return func(t *emuThread) uint64 { return uint64(t.ntid) }, nil
	case "%ctaid.x":
		return func(t *emuThread) uint64 { return uint64(t.ctaid) }, nil
	case "%nctaid.x":
		return func(t *emuThread) uint64 { return uint64(t.nctid) }, nil
	}
	if strings.HasPrefix(s, "%") {
		r, err := c.reg(s)
		if err != nil {
			return nil, err
		}
		return func(t *emuThread) uint64 { return t.regs[r] }, nil
	}
	if off, ok := c.k.shared[s]; ok {
		return func(*emuThread) uint64 { return uint64(off) }, nil
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return nil, fmt.Errorf("bad operand %q", s)
	}
	return func(*emuThread) uint64 { return uint64(v) }, nil
}

// address compiles [reg], [reg+imm], [param] or [blob+imm]; for the blob
// it returns the offset in it.
func (c *compiler) address(s string) (func(t *emuThread) uint64, error) {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("bad address %q", s)
	}
	s = s[1 : len(s)-1]
	if p, ok := c.k.params[s]; ok {
		return func(t *emuThread) uint64 { return t.args[p] }, nil
	}
	var off int64
	if i := strings.IndexByte(s, '+'); i >= 0 {
		var err error
		if off, err = strconv.ParseInt(s[i+1:], 0, 64); err != nil {
			return nil, fmt.Errorf("bad offset in %q", s)
		}
		s = s[:i]
	}
	if s == c.k.blob {
		return func(*emuThread) uint64 { return uint64(off) }, nil
	}
	r, err := c.reg(s)
	if err != nil {
		return nil, err
	}
	return func(t *emuThread) uint64 { return t.regs[r] + uint64(off) }, nil
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

func (c *compiler) inst(s string) (emuInst, error) {
	in := emuInst{text: s, pred: -1}
	if strings.HasPrefix(s, "@") {
		sp := strings.IndexByte(s, ' ')
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
	want := func(n int) error {
		if len(ops) != n {
			return fmt.Errorf("want %d operands", n)
		}
		return nil
	}
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
		return c.memory(in, parts, ops)
	}
	if len(ops) < 2 {
		return in, errors.New("too few operands")
	}
	d, err := c.reg(ops[0])
	if err != nil {
		return in, err
	}
	src := make([]func(*emuThread) uint64, len(ops)-1)
	for i, o := range ops[1:] {
		if src[i], err = c.value(o); err != nil {
			return in, err
		}
	}
	typ := parts[len(parts)-1]
	mask := ^uint64(0)
	if strings.HasSuffix(typ, "32") {
		mask = 0xffffffff
	}
	a := src[0]
	bin := func(f func(x, y uint64) uint64) (emuInst, error) {
		if err := want(3); err != nil {
			return in, err
		}
		b := src[1]
		in.exec = func(t *emuThread) { t.regs[d] = f(a(t)&mask, b(t)&mask) & mask }
		return in, nil
	}
	switch parts[0] {
	case "mov", "cvta":
		if err := want(2); err != nil {
			return in, err
		}
		in.exec = func(t *emuThread) { t.regs[d] = a(t) & mask }
		return in, nil
	case "cvt": // cvt.u64.u32 and cvt.u32.u64: zero extension or truncation
		if err := want(2); err != nil {
			return in, err
		}
		in.exec = func(t *emuThread) { t.regs[d] = a(t) & 0xffffffff }
		return in, nil
	case "xor":
		return bin(func(x, y uint64) uint64 { return x ^ y })
	case "and":
		return bin(func(x, y uint64) uint64 { return x & y })
	case "or":
		return bin(func(x, y uint64) uint64 { return x | y })
	case "add":
		return bin(func(x, y uint64) uint64 { return x + y })
	case "sub":
		return bin(func(x, y uint64) uint64 { return x - y })
	case "min":
		if typ[0] != 'u' {
			return in, errors.New("only unsigned min")
		}
		return bin(func(x, y uint64) uint64 { return min(x, y) })
	case "neg":
		if err := want(2); err != nil {
			return in, err
		}
		in.exec = func(t *emuThread) { t.regs[d] = -a(t) & mask }
		return in, nil
	case "shl":
		return bin(func(x, y uint64) uint64 {
			if y >= 64 {
				return 0
			}
			return x << y
		})
	case "shr":
		if parts[1][0] != 'u' && parts[1][0] != 'b' {
			return in, errors.New("only unsigned shifts")
		}
		return bin(func(x, y uint64) uint64 {
			if y >= 64 {
				return 0
			}
			return x >> y
		})
	case "mul":
		if err := want(3); err != nil {
			return in, err
		}
		b := src[1]
		switch opcode {
		case "mul.lo.u32":
			in.exec = func(t *emuThread) { t.regs[d] = (a(t) * b(t)) & 0xffffffff }
		case "mul.wide.u32":
			in.exec = func(t *emuThread) { t.regs[d] = (a(t) & 0xffffffff) * (b(t) & 0xffffffff) }
		default:
			return in, errors.New("unsupported multiplication")
		}
		return in, nil
	case "mad":
		if opcode != "mad.lo.u32" || want(4) != nil {
			return in, errors.New("unsupported mad")
		}
		b, cc := src[1], src[2]
		in.exec = func(t *emuThread) { t.regs[d] = (a(t)*b(t) + cc(t)) & 0xffffffff }
		return in, nil
	case "prmt":
		if opcode != "prmt.b32" || want(4) != nil {
			return in, errors.New("unsupported prmt")
		}
		b, sel := src[1], src[2]
		in.exec = func(t *emuThread) {
			x := (b(t)&0xffffffff)<<32 | a(t)&0xffffffff
			s := sel(t)
			var r uint64
			for i := range 4 {
				n := s >> (4 * i) & 0xf
				v := x >> (8 * (n & 7)) & 0xff
				if n&8 != 0 { // sign replication
					v = 0xff * (v >> 7)
				}
				r |= v << (8 * i)
			}
			t.regs[d] = r
		}
		return in, nil
	case "bfind":
		if opcode != "bfind.u32" || want(2) != nil {
			return in, errors.New("unsupported bfind")
		}
		in.exec = func(t *emuThread) {
			t.regs[d] = uint64(uint32(bits.Len32(uint32(a(t))) - 1))
		}
		return in, nil
	case "setp":
		if err := want(3); err != nil {
			return in, err
		}
		b := src[1]
		var f func(x, y uint64) bool
		switch parts[1] {
		case "eq":
			f = func(x, y uint64) bool { return x == y }
		case "ne":
			f = func(x, y uint64) bool { return x != y }
		case "lt":
			f = func(x, y uint64) bool { return x < y }
		case "ge":
			f = func(x, y uint64) bool { return x >= y }
		default:
			return in, errors.New("unsupported comparison")
		}
		if typ[0] != 'u' {
			return in, errors.New("only unsigned comparisons")
		}
		in.exec = func(t *emuThread) {
			t.regs[d] = 0
			if f(a(t)&mask, b(t)&mask) {
				t.regs[d] = 1
			}
		}
		return in, nil
	}
	return in, fmt.Errorf("unsupported instruction %q", opcode)
}

// memory compiles ld, st and red: ld.SPACE[.v4].TYPE d, [a];
// st.SPACE[.v4].TYPE [a], v; red.global.xor.b32 [a], v.
func (c *compiler) memory(in emuInst, parts, ops []string) (emuInst, error) {
	if len(ops) != 2 || len(parts) < 3 {
		return in, errors.New("bad memory instruction")
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
	addr, err := c.address(addrOp)
	if err != nil {
		return in, err
	}
	var regs []int
	if lanes == 4 {
		if regs, err = c.vector(dataOp); err != nil {
			return in, err
		}
	} else {
		r, err := c.reg(dataOp)
		if err != nil {
			return in, err
		}
		regs = []int{r}
	}
	span := size * lanes
	var bytes func(t *emuThread, a uint64) []byte
	switch space {
	case "param":
		if parts[0] != "ld" {
			return in, errors.New("param space is read-only")
		}
		r, mask := regs[0], uint64(1)<<(8*size)-1
		if strings.HasPrefix(addrOp, "["+c.k.blob) && c.k.blob != "" {
			in.exec = func(t *emuThread) {
				a := addr(t)
				if a%uint64(size) != 0 || a+uint64(size) > uint64(len(t.blob)) {
					fault("parameter access of %d bytes at %d out of range or misaligned", size, a)
				}
				var b [8]byte
				copy(b[:], t.blob[a:a+uint64(size)])
				t.regs[r] = binary.LittleEndian.Uint64(b[:])
			}
			return in, nil
		}
		in.exec = func(t *emuThread) { t.regs[r] = addr(t) & mask }
		return in, nil
	case "global":
		bytes = func(t *emuThread, a uint64) []byte {
			if a%uint64(span) != 0 {
				fault("global access of %d bytes at %#x misaligned", span, a)
			}
			return t.mem.slice(a, span)
		}
	case "shared":
		bytes = func(t *emuThread, a uint64) []byte {
			if a%uint64(span) != 0 || a < emuSharedBase || a+uint64(span) > uint64(len(t.shared)) {
				fault("shared access of %d bytes at %#x out of range or misaligned", span, a)
			}
			return t.shared[a : a+uint64(span)]
		}
	default:
		return in, fmt.Errorf("unsupported state space %q", space)
	}
	get := func(b []byte) uint64 {
		if size == 8 {
			return binary.LittleEndian.Uint64(b)
		}
		return uint64(binary.LittleEndian.Uint32(b))
	}
	put := func(b []byte, v uint64) {
		if size == 8 {
			binary.LittleEndian.PutUint64(b, v)
		} else {
			binary.LittleEndian.PutUint32(b, uint32(v))
		}
	}
	switch {
	case parts[0] == "ld":
		in.exec = func(t *emuThread) {
			b := bytes(t, addr(t))
			for i, r := range regs {
				t.regs[r] = get(b[i*size:])
			}
		}
	case parts[0] == "st":
		in.exec = func(t *emuThread) {
			b := bytes(t, addr(t))
			for i, r := range regs {
				put(b[i*size:], t.regs[r])
			}
		}
	case strings.Join(parts, ".") == "red.global.xor.b32":
		r := regs[0]
		in.exec = func(t *emuThread) {
			b := bytes(t, addr(t))
			put(b, get(b)^t.regs[r])
		}
	default:
		return in, errors.New("unsupported memory instruction")
	}
	return in, nil
}

// emuMemory is the emulated device's global memory: allocations at
// distinct, 256-byte aligned addresses with gaps between them.
type emuMemory struct {
	bases []uint64 // sorted
	bufs  map[uint64][]byte
	next  uint64
}

func newEmuMemory() *emuMemory {
	return &emuMemory{bufs: map[uint64][]byte{}, next: 1 << 32}
}

func (m *emuMemory) alloc(n int) uint64 {
	p := m.next
	m.next += (uint64(n) + 4096 + 255) &^ 255
	m.bufs[p] = make([]byte, n)
	m.bases = append(m.bases, p)
	return p
}

// slice returns the n bytes at a, which must lie in one allocation.
func (m *emuMemory) slice(a uint64, n int) []byte {
	i := sort.Search(len(m.bases), func(i int) bool { return m.bases[i] > a }) - 1
	if i >= 0 {
		b := m.bufs[m.bases[i]]
		if off := a - m.bases[i]; off+uint64(n) <= uint64(len(b)) {
			return b[off : off+uint64(n)]
		}
	}
	fault("global access of %d bytes at %#x outside any allocation", n, a)
	return nil
}

// maxSteps bounds the instructions one thread runs, to end a kernel that
// loops forever.
const maxSteps = 1 << 26

// launch runs kernel name on a grid of grid blocks of block threads with
// dynamic bytes of dynamic shared memory; blob is the byte-array parameter.
func (m *emuModule) launch(mem *emuMemory, name string, grid, block, dynamic int, args []uint64, blob []byte) (err error) {
	k, ok := m.kernels[name]
	if !ok {
		return fmt.Errorf("ptx: no kernel %q", name)
	}
	if len(args) != len(k.params) {
		return fmt.Errorf("ptx: %s takes %d arguments, got %d", name, len(k.params), len(args))
	}
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(emuFault)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("ptx: %s: %s", name, f.msg)
		}
	}()
	// The thread blocks run one after another, so they share one shared
	// memory and one set of registers, poisoned between blocks: a kernel
	// that reads what it did not write gets garbage, as on a GPU.
	shared := make([]byte, emuSharedBase+dynamic)
	threads := make([]*emuThread, block)
	for i := range threads {
		threads[i] = &emuThread{regs: make([]uint64, k.nregs), tid: uint32(i), ntid: uint32(block),
			nctid: uint32(grid), args: args, blob: blob, shared: shared, mem: mem}
	}
	for cta := range grid {
		for i := range shared {
			shared[i] = 0xa5
		}
		for _, t := range threads {
			for i := range t.regs {
				t.regs[i] = 0xa5a5a5a5a5a5a5a5
			}
			t.pc, t.done, t.ctaid = 0, false, uint32(cta)
		}
		for running := true; running; {
			running = false
			for _, t := range threads {
				if !t.done {
					k.run(t)
					running = running || !t.done
				}
			}
		}
	}
	return nil
}

// run executes t until it reaches a barrier or returns.
func (k *emuKernel) run(t *emuThread) {
	for steps := 0; ; steps++ {
		if steps > maxSteps || t.pc >= len(k.code) {
			fault("thread %d of block %d ran away", t.tid, t.ctaid)
		}
		in := &k.code[t.pc]
		t.pc++
		if in.pred >= 0 && (t.regs[in.pred] != 0) == in.negPred {
			continue
		}
		switch in.kind {
		case kindExec:
			in.exec(t)
		case kindBranch:
			t.pc = in.target
		case kindBarrier:
			return
		case kindReturn:
			t.done = true
			return
		}
	}
}
