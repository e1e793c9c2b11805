package gpu

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/faelabs/fae/gpu/internal/emu"
)

// runPieces runs body on the emulator in 8 threads of one block, each
// with the 128 words at 512*tid of a global buffer holding in as its
// state and storing its result state there, and returns the buffer.
func runPieces(t *testing.T, in []byte, body func(g *gen, s *state) state) []byte {
	t.Helper()
	g := &gen{}
	p, tid, off, base := g.rd(), g.r(), g.rd(), g.rd()
	g.in("ld.param.u64 %s, [p_buf]", p)
	g.in("mov.u32 %s, %%tid.x", tid)
	g.in("mul.wide.u32 %s, %s, 512", off, tid)
	g.in("add.u64 %s, %s, %s", base, p, off)
	s := g.freshState()
	for i, r := range s {
		g.in("ld.global.u32 %s, [%s+%d]", r, base, 4*i)
	}
	out := body(g, &s)
	for i, r := range out {
		g.in("st.global.u32 [%s+%d], %s", base, 4*i, r)
	}
	g.in("ret")
	ptx := fmt.Sprintf(".version 7.0\n.target sm_52\n.address_size 64\n.visible .entry pieces(\n\t.param .u64 p_buf\n)\n{\n\t.reg .b32 %%r<%d>;\n\t.reg .b64 %%rd<%d>;\n\t.reg .pred %%p<%d>;\n%s}\n",
		g.nr+1, g.nrd+1, g.np+1, g.body.String())
	m, err := emu.Parse(ptx)
	if err != nil {
		t.Fatal(err)
	}
	mem := emu.NewMemory()
	buf := mem.Alloc(len(in))
	b, _ := mem.Slice(buf, len(in))
	copy(b, in)
	if err := m.Launch(mem, "pieces", 1, 8, 0, []uint64{buf}, nil); err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSlicedSbox runs the S-box and inverse S-box circuits, merged into
// LOP3s, on all 256 bytes: thread th, lane k of byte position 0 takes
// 32th+k.
func TestSlicedSbox(t *testing.T) {
	in := make([]byte, 8*512)
	for th := range 8 {
		for k := range 32 {
			x := 32*th + k
			for b := range 8 {
				w := in[512*th+4*b:]
				binary.LittleEndian.PutUint32(w, binary.LittleEndian.Uint32(w)|uint32(x>>b&1)<<k)
			}
		}
	}
	var sbox, inv [256]byte
	for x := range 256 {
		s := affine(gfInv(byte(x)))
		sbox[x], inv[s] = s, byte(x)
	}
	for _, inverse := range []bool{false, true} {
		out := runPieces(t, in, func(g *gen, s *state) state {
			return g.subBytes(s, inverse, func(j int) int { return j })
		})
		for x := range 256 {
			th, k := x/32, x%32
			var y byte
			for b := range 8 {
				y |= byte(binary.LittleEndian.Uint32(out[512*th+4*b:])>>k&1) << b
			}
			want := sbox[x] ^ 0x63
			if inverse {
				want = inv[x^0x63]
			}
			if y != want {
				t.Fatalf("inverse %v: S-box circuit of %#02x is %#02x, want %#02x", inverse, x, y, want)
			}
		}
	}
}

// slicedCost returns the PTX instructions per 16-byte block of bitsliced
// kernel k at rounds rounds, counted on the text: the instructions of one
// group's pass (the loop over groups) with the rounds' loop taken rounds-1
// times, over the 32 blocks of a thread. The set-up before the loop and the
// sums' reduction after it, once per launch, are left out.
func slicedCost(t *testing.T, ptx string, k kernel, rounds int) float64 {
	t.Helper()
	start := strings.Index(ptx, ".entry "+k.name()+"(")
	body := ptx[start:]
	body = body[:strings.Index(body, "\n}\n")]
	var lines []string
	for l := range strings.SplitSeq(body, "\n") {
		if l = strings.TrimSpace(l); strings.HasSuffix(l, ";") && !strings.HasPrefix(l, ".") {
			lines = append(lines, l)
		} else if strings.HasSuffix(l, ":") {
			lines = append(lines, l)
		}
	}
	label := func(name string) int { return slices.Index(lines, name+":") }
	// The groups' loop ends with its conditional branch back, the last
	// branch of the kernel to an earlier label; the rounds' loop with the
	// widest unconditional one back (the batch kernels' searches and Gray
	// code loops are the others: counted here as taken once).
	var gStart, gEnd, rStart, rEnd int
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) == 3 && f[1] == "bra" && label(strings.TrimSuffix(f[2], ";")) < i {
			gStart, gEnd = label(strings.TrimSuffix(f[2], ";")), i
		}
	}
	for i, l := range lines[gStart:gEnd] {
		f := strings.Fields(l)
		if len(f) == 2 && f[0] == "bra" {
			if l := label(strings.TrimSuffix(f[1], ";")); l < gStart+i && gStart+i-l > rEnd-rStart {
				rStart, rEnd = l, gStart+i
			}
		}
	}
	if !(gStart < rStart && rEnd < gEnd) {
		t.Fatalf("%s: loops not found", k.name())
	}
	count := func(a, b int) int {
		n := 0
		for _, l := range lines[a:b] {
			if !strings.HasSuffix(l, ":") {
				n++
			}
		}
		return n
	}
	round := count(rStart, rEnd+1)
	exit := count(rStart, slices.IndexFunc(lines[rStart:], func(l string) bool { return strings.Contains(l, "bra") })+rStart+1)
	perGroup := count(gStart, gEnd+1) - round + (rounds-1)*round + exit
	return float64(perGroup) / 32
}

// TestSlicedCost logs the bitsliced kernels' PTX instructions per block
// (docs/gpu.md quotes them) and checks them against a budget, so that a
// change that bloats the kernels shows.
func TestSlicedCost(t *testing.T) {
	ptx := module()
	for _, k := range allKernels() {
		if !k.sliced {
			continue
		}
		for _, r := range []int{10, 14} {
			c := slicedCost(t, ptx, k, r)
			t.Logf("%s, %d rounds: %.1f PTX instructions per block", k.name(), r, c)
			if budget := 100 + 95*float64(r); c > budget {
				t.Errorf("%s, %d rounds: %.1f PTX instructions per block, over the budget of %.0f", k.name(), r, c, budget)
			}
		}
	}
}
