package ocb

import (
	"crypto/aes"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path, at the default sizes and
// at every other tag size (with nonces of 1 to 14 bytes), over LEA on its
// paths, and over another block cipher.
func TestBatch(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0xba
	paths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for tag := MinTagSize; tag < MaxTagSize; tag++ {
			others = append(others, aeadtest.MustBatch(NewWithSizes(key, 2*tag-15, tag)))
		}
		aeadtest.TestBatch(t, aeadtest.MustBatch(New(key)), others)
	})
	leaPaths.Run(t, func(t *testing.T) {
		aeadtest.TestBatch(t, aeadtest.MustBatch(newLEA(key, 12, 16)), nil)
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := aes.NewCipher(key)
		aeadtest.TestBatch(t, aeadtest.MustBatch(NewFromBlock(b, 12, 16)), nil, aeadtest.AllowAllocs())
	})
}
