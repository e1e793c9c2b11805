package ocbnonce

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestBlock checks Block against RFC 7253's byte-wise definition for every
// nonce and tag size.
func TestBlock(t *testing.T) {
	r := rand.NewChaCha8([32]byte{1})
	for size := 1; size <= 15; size++ {
		for tagSize := 1; tagSize <= 16; tagSize++ {
			nonce := make([]byte, size)
			r.Read(nonce)
			var want [16]byte
			want[0] = byte(tagSize*8%128) << 1
			want[15-size] |= 1
			copy(want[16-size:], nonce)
			hi, lo := Block(nonce, tagSize)
			if hi != binary.BigEndian.Uint64(want[:8]) || lo != binary.BigEndian.Uint64(want[8:]) {
				t.Errorf("nonce %x, tag %d: got %016x%016x, want %x", nonce, tagSize, hi, lo, want)
			}
		}
	}
}

// TestKtopInputNotZero checks the claim of package ocb's documentation on
// IACR ePrint 2023/326: for whole-byte nonces the block that OCB3 enciphers
// into Ktop (the nonce block with its low 6 bits cleared) is never the zero
// block behind L_*, since the 1 bit in front of the nonce lies above them.
func TestKtopInputNotZero(t *testing.T) {
	for size := 1; size <= 15; size++ {
		for tagSize := 1; tagSize <= 16; tagSize++ {
			if hi, lo := Block(make([]byte, size), tagSize); hi == 0 && lo&^0x3f == 0 {
				t.Errorf("nonce of %d zero bytes, tag %d: Ktop input is the zero block", size, tagSize)
			}
		}
	}
}
