package aes

import (
	"bytes"
	"crypto/rand"
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

func BenchmarkRound(b *testing.B) {
	buf := make([]byte, 128)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		Round(buf, buf, buf)
	}
}
