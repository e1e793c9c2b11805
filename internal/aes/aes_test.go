package aes

import (
	"bufio"
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/internal/testkit"
)

// paths are the AES kernels and the generic code.
var paths = impltest.Of("aes")

func mustNew(t testing.TB, key []byte) *Block {
	t.Helper()
	b, err := New(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// newRand returns a generator seeded from the test's name, so failures repeat.
func newRand(t *testing.T) *rand.Rand {
	var seed [32]byte
	copy(seed[:], t.Name())
	return rand.New(rand.NewChaCha8(seed))
}

// FIPS-197 Appendix C: Example Vectors.
var fips197Vectors = []struct{ key, plaintext, ciphertext string }{
	{ // C.1 AES-128
		"000102030405060708090a0b0c0d0e0f",
		"00112233445566778899aabbccddeeff",
		"69c4e0d86a7b0430d8cdb78070b4c55a",
	},
	{ // C.2 AES-192
		"000102030405060708090a0b0c0d0e0f1011121314151617",
		"00112233445566778899aabbccddeeff",
		"dda97ca4864cdfe06eaf70a0ec0d7191",
	},
	{ // C.3 AES-256
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"00112233445566778899aabbccddeeff",
		"8ea2b7ca516745bfeafc49904b496089",
	},
}

func TestFIPS197Vectors(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, v := range fips197Vectors {
			b := mustNew(t, testkit.Hex(t, v.key))
			pt, ct := testkit.Hex(t, v.plaintext), testkit.Hex(t, v.ciphertext)
			if b.Rounds() != len(v.key)/8+6 {
				t.Errorf("key %s: Rounds() = %d", v.key, b.Rounds())
			}
			got := make([]byte, 16)
			b.Encrypt(got, pt)
			if !bytes.Equal(got, ct) {
				t.Errorf("key %s: Encrypt = %x, want %x", v.key, got, ct)
			}
			b.Decrypt(got, ct)
			if !bytes.Equal(got, pt) {
				t.Errorf("key %s: Decrypt = %x, want %x", v.key, got, pt)
			}
			b.EncryptBlocks(got, pt)
			if !bytes.Equal(got, ct) {
				t.Errorf("key %s: EncryptBlocks = %x, want %x", v.key, got, ct)
			}
			b.DecryptBlocks(got, ct)
			if !bytes.Equal(got, pt) {
				t.Errorf("key %s: DecryptBlocks = %x, want %x", v.key, got, pt)
			}
		}
	})
}

