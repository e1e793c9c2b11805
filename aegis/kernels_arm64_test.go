//go:build !purego

package aegis

import (
	"testing"
	"unsafe"
)

// TestJobLayout checks the job's field offsets against those the
// generator (_gen_arm64) writes into the assembly.
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
