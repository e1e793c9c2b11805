package emu

import (
	"encoding/binary"
	"strings"
	"testing"
)

// prefixSums: thread t stores 3t in shared memory and, after the barrier,
// sums the words of threads 0..t-1 in a loop of t turns (the threads
// diverge and meet again), then stores the sum at out[ctaid*ntid+t].
const prefixSums = `
.version 7.0
.target sm_52
.address_size 64
.extern .shared .align 16 .b8 sm[];
.visible .entry sums(
	.param .u64 p_out
)
{
	ld.param.u64 %rd1, [p_out];
	mov.u32 %r2, %tid.x;
	mul.lo.u32 %r3, %r2, 3;
	shl.b32 %r4, %r2, 2;
	mov.u32 %r5, sm;
	add.u32 %r4, %r4, %r5;
	st.shared.u32 [%r4], %r3;
	BARRIER
	mov.b32 %r6, 0;
	mov.b32 %r7, 0;
L1:
	setp.ge.u32 %p1, %r7, %r2;
	@%p1 bra L2;
	shl.b32 %r8, %r7, 2;
	add.u32 %r8, %r8, %r5;
	ld.shared.u32 %r9, [%r8];
	add.u32 %r6, %r6, %r9;
	add.u32 %r7, %r7, 1;
	bra L1;
L2:
	mov.u32 %r10, %ctaid.x;
	mov.u32 %r11, %ntid.x;
	mad.lo.u32 %r12, %r10, %r11, %r2;
	mul.wide.u32 %rd2, %r12, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r6;
	ret;
}
`

func TestDivergentLoop(t *testing.T) {
	m, err := Parse(strings.Replace(prefixSums, "BARRIER", "bar.sync 0;", 1))
	if err != nil {
		t.Fatal(err)
	}
	mem := NewMemory()
	const grid, block = 3, 40
	out := mem.Alloc(4 * grid * block)
	if err := m.Launch(mem, "sums", grid, block, 4*block, []uint64{out}, nil); err != nil {
		t.Fatal(err)
	}
	b, err := mem.Slice(out, 4*grid*block)
	if err != nil {
		t.Fatal(err)
	}
	for i := range grid * block {
		tid := uint32(i % block)
		if got, want := binary.LittleEndian.Uint32(b[4*i:]), 3*tid*(tid-1)/2; got != want {
			t.Errorf("thread %d: sum %d, want %d", i, got, want)
		}
	}
}

func TestFaults(t *testing.T) {
	noBarrier, _ := Parse(strings.Replace(prefixSums, "BARRIER", "", 1))
	withBarrier, _ := Parse(strings.Replace(prefixSums, "BARRIER", "bar.sync 0;", 1))
	mem := NewMemory()
	out := mem.Alloc(4 * 32)
	for _, c := range []struct {
		name    string
		m       *Module
		out     uint64
		block   int
		dynamic int
		want    string
	}{
		{"race", noBarrier, out, 32, 4 * 32, "wrote since the last barrier"},
		{"global out of range", withBarrier, out, 33, 4 * 33, "outside any allocation"},
		{"global misaligned", withBarrier, out + 2, 32, 4 * 32, "misaligned"},
		{"shared out of range", withBarrier, out, 32, 4 * 31, "shared access"},
	} {
		err := c.m.Launch(mem, "sums", 1, c.block, c.dynamic, []uint64{c.out}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
}

func TestMemory(t *testing.T) {
	m := NewMemory()
	a, b := m.Alloc(16), m.Alloc(32)
	if _, err := m.Slice(a+8, 16); err == nil {
		t.Error("a slice past an allocation's end succeeded")
	}
	if err := m.Free(a); err != nil || m.Allocations() != 1 {
		t.Fatalf("Free: %v, %d allocations left", err, m.Allocations())
	}
	if _, err := m.Slice(a, 1); err == nil {
		t.Error("a slice of freed memory succeeded")
	}
	if s, err := m.Slice(b+16, 16); err != nil || len(s) != 16 {
		t.Errorf("Slice: %d bytes, %v", len(s), err)
	}
	if err := m.Free(b + 1); err == nil {
		t.Error("Free of an address inside an allocation succeeded")
	}
}

// TestLop3 checks lop3.b32 against its definition, bit by bit, for every
// table: bit i of d is bit (a_i<<2 | b_i<<1 | c_i) of the table.
func TestLop3(t *testing.T) {
	x, y, z := uint64(0x0123_4567), uint64(0x89ab_cdef), uint64(0xf0e1_d2c3)
	for lut := range uint64(256) {
		got := lop3(x, y, z, lut)
		for i := range 32 {
			j := (x>>i&1)<<2 | (y>>i&1)<<1 | z>>i&1
			if got>>i&1 != lut>>j&1 {
				t.Fatalf("lop3 table %#02x: bit %d is %d", lut, i, got>>i&1)
			}
		}
	}
}

// TestBfe checks bfe.s32 and bfe.u32 on fields inside the word, across
// its top, and empty.
func TestBfe(t *testing.T) {
	for _, c := range []struct {
		a, pos, length uint64
		signed         bool
		want           uint64
	}{
		{0x0000_0010, 4, 1, true, 0xffff_ffff},
		{0x0000_0010, 4, 1, false, 1},
		{0x0000_0010, 5, 1, true, 0},
		{0x8000_0000, 31, 1, true, 0xffff_ffff},
		{0x8123_4567, 28, 8, true, 0xffff_fff8}, // past bit 31: bit 31 fills
		{0x8123_4567, 28, 8, false, 0x8},
		{0x0000_0ff0, 4, 8, true, 0xffff_ffff},
		{0x0000_0ff0, 4, 9, true, 0xff},
		{0xffff_ffff, 3, 0, true, 0},
		{0xffff_ffff, 0x103, 0x101, true, 0xffff_ffff}, // the low bytes only: pos 3, len 1
	} {
		if got := bfe32(c.a, c.pos, c.length, c.signed); got != c.want {
			t.Errorf("bfe(%#x, %d, %d, signed %v) = %#x, want %#x", c.a, c.pos, c.length, c.signed, got, c.want)
		}
	}
}
