package ccm

import (
	"bytes"
	stdaes "crypto/aes"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
)

// TestBatch runs the batch suite on every path, at the default sizes and
// at every other tag size (with nonces of 7 to 13 bytes), over LEA on its
// paths, and over another block cipher.
func TestBatch(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0xba
	paths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for tag := 4; tag < TagSize; tag += 2 {
			others = append(others, aeadtest.MustBatch(NewWithSizes(key, 7+tag/2-2, tag)))
		}
		aeadtest.TestBatch(t, aeadtest.MustBatch(New(key)), others)
	})
	leaPaths.Run(t, func(t *testing.T) {
		aeadtest.TestBatch(t, aeadtest.MustBatch(newLEA(key, false, 12, 16)), nil)
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := stdaes.NewCipher(key)
		aeadtest.TestBatch(t, aeadtest.MustBatch(NewFromBlock(b, 12, 16)), nil, aeadtest.AllowAllocs())
	})
}

// TestBatchLengthLimit checks that with a 13-byte nonce a message one byte
// longer than the limit makes SealBatch panic before it writes anything,
// and fails in OpenBatch, as in Seal and Open.
func TestBatchLengthLimit(t *testing.T) {
	const max = 1<<16 - 1
	a, _ := NewWithSizes(make([]byte, 16), 13, 16)
	nonce := make([]byte, 13)
	ok := batch.Message{Nonce: nonce, In: []byte("ok"), Out: make([]byte, 18)}
	long := batch.Message{Nonce: nonce, In: make([]byte, max+1), Out: make([]byte, max+1+16)}
	msgs := []batch.Message{ok, long}
	testkit.MustPanic(t, "SealBatch of a message too long", func() { a.SealBatch(msgs) })
	if !bytes.Equal(msgs[0].Out, make([]byte, 18)) {
		t.Error("SealBatch wrote a message's output before it panicked")
	}
	msgs[1].In, msgs[1].Out = msgs[1].Out, bytes.Repeat([]byte{1}, max+1)
	msgs[0].In, msgs[0].Out = a.Seal(nil, nonce, []byte("ok"), nil), make([]byte, 2)
	if a.OpenBatch(msgs) || !msgs[0].OK || msgs[1].OK || !bytes.Equal(msgs[1].Out, make([]byte, max+1)) {
		t.Errorf("OpenBatch of a message too long: OK %v %v, output zeroed %v", msgs[0].OK, msgs[1].OK, bytes.Equal(msgs[1].Out, make([]byte, max+1)))
	}
}