func TestFIPS197KeyExpansion(t *testing.T) {
	f, err := os.Open("testdata/fips197_key_expansion.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var keys, expanded [][]byte
	s := bufio.NewScanner(f)
	for s.Scan() {
		field, value, _ := strings.Cut(s.Text(), " ")
		switch field {
		case "key":
			keys = append(keys, testkit.Hex(t, value))
		case "expanded":
			expanded = append(expanded, testkit.Hex(t, value))
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 3 || len(expanded) != 3 {
		t.Fatalf("read %d keys and %d expansions, want 3 each", len(keys), len(expanded))
	}
	paths.Run(t, func(t *testing.T) {
		for i, key := range keys {
			b := mustNew(t, key)
			if got := b.EncKeys()[:len(expanded[i])]; !bytes.Equal(got, expanded[i]) {
				t.Errorf("key %x:\nEncKeys = %x\nwant      %x", key, got, expanded[i])
			}
			if got, want := b.DecKeys()[:len(expanded[i])], refDecKeys(expanded[i]); !bytes.Equal(got, want) {
				t.Errorf("key %x:\nDecKeys = %x\nwant      %x", key, got, want)
			}
		}
	})
}

// refDecKeys computes the equivalent inverse cipher's keys (FIPS-197 5.3.5)
// from the expanded key, in decryption order, by matrix multiplication.
func refDecKeys(enc []byte) []byte {
	nr := len(enc)/16 - 1
	dec := make([]byte, len(enc))
	for m := 0; m <= nr; m++ {
		k := enc[16*(nr-m) : 16*(nr-m)+16]
		d := dec[16*m : 16*m+16]
		if m == 0 || m == nr {
			copy(d, k)
			continue
		}
		row := [4]byte{0x0e, 0x0b, 0x0d, 0x09}
		for c := range 4 {
			for r := range 4 {
				for i := range 4 {
					d[4*c+r] ^= gfMul(row[(i-r+4)%4], k[4*c+i])
				}
			}
		}
	}
	return dec
}

var keySizes = []int{16, 24, 32}

func TestBlocks(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		r := newRand(t)
		for _, size := range keySizes {
			key := randBytes(r, size)
			b := mustNew(t, key)
			ref, _ := stdaes.NewCipher(key)
			if got, want := b.DecKeys()[:16*(b.Rounds()+1)], refDecKeys(b.EncKeys()[:16*(b.Rounds()+1)]); !bytes.Equal(got, want) {
				t.Fatalf("key %x: DecKeys = %x, want %x", key, got, want)
			}
			src := randBytes(r, 300*16)
			want := make([]byte, len(src))
			for i := 0; i < len(src); i += 16 {
				ref.Encrypt(want[i:], src[i:])
			}
			got := make([]byte, len(src))
			buf := make([]byte, len(src))
			for n := 0; n <= 300; n++ {
				l := 16 * n
				clear(got)
				b.EncryptBlocks(got, src[:l])
				if !bytes.Equal(got[:l], want[:l]) || !allZero(got[l:]) {
					t.Fatalf("key %x, %d blocks: EncryptBlocks differs from crypto/aes", key, n)
				}
				b.DecryptBlocks(got, want[:l])
				if !bytes.Equal(got[:l], src[:l]) {
					t.Fatalf("key %x, %d blocks: DecryptBlocks differs from crypto/aes", key, n)
				}
				copy(buf, src[:l])
				b.EncryptBlocks(buf, buf[:l])
				if !bytes.Equal(buf[:l], want[:l]) {
					t.Fatalf("key %x, %d blocks: in-place EncryptBlocks differs", key, n)
				}
				b.DecryptBlocks(buf[:l], buf[:l])
				if !bytes.Equal(buf[:l], src[:l]) {
					t.Fatalf("key %x, %d blocks: in-place DecryptBlocks differs", key, n)
				}
			}
			for i := 0; i < len(src); i += 16 {
				b.Encrypt(got, src[i:])
				if !bytes.Equal(got[:16], want[i:i+16]) {
					t.Fatalf("key %x: Encrypt differs from crypto/aes", key)
				}
				b.Decrypt(got, want[i:])
				if !bytes.Equal(got[:16], src[i:i+16]) {
					t.Fatalf("key %x: Decrypt differs from crypto/aes", key)
				}
				copy(buf, src[i:i+16])
				b.Encrypt(buf, buf)
				b.Decrypt(buf, buf)
				if !bytes.Equal(buf[:16], src[i:i+16]) {
					t.Fatalf("key %x: in-place Encrypt/Decrypt does not round-trip", key)
				}
			}
		}
	})
}

func allZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// addCounter returns iv + n as a 128-bit big-endian integer, modulo 2^128.
func addCounter(iv [16]byte, n uint64) [16]byte {
	hi := binary.BigEndian.Uint64(iv[:8])
	lo := binary.BigEndian.Uint64(iv[8:])
	lo += n
	if lo < n {
		hi++
	}
	binary.BigEndian.PutUint64(iv[:8], hi)
	binary.BigEndian.PutUint64(iv[8:], lo)
	return iv
}

func TestXORKeyStreamAt(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		r := newRand(t)
		const maxLen = 1024
		src := randBytes(r, maxLen)
		got := make([]byte, maxLen+1)
		want := make([]byte, maxLen)
		for _, size := range keySizes {
			key := randBytes(r, size)
			b := mustNew(t, key)
			ref, _ := stdaes.NewCipher(key)
			for _, kind := range []string{"random", "carry64", "wrap128"} {
				var iv [16]byte
				copy(iv[:], randBytes(r, 16))
				switch kind {
				case "carry64": // the low half overflows within a few blocks
					binary.BigEndian.PutUint64(iv[8:], ^uint64(r.IntN(8)))
				case "wrap128": // the whole counter wraps around to zero
					iv = addCounter([16]byte{}, -uint64(1+r.IntN(8)))
					for i := range 8 {
						iv[i] = 0xff
					}
				}
				for n := 0; n <= maxLen; n++ {
					cipher.NewCTR(ref, iv[:]).XORKeyStream(want[:n], src[:n])
					got[n] = 0xa5
					next := iv
					b.XORKeyStreamAt(got, src[:n], &next)
					if !bytes.Equal(got[:n], want[:n]) {
						t.Fatalf("key %x, iv %x, %d bytes: keystream differs from crypto/cipher", key, iv, n)
					}
					if got[n] != 0xa5 {
						t.Fatalf("%d bytes: wrote past the end of src", n)
					}
					if wantNext := addCounter(iv, uint64(n+15)/16); next != wantNext {
						t.Fatalf("iv %x, %d bytes: next counter %x, want %x", iv, n, next, wantNext)
					}
					copy(got, src[:n])
					next2 := iv
					if b.XORKeyStreamAt(got[:n], got[:n], &next2); !bytes.Equal(got[:n], want[:n]) || next2 != next {
						t.Fatalf("iv %x, %d bytes: in-place keystream differs", iv, n)
					}
				}
			}
		}
	})
}

