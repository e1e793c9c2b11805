package aegis

import (
	"fmt"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path and every variant, with
// 16-byte tags and, on fewer batches, 32-byte ones.
func TestBatch(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			t.Run(c.v.name, func(t *testing.T) {
				key := make([]byte, c.v.keySize)
				key[0] = 0xba
				long := aeadtest.MustBatch(c.new(key, 32))
				aeadtest.TestBatch(t, aeadtest.MustBatch(c.new(key, 16)), []batch.AEAD{long})
			})
		}
	})
}

// TestBatchLanes runs the lane kernels' suite on every path, for the
// variants whose batches run in lanes, with both tag sizes.
func TestBatchLanes(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			if c.v.lanes > 1 {
				continue
			}
			for _, tagSize := range []int{16, 32} {
				t.Run(fmt.Sprintf("%s-tag%d", c.v.name, tagSize), func(t *testing.T) {
					key := make([]byte, c.v.keySize)
					key[0] = 0x1a
					aeadtest.TestBatchLanes(t, aeadtest.MustBatch(c.new(key, tagSize)), c.v.rate())
				})
			}
		}
	})
}

// TestOpenBatchTagWords runs aeadtest.TestBatchTagWords on every path and
// every variant, with both tag sizes.
func TestOpenBatchTagWords(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			for _, tagSize := range []int{16, 32} {
				t.Run(fmt.Sprintf("%s-tag%d", c.v.name, tagSize), func(t *testing.T) {
					aeadtest.TestBatchTagWords(t, aeadtest.MustBatch(c.new(make([]byte, c.v.keySize), tagSize)))
				})
			}
		}
	})
}
