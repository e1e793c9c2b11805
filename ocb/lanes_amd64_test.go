//go:build !purego

package ocb

import (
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/batchutil"
)

// TestLaneLayout pins laneOut's layout, which the lane kernels' generator
// (_asm/batch.go) takes as given (batchutil's tests pin batch.Message's).
func TestLaneLayout(t *testing.T) {
	var o laneOut
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"fail", unsafe.Offsetof(o.fail), 256},
		{"done", unsafe.Offsetof(o.done), 260},
		{"size", unsafe.Sizeof(o), 264},
	} {
		if c.got != c.want {
			t.Errorf("laneOut's %s is %d, the kernels take %d", c.name, c.got, c.want)
		}
	}
}

// TestLaneGroups runs the lane kernels directly on groups of 1 to 16
// messages (aeadtest.TestLaneGroups), which batches give them only where
// batchutil's grouping says.
func TestLaneGroups(t *testing.T) {
	if !useVAES512Lanes {
		t.Skip("no lane kernels on this CPU")
	}
	aeadtest.TestLaneGroups(t, NewWithSizes, laneMaxLen, (*AEAD).runLaneGroup)
}

// BenchmarkSealLanes and BenchmarkOpenLanes measure groups of 2 to 16
// messages of each length class in the lane kernels against single calls
// (aeadtest.BenchmarkLaneGroups): what batchutil's lanesPay decides.
func BenchmarkSealLanes(b *testing.B) { benchmarkLanes(b, false) }
func BenchmarkOpenLanes(b *testing.B) { benchmarkLanes(b, true) }

func benchmarkLanes(b *testing.B, open bool) {
	if !useVAES512Lanes {
		b.Skip("no lane kernels on this CPU")
	}
	aeadtest.BenchmarkLaneGroups(b, func() (*AEAD, error) { return New(make([]byte, 16)) }, laneMaxLen, open, (*AEAD).runLaneGroup)
}

// runLaneGroup is runLanes for aeadtest.LaneRun.
func (a *AEAD) runLaneGroup(open bool, msgs []batch.Message, g *batchutil.LaneGroup) {
	d := encrypt
	if open {
		d = decrypt
	}
	var out laneOut
	a.runLanes(d, msgs, g, &out)
}

// TestLaneStackGrowth runs the lane and run kernels, whose frames take the
// stack check, where some call grows the stack
// (aeadtest.TestLaneStackGrowth).
func TestLaneStackGrowth(t *testing.T) {
	if !useVAES512Lanes {
		t.Skip("no lane kernels on this CPU")
	}
	a, err := New(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	aeadtest.TestLaneStackGrowth(t, a, (*AEAD).runLaneGroup)
}
