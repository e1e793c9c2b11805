package fae

import (
	"strings"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/par"
)

// TestBatch checks that New returns a batch.AEAD exactly for the algorithms
// whose Info.Batch is true; that with WithParallelism(4) the batches of
// those that split messages still allocate nothing, so start no
// goroutines, even for a message that Seal would split; and runs concurrent
// batches under one key on every algorithm, for the race detector. The
// packages' tests run the whole batch suite.
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
			// The algorithms that split a message (fae.WithParallelism);
			// with -short, one key size of each.
			splits := (strings.Contains(info.Name, "ocb") || strings.HasSuffix(info.Name, "-gcm")) && info.Name != "xaes-256-gcm"
			if splits && (!testing.Short() || info.KeySize == 16) {
				t.Run("Allocs", func(t *testing.T) { aeadtest.TestBatchNoAllocs(t, b, 44, 1500, par.Threshold+17) })
			}
			t.Run("Concurrent", func(t *testing.T) { aeadtest.TestBatchConcurrent(t, b) })
		})
	}
}
