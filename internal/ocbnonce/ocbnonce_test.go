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
