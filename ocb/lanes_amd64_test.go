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

// TestLaneStackGrowth seals and opens batches that run in the lane kernels
// (whose frames are large enough to take the stack check) on fresh
// goroutines at many depths of their stacks, so that some call of a kernel
// grows the stack, and checks every message against Seal.
func TestLaneStackGrowth(t *testing.T) {
	if !useVAES512Lanes {
		t.Skip("no lane kernels on this CPU")
	}
	a, err := New(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	const n, size = 20, 64 // a run of 16 and a group of 4
	for depth := range 48 {
		seal, open := make([]batch.Message, n), make([]batch.Message, n)
		for i := range seal {
			nonce, pt := make([]byte, 12), make([]byte, size)
			nonce[0], pt[0] = byte(i), byte(depth)
			seal[i] = batch.Message{Nonce: nonce, In: pt, Out: make([]byte, size+16)}
			open[i] = batch.Message{Nonce: nonce, In: seal[i].Out, Out: make([]byte, size)}
		}
		allOK := make(chan bool)
		go func() {
			var ok bool
			atDepth(depth, func() { a.SealBatch(seal); ok = a.OpenBatch(open) })
			allOK <- ok
		}()
		if !<-allOK {
			t.Fatalf("depth %d: OpenBatch failed", depth)
		}
		for i, m := range seal {
			if want := a.Seal(nil, m.Nonce, m.In, nil); string(m.Out) != string(want) || string(open[i].Out) != string(m.In) {
				t.Fatalf("depth %d, message %d: batch differs from Seal", depth, i)
			}
		}
	}
}

// atDepth calls f below n frames of about 300 bytes each (the pad it
// returns keeps them).
//
//go:noinline
func atDepth(n int, f func()) (pad [256]byte) {
	if n > 0 {
		pad = atDepth(n-1, f)
		pad[n&255]++
		return pad
	}
	f()
	return pad
}
