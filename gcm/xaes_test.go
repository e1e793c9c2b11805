package gcm

import (
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
	"github.com/faelabs/fae/internal/words"
)

// TestXAESVectors checks the two vectors of c2sp.org/XAES-256-GCM, with the
// derivation's intermediate values (L, K1 and the derived key), on every
// path; the first has MSB(L) = 0, the second MSB(L) = 1.
func TestXAESVectors(t *testing.T) {
	vectors := []struct{ key, nonce, pt, ad, l, k1, kx, ct string }{
		{
			"0101010101010101010101010101010101010101010101010101010101010101",
			"ABCDEFGHIJKLMNOPQRSTUVWX", "XAES-256-GCM", "",
			"7298caa565031eadc6ce23d23ea66378",
			"e531954aca063d5b8d9c47a47d4cc6f0",
			"c8612c9ed53fe43e8e005b828a1631a0bbcb6ab2f46514ec4f439fcfd0fa969b",
			"ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271",
		},
		{
			"0303030303030303030303030303030303030303030303030303030303030303",
			"ABCDEFGHIJKLMNOPQRSTUVWX", "XAES-256-GCM", "c2sp.org/XAES-256-GCM",
			"91c08762876dccf9ba204a33768fa5fe",
			"23810ec50edb99f374409466ed1f4b7b",
			"e9c621d4cdd9b11b00a6427ad7e559aeedd66b3857646677748f8ca796cb3fd8",
			"986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d",
		},
	}
	paths.Run(t, func(t *testing.T) {
		for _, v := range vectors {
			a, err := NewXAES256(testkit.Hex(t, v.key))
			if err != nil {
				t.Fatal(err)
			}
			x := a.(*xaes)
			var l, k1 [16]byte
			w0, w1 := x.block.EncryptWords(0, 0)
			words.Block{W0: w0, W1: w1}.Store(l[:])
			x.k1.Store(k1[:])
			var g AEAD
			x.derive(&g, []byte(v.nonce[:12]), anyLength)
			if hex.EncodeToString(l[:]) != v.l || hex.EncodeToString(k1[:]) != v.k1 || hex.EncodeToString(g.block.EncKeys()[:32]) != v.kx {
				t.Errorf("L %x, K1 %x, Kx %x; want %s, %s, %s", l, k1, g.block.EncKeys()[:32], v.l, v.k1, v.kx)
			}
			nonce, pt, ad := []byte(v.nonce), []byte(v.pt), []byte(v.ad)
			want := testkit.Hex(t, v.ct)
			if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
				t.Errorf("Seal = %x, want %x", got, want)
			}
			aeadtest.CheckOpen(t, "XAES-256-GCM", a, nonce, ad, pt, want)
		}
	})
}

// TestXAESAccumulated runs the specification's accumulated randomized tests:
// keys, nonces, plaintexts and associated data read from one SHAKE-128
// stream, the ciphertexts hashed by another. 10 000 iterations on every
// path; 1 000 000 on the default one, unless -short.
func TestXAESAccumulated(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		xaesAccumulated(t, 10_000, "e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0c210081939")
	})
	if testing.Short() {
		t.Skip("1 000 000 iterations without -short")
	}
	xaesAccumulated(t, 1_000_000, "2163ae1445985a30b60585ee67daa55674df06901b890593e824b8a7c885ab15")
}

func xaesAccumulated(t *testing.T, iterations int, want string) {
	s, d := sha3.NewSHAKE128(), sha3.NewSHAKE128()
	key := make([]byte, 32)
	nonce := make([]byte, xaesNonceSize)
	var n [1]byte
	pt, ad := make([]byte, 255), make([]byte, 255)
	var ct, opened []byte
	for range iterations {
		s.Read(key)
		s.Read(nonce)
		s.Read(n[:])
		s.Read(pt[:n[0]])
		p := pt[:n[0]]
		s.Read(n[:])
		s.Read(ad[:n[0]])
		a := ad[:n[0]]
		x, err := NewXAES256(key)
		if err != nil {
			t.Fatal(err)
		}
		ct = x.Seal(ct[:0], nonce, p, a)
		d.Write(ct)
		if opened, err = x.Open(opened[:0], nonce, ct, a); err != nil || !bytes.Equal(opened, p) {
			t.Fatalf("round trip failed: %v", err)
		}
	}
	sum := make([]byte, 32)
	d.Read(sum)
	if got := hex.EncodeToString(sum); got != want {
		t.Errorf("%d iterations: hash %s, want %s", iterations, got, want)
	}
}

// TestXAESPowers checks that XAES-256-GCM's per-message AEAD, whose kernel
// key holds only the powers of H its message needs, seals and opens as one
// with every power: message lengths byte by byte across several groups and
// associated data lengths, on every path.
func TestXAESPowers(t *testing.T) {
	r := newRand(8)
	src := randBytes(r, 2048)
	paths.Run(t, func(t *testing.T) {
		a, _ := NewXAES256(randBytes(r, 32))
		x := a.(*xaes)
		nonce := randBytes(r, xaesNonceSize)
		check := func(pt, ad []byte) {
			t.Helper()
			var g AEAD
			x.derive(&g, nonce[:12], anyLength)
			want := g.Seal(nil, nonce[12:], pt, ad)
			if got := x.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
				t.Fatalf("message %d bytes, ad %d: Seal differs from an AEAD with every power", len(pt), len(ad))
			}
			aeadtest.CheckOpen(t, fmt.Sprintf("message %d bytes, ad %d", len(pt), len(ad)), a, nonce, ad, pt, want)
		}
		for n := 0; n <= 1100; n++ {
			if !testing.Short() || n <= 300 || n%29 == 0 {
				check(src[:n], src[:n%40])
			}
		}
		for n := 0; n <= 1100; n += 7 {
			check(src[:33], src[len(src)-n:])
		}
	})
}
