package gcm

import (
	stdaes "crypto/aes"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path, at the default sizes and at
// every other tag size (with other nonce sizes), on XAES-256-GCM, over LEA
// on its paths, and over another block cipher.
func TestBatch(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0xba
	sizes := []struct{ nonce, tag int }{{1, 12}, {60, 13}, {16, 14}, {13, 15}}
	paths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for _, c := range sizes {
			others = append(others, aeadtest.MustBatch(NewWithSizes(key, c.nonce, c.tag)))
		}
		aeadtest.TestBatch(t, aeadtest.MustBatch(New(key)), others)
		t.Run("XAES-256-GCM", func(t *testing.T) {
			aeadtest.TestBatch(t, aeadtest.MustBatch(NewXAES256(make([]byte, 32))), nil)
		})
	})
	// Over LEA, short messages go in groups (leaBatch).
	leaPaths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for _, c := range sizes {
			others = append(others, aeadtest.MustBatch(newLEA(key, c.nonce, c.tag)))
		}
		aeadtest.TestBatch(t, aeadtest.MustBatch(newLEA(key, 12, 16)), others)
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := stdaes.NewCipher(key)
		aeadtest.TestBatch(t, aeadtest.MustBatch(NewFromBlock(b, 12, 16)), nil, aeadtest.AllowAllocs())
	})
}

// TestBatchSteps checks batches that mix messages the message kernels take
// whole with messages and associated data past a kernel call, which run
// through the steps, on every path, also under an AEAD of WithParallelism,
// whose batches stay serial.
func TestBatchSteps(t *testing.T) {
	const most = maxKernelBlocks * blockSize
	shapes := []aeadtest.Shape{{Text: 64}, {Text: most, AD: most}, {Text: 1500, AD: 13},
		{Text: most + 1}, {Text: 0, AD: most + 17}, {Text: 44}}
	paths.Run(t, func(t *testing.T) {
		for _, sizes := range [][2]int{{12, 16}, {16, 12}} {
			a, err := NewWithSizes(make([]byte, 16), sizes[0], sizes[1])
			if err != nil {
				t.Fatal(err)
			}
			aeadtest.TestBatchShapes(t, a, shapes)
			aeadtest.TestBatchShapes(t, a.WithParallelism(2), shapes)
		}
	})
}

// TestBatchLengths compares batches with single calls on every path for
// every message length from 0 to 300 bytes side by side (the tails of each
// size beside one another, in a batch of 301, which no kernel's lane count
// divides, and in ragged sub-batches of 17 and 33), with associated data of
// 0 to 100 bytes, at every tag size and with 12-byte nonces and others.
func TestBatchLengths(t *testing.T) {
	shapes := make([]aeadtest.Shape, 301)
	for i := range shapes {
		shapes[i] = aeadtest.Shape{Text: i, AD: i * 37 % 101}
	}
	nonces, tags := []int{NonceSize, 1, 16, 60}, []int{12, 13, 14, 15, 16}
	if testing.Short() {
		nonces, tags = []int{NonceSize, 13}, []int{12, 16}
	}
	paths.Run(t, func(t *testing.T) {
		for _, nonceSize := range nonces {
			for _, tagSize := range tags {
				a, err := NewWithSizes(make([]byte, 16), nonceSize, tagSize)
				if err != nil {
					t.Fatal(err)
				}
				aeadtest.TestBatchShapes(t, a, shapes)
				aeadtest.TestBatchShapes(t, a, shapes[100:117])
				aeadtest.TestBatchShapes(t, a, shapes[250:283])
			}
		}
	})
}
