package ctr

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	mrand "math/rand/v2"
	"strings"
	"testing"

	faeaes "github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/internal/testkit"
)

// paths are the AES engine's, whose CTR kernels ctr runs.
var paths = impltest.Of("aes")

// TestAgainstStdlib feeds the same data through fae and crypto/cipher in
// random pieces, so leftover keystream is carried across calls.
func TestAgainstStdlib(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		r := mrand.New(mrand.NewPCG(1, 2))
		for _, keyLen := range []int{16, 24, 32} {
			for _, ivTail := range [][]byte{nil, bytes.Repeat([]byte{0xff}, 8), bytes.Repeat([]byte{0xff}, 16)} {
				key, iv := make([]byte, keyLen), make([]byte, 16)
				rand.Read(key)
				rand.Read(iv)
				copy(iv[16-len(ivTail):], ivTail) // carry across 2^64, wrap at 2^128
				msg := make([]byte, 5000)
				rand.Read(msg)
				ref, _ := aes.NewCipher(key)
				want := make([]byte, len(msg))
				cipher.NewCTR(ref, iv).XORKeyStream(want, msg)

				s, err := New(key, iv)
				if err != nil {
					t.Fatal(err)
				}
				got := bytes.Clone(msg)
				for rest := got; len(rest) > 0; {
					n := min(len(rest), r.IntN(300))
					s.XORKeyStream(rest[:n], rest[:n]) // in place
					rest = rest[n:]
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("key %d bytes, iv %x: output differs from crypto/cipher", keyLen, iv)
				}
			}
		}
	})
}

func TestErrors(t *testing.T) {
	_, err := New(make([]byte, 17), make([]byte, 16))
	if ks := faeaes.KeySizeError(0); !errors.As(err, &ks) || ks != 17 || !strings.HasPrefix(err.Error(), "ctr: ") {
		t.Errorf("17-byte key: error %v, want a KeySizeError(17) wrapped by ctr", err)
	}
	if _, err := New(make([]byte, 16), make([]byte, 12)); err == nil {
		t.Error("12-byte IV accepted")
	}
	s, _ := New(make([]byte, 16), make([]byte, 16))
	testkit.MustPanic(t, "short dst", func() { s.XORKeyStream(make([]byte, 3), make([]byte, 4)) })
	buf := make([]byte, 40)
	testkit.MustPanic(t, "inexact overlap", func() { s.XORKeyStream(buf[1:33], buf[:32]) })
}
