package aes

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// gfMul multiplies in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1, the slow way.
func gfMul(a, b byte) byte {
	var p byte
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			p ^= a
		}
		a = a<<1 ^ (a>>7)*0x1b
	}
	return p
}

// refSbox computes the S-box from its definition (FIPS-197 5.1.1): the
// multiplicative inverse, then the affine map b_i ^ b_i+4 ^ b_i+5 ^ b_i+6 ^
// b_i+7 ^ 0x63.
func refSbox() (s, inv [256]byte) {
	for x := range 256 {
		var y byte
		for c := range 256 {
			if gfMul(byte(x), byte(c)) == 1 {
				y = byte(c)
			}
		}
		r := y
		for i := 1; i <= 4; i++ {
			r ^= y<<i | y>>(8-i)
		}
		s[x] = r ^ 0x63
		inv[s[x]] = byte(x)
	}
	return s, inv
}

// bitsliceBytes puts 64 byte lanes into q: bit i of byte k goes to bit k of
// q[i]. The S-box circuit does not care about lane order.
func bitsliceBytes(in *[64]byte) (q [8]uint64) {
	for k, x := range in {
		for i := range 8 {
			q[i] |= uint64(x>>i&1) << k
		}
	}
	return q
}

func unbitsliceBytes(q *[8]uint64) (out [64]byte) {
	for k := range out {
		for i := range 8 {
			out[k] |= byte(q[i]>>k&1) << i
		}
	}
	return out
}

func TestSboxCircuit(t *testing.T) {
	s, inv := refSbox()
	if s[0x00] != 0x63 || s[0x53] != 0xed || inv[0x00] != 0x52 {
		t.Fatal("reference S-box is wrong") // FIPS-197 Figures 7 and 14
	}
	for base := 0; base < 256; base += 64 {
		var in [64]byte
		for k := range in {
			in[k] = byte(base + k)
		}
		q := bitsliceBytes(&in)
		q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0] = sbox(q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0])
		out := unbitsliceBytes(&q)
		for k, x := range in {
			if out[k]^0x63 != s[x] {
				t.Fatalf("sbox(%#02x) = %#02x, want %#02x", x, out[k]^0x63, s[x])
			}
		}
		q = bitsliceBytes(&in)
		q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0] = invSbox(q[7], q[6], q[5], q[4], q[3], q[2], q[1], q[0])
		out = unbitsliceBytes(&q)
		for k, x := range in {
			if out[k] != inv[x^0x63] {
				t.Fatalf("invSbox(%#02x) = %#02x, want %#02x", x, out[k], inv[x^0x63])
			}
		}
	}
	for range 100 {
		w := rand.Uint32()
		want := uint32(s[w&0xff]) | uint32(s[w>>8&0xff])<<8 | uint32(s[w>>16&0xff])<<16 | uint32(s[w>>24])<<24
		if got := subWord(w); got != want {
			t.Fatalf("subWord(%#08x) = %#08x, want %#08x", w, got, want)
		}
	}
}

func TestBitsliceLayout(t *testing.T) {
	// Byte (r, c) of block k must land on bit 16r + 4c + k of the words.
	var src [64]byte
	for k := range 4 {
		for c := range 4 {
			for r := range 4 {
				src[16*k+4*c+r] = byte(16*r + 4*c + k)
			}
		}
	}
	var q [8]uint64
	loadBlocks(&q, src[:])
	for p := range 64 {
		var x byte
		for i := range 8 {
			x |= byte(q[i]>>p&1) << i
		}
		if x != byte(p) {
			t.Fatalf("bit %d holds byte %d", p, x)
		}
	}
	var dst [64]byte
	storeBlocks(dst[:], &q)
	if dst != src {
		t.Fatalf("storeBlocks(loadBlocks(x)) = %x, want %x", dst, src)
	}

	// A compressed key expands to the same layout, one copy per block.
	var key [16]byte
	for c := range 4 {
		for r := range 4 {
			key[4*c+r] = byte(16*r + 4*c)
		}
	}
	var ck [15][2]uint64
	var rk [15][8]uint64
	ck[0][0], ck[0][1] = compressKey(binary.LittleEndian.Uint64(key[:8]), binary.LittleEndian.Uint64(key[8:]), 0)
	expandRoundKeys(&rk, &ck, 0, false)
	for p := range 64 {
		var x byte
		for i := range 8 {
			x |= byte(rk[0][i]>>p&1) << i
		}
		if x != byte(p&^3) {
			t.Fatalf("key bit %d holds byte %d", p, x)
		}
	}
}
