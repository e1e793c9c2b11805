package raocb

import (
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path, at the default sizes and
// at every other tag size (with nonces of 1 to 14 bytes), and with 192- and
// 256-bit keys (12 and 14 rounds).
func TestBatch(t *testing.T) {
	key := make([]byte, 32)
	key[0] = 0xba
	paths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for tag := MinTagSize; tag < MaxTagSize; tag++ {
			others = append(others, aeadtest.MustBatch(NewWithSizes(key[:16], 2*tag-15, tag)))
		}
		others = append(others, aeadtest.MustBatch(NewWithSizes(key[:24], 12, 16)), aeadtest.MustBatch(NewWithSizes(key, 15, 12)))
		aeadtest.TestBatch(t, aeadtest.MustBatch(New(key[:16])), others)
	})
}

// TestBatchRuns compares batches of like messages (which lane kernels take
// 16 at a time) with single calls, at lengths about the lanes' length
// classes, their bound and past it (the last in lanes, where a tag is
// changed), with tags of 16 and 12 bytes; and batches of like messages
// alone, which RunLanes takes without a look at each (in lanes, or each
// alone).
func TestBatchRuns(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0x5e
	shapes := aeadtest.Runs([]int{0, 1, 16, 17, 100, 128, 129, 256, 512, 513, 1000, 5000, 64})
	paths.Run(t, func(t *testing.T) {
		aeadtest.TestBatchShapes(t, aeadtest.MustBatch(New(key)), shapes)
		aeadtest.TestBatchShapes(t, aeadtest.MustBatch(NewWithSizes(key, 12, 12)), shapes)
		for _, n := range []int{37, 48} {
			for _, shapes := range aeadtest.Alike(n, []int{0, 64, 500, 512, 513, 1500}) {
				aeadtest.TestBatchShapes(t, aeadtest.MustBatch(New(key)), shapes)
				aeadtest.TestBatchShapes(t, aeadtest.MustBatch(NewWithSizes(key, 12, 12)), shapes)
			}
		}
	})
}

// TestBatchLongRuns runs aeadtest.TestBatchLongRuns, whose batches of like
// messages the run kernels take a run of groups at a time, on every path,
// with texts up to the lanes' bound (laneMaxLen, where they run).
func TestBatchLongRuns(t *testing.T) {
	paths.Run(t, func(t *testing.T) { aeadtest.TestBatchLongRuns(t, NewWithSizes, 512) })
}
