//go:build !purego

package rocca

import (
	"bytes"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/cpu"
)

// TestARMv8AgreesLarge compares the armv8 kernels with the portable code on
// 64 KiB+7 messages and random lengths, with associated data of random
// lengths unrelated to the message's (up to 64 KiB+7 as well), through Seal,
// Open and the Encrypter and Decrypter fed in random pieces.
func TestARMv8AgreesLarge(t *testing.T) {
	if !cpu.ARM64HasAES {
		t.Skip("no ARMv8 AES")
	}
	r := mrand.New(mrand.NewPCG(11, 12))
	const large = 64<<10 + 7
	buf := make([]byte, 2*large+8)
	rand.Read(buf)
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	trials := 40
	if testing.Short() {
		trials = 8
	}
	for i := range trials {
		n, adLen := large, r.IntN(600)
		switch i % 4 {
		case 1:
			n = r.IntN(1000)
		case 2:
			n, adLen = r.IntN(1000), large
		case 3:
			n = r.IntN(300)
		}
		rand.Read(key)
		rand.Read(nonce)
		a, _ := New(key)
		s := r.IntN(8)
		pt, ad := buf[s:s+n], buf[large+s:large+s+adLen]
		var want []byte
		withKernel("generic", func() { want = a.Seal(nil, nonce, pt, ad) })
		withKernel("armv8", func() {
			if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
				t.Fatalf("msg %d, ad %d: Seal differs from generic", n, adLen)
			}
			if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("msg %d, ad %d: Open of the generic output failed: %v", n, adLen, err)
			}
			out := make([]byte, n)
			if tag := encryptPieces(a, nonce, ad, out, pt, pieces(r, n)); !bytes.Equal(append(out, tag...), want) {
				t.Fatalf("msg %d, ad %d: Encrypter differs from generic", n, adLen)
			}
			if err := decryptPieces(a, nonce, ad, out, want[:n], want[n:], pieces(r, n)); err != nil || !bytes.Equal(out, pt) {
				t.Fatalf("msg %d, ad %d: Decrypter of the generic output failed: %v", n, adLen, err)
			}
		})
	}
}
