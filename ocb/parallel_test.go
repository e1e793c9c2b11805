package ocb

import (
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

func TestParallelMatchesSerial(t *testing.T) {
	aeadtest.TestParallel(t, ParallelThreshold, []int{16, 24, 32}, New)
}

func TestWithParallelismKeepsOriginal(t *testing.T) {
	a, _ := New(make([]byte, 16))
	b := a.WithParallelism(4)
	if a.parallelism != 1 || b.parallelism != 4 || b.aes != &b.block || a.aes != &a.block {
		t.Fatal("WithParallelism changed the original or left the copy pointing at it")
	}
	if a.WithParallelism(0).parallelism != 1 {
		t.Fatal("parallelism 0 not treated as 1")
	}
}