func TestKeySizeError(t *testing.T) {
	for _, n := range []int{0, 1, 8, 15, 17, 20, 23, 25, 31, 33, 48, 64} {
		_, err := New(make([]byte, n))
		var ks KeySizeError
		if !errors.As(err, &ks) || int(ks) != n {
			t.Errorf("New(%d-byte key) error = %v, want KeySizeError(%d)", n, err, n)
		}
	}
}

func TestPanics(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		b := mustNew(t, make([]byte, 16))
		buf := make([]byte, 100)
		var iv [16]byte

		testkit.MustPanic(t, "Encrypt short src", func() { b.Encrypt(buf, buf[:15]) })
		testkit.MustPanic(t, "Encrypt short dst", func() { b.Encrypt(buf[:15], buf[16:]) })
		testkit.MustPanic(t, "Encrypt overlap", func() { b.Encrypt(buf[1:], buf) })
		testkit.MustPanic(t, "Decrypt short src", func() { b.Decrypt(buf, buf[:15]) })
		testkit.MustPanic(t, "Decrypt short dst", func() { b.Decrypt(buf[:15], buf[16:]) })
		testkit.MustPanic(t, "Decrypt overlap", func() { b.Decrypt(buf, buf[15:]) })

		testkit.MustPanic(t, "EncryptBlocks partial block", func() { b.EncryptBlocks(buf, buf[:17]) })
		testkit.MustPanic(t, "EncryptBlocks short dst", func() { b.EncryptBlocks(buf[:16], buf[32:64]) })
		testkit.MustPanic(t, "EncryptBlocks overlap", func() { b.EncryptBlocks(buf[16:], buf[:32]) })
		testkit.MustPanic(t, "DecryptBlocks partial block", func() { b.DecryptBlocks(buf, buf[:1]) })
		testkit.MustPanic(t, "DecryptBlocks short dst", func() { b.DecryptBlocks(buf[:16], buf[32:64]) })
		testkit.MustPanic(t, "DecryptBlocks overlap", func() { b.DecryptBlocks(buf[:32], buf[8:40]) })

		testkit.MustPanic(t, "XORKeyStreamAt short dst", func() { b.XORKeyStreamAt(buf[:9], buf[50:60], &iv) })
		testkit.MustPanic(t, "XORKeyStreamAt overlap", func() { b.XORKeyStreamAt(buf[1:], buf[:50], &iv) })

		// What is allowed: exact overlap and a longer dst.
		b.Encrypt(buf, buf)
		b.EncryptBlocks(buf, buf[:48])
		b.DecryptBlocks(buf[:64], buf[:48])
		b.XORKeyStreamAt(buf, buf[:33], &iv)
		b.XORKeyStreamAt(buf[:0], buf[:0], &iv)
	})
}

func TestEncryptWords(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, keyLen := range []int{16, 24, 32} {
			key := make([]byte, keyLen)
			crand.Read(key)
			b, _ := New(key)
			ref, _ := stdaes.NewCipher(key)
			for range 50 {
				var x, want [16]byte
				crand.Read(x[:])
				ref.Encrypt(want[:], x[:])
				r0, r1 := b.EncryptWords(binary.LittleEndian.Uint64(x[:8]), binary.LittleEndian.Uint64(x[8:]))
				var got [16]byte
				binary.LittleEndian.PutUint64(got[:8], r0)
				binary.LittleEndian.PutUint64(got[8:], r1)
				if got != want {
					t.Fatalf("AES-%d: EncryptWords differs from crypto/aes", 8*keyLen)
				}
			}
		}
	})
}
