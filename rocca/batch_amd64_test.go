//go:build !purego

package rocca

import (
	"testing"
	"unsafe"
)

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
		{"adN", unsafe.Offsetof(j.adN), 168}, {"n", unsafe.Offsetof(j.n), 176}, {"kAD", unsafe.Offsetof(j.kAD), 184},
		{"kLast", unsafe.Offsetof(j.kLast), 200}, {"adBits", unsafe.Offsetof(j.adBits), 216}, {"mBits", unsafe.Offsetof(j.mBits), 280},
		{"adLast", unsafe.Offsetof(j.adLast), 344}, {"last", unsafe.Offsetof(j.last), 408}, {"mask", unsafe.Offsetof(j.mask), 472},
		{"msgs", unsafe.Offsetof(j.msgs), 536}, {"idx", unsafe.Offsetof(j.idx), 544}, {"runs", unsafe.Offsetof(j.runs), 576},
		{"steps", unsafe.Offsetof(j.steps), 584}, {"rT", unsafe.Offsetof(j.rT), 592}, {"rTag", unsafe.Offsetof(j.rTag), 656},
		{"rNext", unsafe.Offsetof(j.rNext), 720}, {"rStride", unsafe.Offsetof(j.rStride), 736},
	} {
		if f.got != f.want {
			t.Errorf("laneJob.%s at offset %d, the kernels read it at %d", f.name, f.got, f.want)
		}
	}
}
