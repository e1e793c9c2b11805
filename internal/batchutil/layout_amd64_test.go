package batchutil

import (
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
)

// TestMessageLayout pins batch.Message's layout, which the lane kernels of
// ocb and raocb and the check kernels here read by offset (their
// generators' msg* constants).
func TestMessageLayout(t *testing.T) {
	var m batch.Message
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"size", unsafe.Sizeof(m), 104},
		{"Nonce", unsafe.Offsetof(m.Nonce), 0},
		{"AD", unsafe.Offsetof(m.AD), 24},
		{"In", unsafe.Offsetof(m.In), 48},
		{"Out", unsafe.Offsetof(m.Out), 72},
		{"OK", unsafe.Offsetof(m.OK), 96},
	} {
		if c.got != c.want {
			t.Errorf("batch.Message's %s is %d, the lane kernels take %d", c.name, c.got, c.want)
		}
	}
}
