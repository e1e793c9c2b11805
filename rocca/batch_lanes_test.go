package rocca

import (
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatchLanes runs the lane kernels' suite on every path.
func TestBatchLanes(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		key := make([]byte, KeySize)
		key[0] = 0x1a
		aeadtest.TestBatchLanes(t, aeadtest.MustBatch(New(key)), blockSize)
	})
}

// TestOpenBatchTagWords runs aeadtest.TestBatchTagWords on every path.
func TestOpenBatchTagWords(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		aeadtest.TestBatchTagWords(t, aeadtest.MustBatch(New(make([]byte, KeySize))))
	})
}
