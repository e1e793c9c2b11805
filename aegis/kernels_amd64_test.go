//go:build !purego

package aegis

import (
	"testing"
	"unsafe"
)

// TestJobLayout checks the job's field offsets against those the
// generator (_asm) writes into the assembly.
func TestJobLayout(t *testing.T) {
	var j job
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"s", unsafe.Offsetof(j.s), 0}, {"ws", unsafe.Offsetof(j.ws), 8}, {"off", unsafe.Offsetof(j.off), 16},
		{"ctx", unsafe.Offsetof(j.ctx), 24}, {"key", unsafe.Offsetof(j.key), 32}, {"nonce", unsafe.Offsetof(j.nonce), 40},
		{"src", unsafe.Offsetof(j.src), 48}, {"dst", unsafe.Offsetof(j.dst), 56}, {"n", unsafe.Offsetof(j.n), 64},
		{"step", unsafe.Offsetof(j.step), 72}, {"ad", unsafe.Offsetof(j.ad), 80}, {"adN", unsafe.Offsetof(j.adN), 88},
		{"adLast", unsafe.Offsetof(j.adLast), 96}, {"last", unsafe.Offsetof(j.last), 104}, {"mask", unsafe.Offsetof(j.mask), 112},
		{"tags", unsafe.Offsetof(j.tags), 120}, {"tagSize", unsafe.Offsetof(j.tagSize), 128}, {"u", unsafe.Offsetof(j.u), 136},
	} {
		if f.got != f.want {
			t.Errorf("job.%s at offset %d, the kernels read it at %d", f.name, f.got, f.want)
		}
	}
}

// TestMsgJobLayout checks msgJob's field offsets against those of _asm.
func TestMsgJobLayout(t *testing.T) {
	var j msgJob
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"key", unsafe.Offsetof(j.key), 0}, {"nonce", unsafe.Offsetof(j.nonce), 8}, {"ad", unsafe.Offsetof(j.ad), 16},
		{"adLen", unsafe.Offsetof(j.adLen), 24}, {"src", unsafe.Offsetof(j.src), 32}, {"dst", unsafe.Offsetof(j.dst), 40},
		{"n", unsafe.Offsetof(j.n), 48}, {"tag", unsafe.Offsetof(j.tag), 56}, {"tagSize", unsafe.Offsetof(j.tagSize), 64},
		{"ctx", unsafe.Offsetof(j.ctx), 72},
	} {
		if f.got != f.want {
			t.Errorf("msgJob.%s at offset %d, the kernels read it at %d", f.name, f.got, f.want)
		}
	}
}

// TestLaneJobLayout checks laneJob's field offsets against those of
// _asm/lanes.go.
func TestLaneJobLayout(t *testing.T) {
	var j laneJob
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"key", unsafe.Offsetof(j.key), 0}, {"nonce", unsafe.Offsetof(j.nonce), 8}, {"ad", unsafe.Offsetof(j.ad), 40},
		{"src", unsafe.Offsetof(j.src), 72}, {"dst", unsafe.Offsetof(j.dst), 104}, {"tags", unsafe.Offsetof(j.tags), 136},
		{"adN", unsafe.Offsetof(j.adN), 168}, {"n", unsafe.Offsetof(j.n), 176}, {"tagSize", unsafe.Offsetof(j.tagSize), 184},
		{"kAD", unsafe.Offsetof(j.kAD), 192}, {"kLast", unsafe.Offsetof(j.kLast), 208}, {"u", unsafe.Offsetof(j.u), 224},
		{"adLast", unsafe.Offsetof(j.adLast), 288}, {"last", unsafe.Offsetof(j.last), 352}, {"mask", unsafe.Offsetof(j.mask), 416},
		{"msgs", unsafe.Offsetof(j.msgs), 432}, {"idx", unsafe.Offsetof(j.idx), 440}, {"sub", unsafe.Offsetof(j.sub), 472}, {"runs", unsafe.Offsetof(j.runs), 480},
		{"steps", unsafe.Offsetof(j.steps), 488}, {"rT", unsafe.Offsetof(j.rT), 496}, {"rTag", unsafe.Offsetof(j.rTag), 560},
		{"rNext", unsafe.Offsetof(j.rNext), 624}, {"rStride", unsafe.Offsetof(j.rStride), 640},
	} {
		if f.got != f.want {
			t.Errorf("laneJob.%s at offset %d, the kernels read it at %d", f.name, f.got, f.want)
		}
	}
}
