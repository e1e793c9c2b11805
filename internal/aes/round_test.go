package aes

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

// TestRoundVector checks the AESRound test vector of
// draft-irtf-cfrg-aegis-aead-18, Appendix A.1.
func TestRoundVector(t *testing.T) {
	in, _ := hex.DecodeString("000102030405060708090a0b0c0d0e0f")
	rk, _ := hex.DecodeString("101112131415161718191a1b1c1d1e1f")
	want, _ := hex.DecodeString("7a7b4e5638782546a8c0477a3b813f43")
	got := make([]byte, 16)
	Round(got, in, rk)
	if !bytes.Equal(got, want) {
		t.Errorf("Round = %x, want %x", got, want)
	}
}

// refRound is one AES round from the definitions: the S-box table built by
// refSbox, ShiftRows and MixColumns byte by byte.
func refRound(dst, src, rk []byte) {
	s, _ := refSbox()
	var b [16]byte
	for c := range 4 {
		for r := range 4 {
			b[4*c+r] = s[src[4*((c+r)%4)+r]]
		}
	}
	for c := range 4 {
		x := b[4*c : 4*c+4]
		for r := range 4 {
			dst[4*c+r] = gfMul(x[r], 2) ^ gfMul(x[(r+1)%4], 3) ^ x[(r+2)%4] ^ x[(r+3)%4] ^ rk[4*c+r]
		}
	}
}

// TestRound compares Round with refRound for 0 to 9 blocks, in place (on
// the input and on the round keys) and not.
func TestRound(t *testing.T) {
	for n := 0; n <= 9; n++ {
		src := make([]byte, 16*n)
		rk := make([]byte, 16*n)
		rand.Read(src)
		rand.Read(rk)
		want := make([]byte, 16*n)
		for i := 0; i < n; i++ {
			refRound(want[16*i:], src[16*i:], rk[16*i:])
		}
		got := make([]byte, 16*n)
		Round(got, src, rk)
		if !bytes.Equal(got, want) {
			t.Fatalf("%d blocks: Round = %x, want %x", n, got, want)
		}
		inPlace := bytes.Clone(src)
		Round(inPlace, inPlace, rk)
		onKeys := bytes.Clone(rk)
		Round(onKeys, src, onKeys)
		if !bytes.Equal(inPlace, want) || !bytes.Equal(onKeys, want) {
			t.Fatalf("%d blocks: in-place Round differs", n)
		}
	}
}

// toWords and fromWords convert between 16*n bytes and n blocks as words.
func toWords(p []byte) (w [4][2]uint64) {
	for i := range len(p) / 16 {
		w[i] = [2]uint64{binary.LittleEndian.Uint64(p[16*i:]), binary.LittleEndian.Uint64(p[16*i+8:])}
	}
	return w
}

func fromWords(w [4][2]uint64) []byte {
	var p []byte
	for _, x := range w {
		p = binary.LittleEndian.AppendUint64(p, x[0])
		p = binary.LittleEndian.AppendUint64(p, x[1])
	}
	return p
}

// TestRound4 compares Round4 with refRound, with dst apart from src and rk,
// equal to either, and overlapping src by three blocks either way, and
// Rounds4 with refRound applied once per key, for 0 to 3 keys.
func TestRound4(t *testing.T) {
	for range 50 {
		src, rk := make([]byte, 64), make([]byte, 64)
		rand.Read(src)
		rand.Read(rk)
		want := make([]byte, 64)
		for i := 0; i < 64; i += 16 {
			refRound(want[i:], src[i:], rk[i:])
		}
		b, k := toWords(src), toWords(rk)
		check := func(name string, got [4][2]uint64) {
			t.Helper()
			if g := fromWords(got); !bytes.Equal(g, want) {
				t.Fatalf("Round4(%x, %x), %s = %x, want %x", src, rk, name, g, want)
			}
		}
		var d [4][2]uint64
		Round4(&d, &b, &k)
		check("dst apart", d)
		d = b
		Round4(&d, &d, &k)
		check("dst = src", d)
		d = k
		Round4(&d, &b, &d)
		check("dst = rk", d)
		var w [5][2]uint64
		copy(w[:], b[:])
		Round4((*[4][2]uint64)(w[1:]), (*[4][2]uint64)(w[:4]), &k)
		check("dst after src", [4][2]uint64(w[1:]))
		copy(w[1:], b[:])
		Round4((*[4][2]uint64)(w[:4]), (*[4][2]uint64)(w[1:]), &k)
		check("dst before src", [4][2]uint64(w[:4]))

		var keys []RoundKey
		want = bytes.Clone(src)
		for n := range 4 {
			b := toWords(src)
			Rounds4(&b, keys)
			if got := fromWords(b); !bytes.Equal(got, want) {
				t.Fatalf("Rounds4 with %d keys = %x, want %x", n, got, want)
			}
			kn := rk[16*n : 16*n+16]
			keys = append(keys, NewRoundKey(toWords(kn)[0]))
			for i := 0; i < 64; i += 16 {
				refRound(want[i:], want[i:], kn)
			}
		}
	}
}

func BenchmarkRound4(b *testing.B) {
	var x [4][2]uint64
	b.SetBytes(64)
	for b.Loop() {
		Round4(&x, &x, &x)
	}
}

func BenchmarkRound(b *testing.B) {
	buf := make([]byte, 128)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		Round(buf, buf, buf)
	}
}
