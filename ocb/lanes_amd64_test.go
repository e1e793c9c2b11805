//go:build !purego

package ocb

import (
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
)

// TestLaneLayout pins what the lane kernels' generator (_asm/batch.go)
// takes as given: batch.Message's layout, which they read by offset, and
// laneOut's.
func TestLaneLayout(t *testing.T) {
	var m batch.Message
	var o laneOut
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Message size", unsafe.Sizeof(m), 104},
		{"Message.Nonce", unsafe.Offsetof(m.Nonce), 0},
		{"Message.AD", unsafe.Offsetof(m.AD), 24},
		{"Message.In", unsafe.Offsetof(m.In), 48},
		{"Message.Out", unsafe.Offsetof(m.Out), 72},
		{"Message.OK", unsafe.Offsetof(m.OK), 96},
		{"laneOut.fail", unsafe.Offsetof(o.fail), 768},
		{"laneOut.done", unsafe.Offsetof(o.done), 1224},
		{"laneOut size", unsafe.Sizeof(o), 1228},
	} {
		if c.got != c.want {
			t.Errorf("%s is %d, the kernels take %d", c.name, c.got, c.want)
		}
	}
}
