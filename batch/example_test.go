package batch_test

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"log"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/ocb"
)

func Example() {
	key := make([]byte, 16)
	rand.Read(key)
	a, err := ocb.New(key)
	if err != nil {
		log.Fatal(err)
	}

	// Seal three packets in one call, each with its own nonce (here a
	// counter, which must never repeat under the key) and output buffer.
	packets := []string{"first", "second packet", ""}
	msgs := make([]batch.Message, len(packets))
	for i, p := range packets {
		nonce := make([]byte, a.NonceSize())
		binary.BigEndian.PutUint64(nonce[4:], uint64(i))
		msgs[i] = batch.Message{Nonce: nonce, In: []byte(p), Out: make([]byte, len(p)+a.Overhead())}
	}
	a.SealBatch(msgs)

	// Open them in place, after the second was damaged in transit.
	for i := range msgs {
		m := &msgs[i]
		m.In, m.Out = m.Out, m.Out[:len(m.Out)-a.Overhead()]
	}
	msgs[1].In[0] ^= 1
	allOK := a.OpenBatch(msgs)
	fmt.Println("all authentic:", allOK)
	for _, m := range msgs {
		fmt.Printf("%v %q\n", m.OK, m.Out)
	}
	// Output:
	// all authentic: false
	// true "first"
	// false "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	// true ""
}
