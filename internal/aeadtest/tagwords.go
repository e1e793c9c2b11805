package aeadtest

import (
	"bytes"
	"testing"

	"github.com/faelabs/fae/batch"
)

// TestBatchTagWords opens batches of 13 like messages (three groups of four
// and one, for lane kernels that run a run of groups in one call and set
// each message's OK themselves) with each 8-byte word of each message's tag
// tampered with in turn (lane kernels compare tags by words): exactly that
// message fails and is zeroed, and every other OK is set, whatever it was.
func TestBatchTagWords(t *testing.T, a batch.AEAD) {
	t.Helper()
	const count, size = 13, 40
	tagSize := a.Overhead()
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
				t.Fatalf("tag %d: OpenBatch succeeded with message %d's tag word %d tampered", tagSize, bad, w/8)
			}
			for i, m := range msgs {
				want := bytes.Repeat([]byte{byte(i + 1)}, size)
				if i == bad {
					want = make([]byte, size)
				}
				if m.OK != (i != bad) || !bytes.Equal(m.Out, want) {
					t.Fatalf("tag %d: tag word %d of message %d tampered: message %d has OK %v, output %x", tagSize, w/8, bad, i, m.OK, m.Out)
				}
			}
		}
	}
}
