//go:build !purego

package ccm

import (
	"testing"
	"unsafe"
)

// TestBatchLayout checks the offsets and sizes that _asm/batch.go gives the
// batch kernels.
func TestBatchLayout(t *testing.T) {
	var l lanes
	var r run
	var j job
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"lanes.x", unsafe.Offsetof(l.x), 0},
		{"lanes.ctr", unsafe.Offsetof(l.ctr), 256},
		{"lanes.mask", unsafe.Offsetof(l.mask), 512},
		{"lanes.src", unsafe.Offsetof(l.src), 768},
		{"lanes.dst", unsafe.Offsetof(l.dst), 896},
		{"lanes.n", unsafe.Offsetof(l.n), 1024},
		{"lanes.step", unsafe.Offsetof(l.step), 1152},
		{"lanes.cur", unsafe.Offsetof(l.cur), 1280},
		{"lanes.job", unsafe.Offsetof(l.job), 1408},
		{"lanes.last", unsafe.Offsetof(l.last), 1536},
		{"lanes.kmask", unsafe.Offsetof(l.kmask), 1664},
		{"lanes.jobs", unsafe.Offsetof(l.jobs), 1792},
		{"lanes.njobs", unsafe.Offsetof(l.njobs), 1800},
		{"lanes.scratch", unsafe.Offsetof(l.scratch), 1808},
		{"lanes.b0a0", unsafe.Offsetof(l.b0a0), 4368},
		{"size of lanes", unsafe.Sizeof(l), 6800},
		{"run.n", unsafe.Offsetof(r.n), 16},
		{"run.ctrLo", unsafe.Offsetof(r.ctrLo), 24},
		{"run.mask", unsafe.Offsetof(r.mask), 32},
		{"run.last", unsafe.Offsetof(r.last), 36},
		{"size of run", unsafe.Sizeof(r), 40},
		{"job.b0a0", unsafe.Offsetof(j.b0a0), 240},
		{"job.tagDst", unsafe.Offsetof(j.tagDst), 248},
		{"job.ctrHi", unsafe.Offsetof(j.ctrHi), 256},
		{"size of job", unsafe.Sizeof(j), 328},
		{"maxSteps", maxSteps, 160},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, want %d as in _asm/batch.go", c.name, c.got, c.want)
		}
	}
}

// TestLengthClass checks that the classes order jobs from the longest
// down, and tell apart messages of different blocks up to 95 blocks (the
// IPI's 552 and 576 bytes, 35 and 36 blocks), without wrapping past 0.
func TestLengthClass(t *testing.T) {
	prev := lengthClass(0)
	if prev != numClasses-1 {
		t.Errorf("lengthClass(0) = %d, want %d", prev, numClasses-1)
	}
	for n := 1; n < 1<<20; n++ {
		c := lengthClass(n)
		if c > prev {
			t.Fatalf("lengthClass(%d) = %d, above lengthClass(%d) = %d", n, c, n-1, prev)
		}
		blocks := (n + blockSize - 1) / blockSize
		if blocks < 96 && c != numClasses-1-uint8(blocks) {
			t.Fatalf("lengthClass(%d) = %d, want %d", n, c, numClasses-1-blocks)
		}
		prev = c
	}
	if c := lengthClass(1 << 62); c != 0 {
		t.Errorf("lengthClass(1<<62) = %d, want 0", c)
	}
}
