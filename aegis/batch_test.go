package aegis

import (
	"bytes"
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

// TestOpenBatchTagWords tampers with each 8-byte word of the tag of each
// message of a batch of like messages in turn (the lane kernels compare
// tags by words, and the VAES512 ones run the batch's three groups of four
// in one call, setting each message's OK): exactly that message fails and
// is zeroed, and every other OK is set, whatever it was.
func TestOpenBatchTagWords(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			for _, tagSize := range []int{16, 32} {
				a, err := c.new(make([]byte, c.v.keySize), tagSize)
				if err != nil {
					t.Fatal(err)
				}
				const count, size = 13, 40
				for bad := range count {
					for w := 0; w < tagSize; w += 8 {
						msgs := make([]batch.Message, count)
						for i := range msgs {
							nonce := make([]byte, a.NonceSize())
							nonce[0] = byte(i)
							pt := bytes.Repeat([]byte{byte(i + 1)}, size)
							msgs[i] = batch.Message{Nonce: nonce, In: a.Seal(nil, nonce, pt, nil), Out: make([]byte, size), OK: i%2 == 0}
						}
						msgs[bad].In[size+w+3] ^= 4
						if a.OpenBatch(msgs) {
							t.Fatalf("%s tag %d: OpenBatch succeeded with message %d's tag word %d tampered", c.v.name, tagSize, bad, w/8)
						}
						for i, m := range msgs {
							want := bytes.Repeat([]byte{byte(i + 1)}, size)
							if i == bad {
								want = make([]byte, size)
							}
							if m.OK != (i != bad) || !bytes.Equal(m.Out, want) {
								t.Fatalf("%s tag %d: tag word %d of message %d tampered: message %d has OK %v, output %x", c.v.name, tagSize, w/8, bad, i, m.OK, m.Out)
							}
						}
					}
				}
			}
		}
	})
}
