package fae_test

import (
	"crypto/rand"
	"fmt"
	"log"

	"github.com/faelabs/fae"
)

func Example() {
	key := make([]byte, 16)
	rand.Read(key)
	aead, err := fae.New("aes-128-ocb3", key)
	if err != nil {
		log.Fatal(err)
	}

	// A nonce must never repeat under one key: a counter, or 12 random
	// bytes for up to 2^32 messages per key.
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	header := []byte("header")
	sealed := aead.Seal(nil, nonce, []byte("attack at dawn"), header)

	opened, err := aead.Open(nil, nonce, sealed, header)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%d bytes sealed)\n", opened, len(sealed))

	// A changed bit, here in the ciphertext, fails authentication.
	sealed[0] ^= 1
	_, err = aead.Open(nil, nonce, sealed, header)
	fmt.Println(err)
	// Output:
	// attack at dawn (30 bytes sealed)
	// ocb: message authentication failed
}

func ExampleNew_options() {
	key := make([]byte, 32)
	rand.Read(key)
	aead, err := fae.New("aes-256-ocb3", key, fae.WithNonceSize(15), fae.WithTagSize(12))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(aead.NonceSize(), aead.Overhead())

	_, err = fae.New("aes-256-ocb3", key[:16])
	fmt.Println(err)
	// Output:
	// 15 12
	// fae: aes-256-ocb3: key is 16 bytes, want 32
}
