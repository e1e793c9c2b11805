package aegis

import (
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
