//go:build !purego

package ocb

import (
	"testing"
	"unsafe"
)

// TestLaneLayout pins laneOut's layout, which the lane kernels' generator
// (_asm/batch.go) takes as given (batchutil's tests pin batch.Message's).
func TestLaneLayout(t *testing.T) {
	var o laneOut
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"fail", unsafe.Offsetof(o.fail), 768},
		{"done", unsafe.Offsetof(o.done), 1224},
		{"size", unsafe.Sizeof(o), 1228},
	} {
		if c.got != c.want {
			t.Errorf("laneOut's %s is %d, the kernels take %d", c.name, c.got, c.want)
		}
	}
}
