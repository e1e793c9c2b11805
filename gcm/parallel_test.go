package gcm

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

func TestParallelMatchesSerial(t *testing.T) {
	aeadtest.TestParallel(t, ParallelThreshold, []int{16, 24, 32}, New)
}

// TestParallelCounterWrap checks WithParallelism on every path where the
// 32-bit counter wraps inside the first share of a message and inside the
// second (16-byte nonces, whose J0 is hashed, can put it there). Run it
// with -race too.
func TestParallelCounterWrap(t *testing.T) {
	lengths := []int{(maxKernelBlocks+200)*blockSize + 5, 700<<10 + 5}
	if testing.Short() {
		lengths = lengths[:1]
	}
	r := newRand(5)
	buf := randBytes(r, lengths[len(lengths)-1]+64)
	paths.Run(t, func(t *testing.T) {
		serial, err := NewWithSizes(randBytes(r, 16), 16, 16)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []uint32{3000, maxKernelBlocks + 100} {
			nonce := wrapNonce(t, serial, 16, k, r)
			for _, n := range lengths {
				pt, ad := buf[3:3+n], buf[len(buf)-n:]
				want := serial.Seal(nil, nonce, pt, ad)
				for _, p := range []int{2, 3} {
					t.Run(fmt.Sprintf("wrap%d/len%d/p%d", k, n, p), func(t *testing.T) {
						a := serial.WithParallelism(p)
						got := a.Seal(nil, nonce, pt, ad)
						if !bytes.Equal(got, want) {
							t.Fatal("parallel Seal differs from serial")
						}
						if opened, err := a.Open(got[:0], nonce, got, ad); err != nil || !bytes.Equal(opened, pt) {
							t.Fatalf("parallel Open in place failed: %v", err)
						}
					})
				}
			}
		}
	})
}

func TestWithParallelismKeepsOriginal(t *testing.T) {
	a, _ := New(make([]byte, 16))
	b := a.WithParallelism(4)
	if a.parallelism != 1 || b.parallelism != 4 || a.WithParallelism(1) != a {
		t.Fatal("WithParallelism changed the original or copied needlessly")
	}
	if a.WithParallelism(0) != a {
		t.Fatal("parallelism 0 not treated as 1")
	}
}
