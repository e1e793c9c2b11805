package rocca

import (
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path.
func TestBatch(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		key := make([]byte, KeySize)
		key[0] = 0xba
		aeadtest.TestBatch(t, aeadtest.MustBatch(New(key)), nil)
	})
}
