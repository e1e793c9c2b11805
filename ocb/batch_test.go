package ocb

import (
	"bytes"
	"crypto/aes"
	"slices"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path, at the default sizes and
// at every other tag size (with nonces of 1 to 14 bytes), with 192- and
// 256-bit keys (12 and 14 rounds), over LEA on its paths, and over another
// block cipher.
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
	leaPaths.Run(t, func(t *testing.T) {
		aeadtest.TestBatch(t, aeadtest.MustBatch(newLEA(key[:16], 12, 16)), nil)
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := aes.NewCipher(key[:16])
		aeadtest.TestBatch(t, aeadtest.MustBatch(NewFromBlock(b, 12, 16)), nil, aeadtest.AllowAllocs())
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
	shapes := aeadtest.Runs([]int{0, 1, 16, 17, 100, 256, 1000, 1024, 1025, 2000, 5000, 64})
	paths.Run(t, func(t *testing.T) {
		aeadtest.TestBatchShapes(t, aeadtest.MustBatch(New(key)), shapes)
		aeadtest.TestBatchShapes(t, aeadtest.MustBatch(NewWithSizes(key, 12, 12)), shapes)
		for _, n := range []int{37, 48} {
			for _, shapes := range aeadtest.Alike(n, []int{0, 64, 1000, 1024, 1025, 1500}) {
				aeadtest.TestBatchShapes(t, aeadtest.MustBatch(New(key)), shapes)
				aeadtest.TestBatchShapes(t, aeadtest.MustBatch(NewWithSizes(key, 12, 12)), shapes)
			}
		}
	})
}

// TestBatchGroups compares batches of short messages, which go through the
// cipher in groups, with single calls: every nonce size, its last byte
// taking all 64 bottom values (the shift into Stretch), every tag size,
// texts of 0 to 70 bytes side by side, batches that fill groups partly and
// past their message and block bounds, and messages about groupMaxLen.
func TestBatchGroups(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0x6b
	nonceSizes := []int{1, 2, 6, 12, 15}
	if !testing.Short() {
		nonceSizes = nil
		for n := MinNonceSize; n <= MaxNonceSize; n++ {
			nonceSizes = append(nonceSizes, n)
		}
	}
	paths.Run(t, func(t *testing.T) {
		for _, ns := range nonceSizes {
			for tag := MinTagSize; tag <= MaxTagSize; tag++ {
				a, err := NewWithSizes(key, ns, tag)
				if err != nil {
					t.Fatal(err)
				}
				var ms []batch.Message
				var want [][]byte
				for i := range 71 {
					nonce := make([]byte, ns)
					nonce[0] = byte(i * 37)
					nonce[ns-1] ^= byte(i)
					m := batch.Message{Nonce: nonce, In: make([]byte, i), Out: make([]byte, i+tag)}
					for j := range m.In {
						m.In[j] = byte(i + j)
					}
					if i%3 == 0 {
						m.AD = m.In[:i/2] // read beside the text, never written
						m.In = slices.Clone(m.In)
					}
					want = append(want, a.Seal(nil, m.Nonce, m.In, m.AD))
					ms = append(ms, m)
				}
				for _, n := range []int{1, 2, 17, groupMsgs, groupMsgs + 1, 64, 71} {
					checkBatch(t, a, ms[:n], want[:n])
				}
			}
		}
		a := aeadtest.MustBatch(New(key))
		var shapes []aeadtest.Shape
		for _, n := range []int{groupMaxLen - 1, groupMaxLen, groupMaxLen + 1, groupMaxLen - 16} {
			for range groupBlocks/(n/blockSize) + 1 {
				shapes = append(shapes, aeadtest.Shape{Text: n, AD: n % 50})
			}
		}
		aeadtest.TestBatchShapes(t, a, shapes)
	})
}

// checkBatch seals ms (their Out overwritten) and opens the results, and
// compares them with want, the single calls' ciphertexts.
func checkBatch(t *testing.T, a *AEAD, ms []batch.Message, want [][]byte) {
	t.Helper()
	a.SealBatch(ms)
	opened := make([]batch.Message, len(ms))
	for i, m := range ms {
		if !bytes.Equal(m.Out, want[i]) {
			t.Fatalf("nonce %d, tag %d, batch of %d, message %d: SealBatch differs from Seal", a.NonceSize(), a.Overhead(), len(ms), i)
		}
		opened[i] = batch.Message{Nonce: m.Nonce, AD: m.AD, In: slices.Clone(m.Out), Out: make([]byte, len(m.In))}
	}
	if !a.OpenBatch(opened) {
		t.Fatalf("nonce %d, tag %d, batch of %d: OpenBatch failed", a.NonceSize(), a.Overhead(), len(ms))
	}
	for i, m := range opened {
		if !m.OK || !bytes.Equal(m.Out, ms[i].In) {
			t.Fatalf("nonce %d, tag %d, batch of %d, message %d: OpenBatch differs from Open", a.NonceSize(), a.Overhead(), len(ms), i)
		}
	}
}

// TestBatchLongRuns runs aeadtest.TestBatchLongRuns, whose batches of like
// messages the run kernels take a run of groups at a time, on every path,
// with texts up to the lanes' bound (laneMaxLen, where they run).
func TestBatchLongRuns(t *testing.T) {
	paths.Run(t, func(t *testing.T) { aeadtest.TestBatchLongRuns(t, NewWithSizes, 1024) })
}
