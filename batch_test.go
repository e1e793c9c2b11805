package fae

import (
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch checks that New returns a batch.AEAD exactly for the algorithms
// whose Info.Batch is true, and that with WithParallelism(4) their batches
// still allocate nothing, so start no goroutines, even for a message that
// Seal would split; and runs concurrent batches under one key, for the
// race detector. The packages' tests run the whole batch suite.
func TestBatch(t *testing.T) {
	for _, info := range Algorithms() {
		a, err := New(info.Name, testKey(info), WithParallelism(4))
		if err != nil {
			t.Fatal(err)
		}
		b, ok := a.(batch.AEAD)
		if ok != info.Batch {
			t.Errorf("%s: Info.Batch is %v, but New's AEAD implements batch.AEAD: %v", info.Name, info.Batch, ok)
		}
		if !ok {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			t.Run("Allocs", func(t *testing.T) { aeadtest.TestBatchNoAllocs(t, b) })
			t.Run("Concurrent", func(t *testing.T) { aeadtest.TestBatchConcurrent(t, b) })
		})
	}
}
