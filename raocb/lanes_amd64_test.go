//go:build !purego

package raocb

import (
	"testing"
	"unsafe"
)

// TestLaneLayout pins laneOut's layout, which the lane kernels' generator
// (_asm/lanes.go) takes as given (batchutil's tests pin batch.Message's).
func TestLaneLayout(t *testing.T) {
	var o laneOut
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"done", unsafe.Offsetof(o.done), 2368},
		{"size", unsafe.Sizeof(o), 2372},
	} {
		if c.got != c.want {
			t.Errorf("laneOut's %s is %d, the kernels take %d", c.name, c.got, c.want)
		}
	}
}
