package rocca

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
)

// paths are rocca's kernels and its portable code, which runs on the
// bitsliced AES round of internal/aes, not on the AES engine.
var paths = impltest.Of("rocca")

// TestKernelsAgree compares every path with the portable code
// (aeadtest.Agree): message and AD lengths 0..300 byte by byte, large and
// ragged sizes, unaligned buffers.
func TestKernelsAgree(t *testing.T) {
	newAEAD := func(key []byte, _, _ int) (cipher.AEAD, error) { return New(key) }
	sizes := func(*mrand.Rand, int) (nonceSize, tagSize int) { return NonceSize, TagSize }
	long := []int{511, 512, 513, 32 * 7 * 9, 32*7*9 + 31, 4096 + 7, 16384, 65536 + 13, 1<<17 - 9}
	aeadtest.Agree(t, paths, []int{KeySize}, long, sizes, newAEAD, newAEAD)
}

// TestKernelsAgreeLarge compares every path with the portable code on
// 64 KiB+7 messages and random lengths, with associated data of random
// lengths unrelated to the message's (up to 64 KiB+7 as well), through Seal,
// Open and the Encrypter and Decrypter fed in random pieces.
func TestKernelsAgreeLarge(t *testing.T) {
	r := mrand.New(mrand.NewPCG(11, 12))
	const large = 64<<10 + 7
	buf := make([]byte, 2*large+8)
	rand.Read(buf)
	trials := 40
	if testing.Short() {
		trials = 8
	}
	type testCase struct {
		a                 *AEAD
		nonce, pt, ad, ct []byte
	}
	var cases []testCase
	paths.Compare(t, func() {
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
			c := testCase{nonce: make([]byte, NonceSize)}
			key := make([]byte, KeySize)
			rand.Read(key)
			rand.Read(c.nonce)
			s := r.IntN(8)
			c.pt, c.ad = buf[s:s+n], buf[large+s:large+s+adLen]
			c.a, _ = New(key)
			c.ct = c.a.Seal(nil, c.nonce, c.pt, c.ad)
			cases = append(cases, c)
		}
	}, func(t *testing.T) {
		for _, c := range cases {
			n := len(c.pt)
			if got := c.a.Seal(nil, c.nonce, c.pt, c.ad); !bytes.Equal(got, c.ct) {
				t.Fatalf("msg %d, ad %d: Seal differs from generic", n, len(c.ad))
			}
			if got, err := c.a.Open(nil, c.nonce, c.ct, c.ad); err != nil || !bytes.Equal(got, c.pt) {
				t.Fatalf("msg %d, ad %d: Open of the generic output failed: %v", n, len(c.ad), err)
			}
			out := make([]byte, n)
			if tag := encryptPieces(c.a, c.nonce, c.ad, out, c.pt, pieces(r, n)); !bytes.Equal(append(out, tag...), c.ct) {
				t.Fatalf("msg %d, ad %d: Encrypter differs from generic", n, len(c.ad))
			}
			if err := decryptPieces(c.a, c.nonce, c.ad, out, c.ct[:n], c.ct[n:], pieces(r, n)); err != nil || !bytes.Equal(out, c.pt) {
				t.Fatalf("msg %d, ad %d: Decrypter of the generic output failed: %v", n, len(c.ad), err)
			}
		}
	})
}

// TestKernelsState runs the state-level kernels of every path from random
// states over 1 to 30 blocks, which takes every exit of the assembly's
// seven-round loop, and compares state and output with the portable code's;
// and the initialisation and finalisation.
func TestKernelsState(t *testing.T) {
	src := make([]byte, 30*blockSize)
	var key [KeySize]byte
	paths.Compare(t, nil, func(t *testing.T) {
		for n := 1; n <= 30; n++ {
			var s0 state
			for i := range s0 {
				rand.Read(s0[i][:])
			}
			rand.Read(src)
			rand.Read(key[:])
			in := src[:n*blockSize]
			type result struct {
				s   state
				out []byte
				tag [TagSize]byte
			}
			run := func() (r [5]result) {
				for i := range r {
					r[i].s = s0
					r[i].out = make([]byte, len(in))
				}
				r[0].s.absorb(in)
				r[1].s.encrypt(r[1].out, in)
				r[2].s.decrypt(r[2].out, in)
				r[3].s.init(&key, in[:NonceSize])
				r[4].tag = r[4].s.finalize(uint64(n)<<58|uint64(n), uint64(n)<<61|7)
				return r
			}
			var want [5]result
			impltest.Generic(func() { want = run() })
			got := run()
			for i, name := range []string{"absorb", "encrypt", "decrypt", "init", "finalize"} {
				if got[i].s != want[i].s || !bytes.Equal(got[i].out, want[i].out) || got[i].tag != want[i].tag {
					t.Errorf("%s with %d blocks differs from generic", name, n)
				}
			}
		}
	})
}
