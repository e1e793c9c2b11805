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
	aead, err := fae.New("aes-128-gcm", key)
	if err != nil {
		log.Fatal(err)
	}

	// A nonce must never repeat under one key; a counter or, for this
	// nonce size, random bytes will do.
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	sealed := aead.Seal(nil, nonce, []byte("attack at dawn"), []byte("header"))

	opened, err := aead.Open(nil, nonce, sealed, []byte("header"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%d bytes sealed)\n", opened, len(sealed))
	// Output: attack at dawn (30 bytes sealed)
}

func ExampleNew_options() {
	key := make([]byte, 32)
	rand.Read(key)
	aead, err := fae.New("aes-256-gcm", key, fae.WithTagSize(12))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(aead.NonceSize(), aead.Overhead())

	_, err = fae.New("aes-256-gcm", key[:16])
	fmt.Println(err)
	// Output:
	// 12 12
	// fae: aes-256-gcm: key is 16 bytes, want 32
}
