package gcm_test

import (
	"crypto/rand"
	"fmt"
	"log"

	"github.com/faelabs/fae/gcm"
	"github.com/faelabs/fae/lea"
)

func Example() {
	key := make([]byte, 16)
	rand.Read(key)
	a, err := gcm.New(key)
	if err != nil {
		log.Fatal(err)
	}

	// A nonce must never repeat under one key: a counter, or 12 random
	// bytes for up to 2^32 messages per key.
	nonce := make([]byte, a.NonceSize())
	rand.Read(nonce)
	header := []byte("header")
	sealed := a.Seal(nil, nonce, []byte("attack at dawn"), header)

	opened, err := a.Open(nil, nonce, sealed, header)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%d bytes sealed)\n", opened, len(sealed))

	sealed[0] ^= 1
	_, err = a.Open(nil, nonce, sealed, header)
	fmt.Println(err)
	// Output:
	// attack at dawn (30 bytes sealed)
	// gcm: message authentication failed
}

// XAES-256-GCM takes 24-byte nonces, which may be drawn at random for as
// many messages as one is likely to send under a key.
func ExampleNewXAES256() {
	key := make([]byte, 32)
	rand.Read(key)
	a, err := gcm.NewXAES256(key)
	if err != nil {
		log.Fatal(err)
	}
	nonce := make([]byte, a.NonceSize())
	rand.Read(nonce)
	sealed := a.Seal(nil, nonce, []byte("attack at dawn"), nil)
	opened, err := a.Open(nil, nonce, sealed, nil)
	fmt.Printf("%s, %v, %d-byte nonce\n", opened, err, len(nonce))
	// Output: attack at dawn, <nil>, 24-byte nonce
}

// GCM over another block cipher; over fae's LEA it runs LEA's counter
// kernels.
func ExampleNewFromBlock() {
	b, err := lea.NewCipher(make([]byte, 16))
	if err != nil {
		log.Fatal(err)
	}
	a, err := gcm.NewFromBlock(b, 12, 16)
	if err != nil {
		log.Fatal(err)
	}
	sealed := a.Seal(nil, make([]byte, 12), nil, []byte("authenticated, not encrypted"))
	fmt.Printf("%x\n", sealed)
	// Output: 9596298d893908602eb1c3f9fe3bae05
}
