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
