package gpu

import (
	"encoding/binary"
	"sync"
)

// The lookup tables of the table-based kernels, as the kernels copy them
// into shared memory: Te0..Te3 (encryption rounds), Td0..Td3 (rounds of the
// equivalent inverse cipher) and the inverse S-box, one 32-bit little-endian
// word per entry. The byte order is that of the state words the kernels
// load: byte 0 of a column is the low byte of its word.
const (
	teOffset   = 0
	tdOffset   = 4096
	sinvOffset = 8192
	tablesSize = 9216
)

// tables is computed from the field arithmetic rather than pasted, on first
// use: at start-up it would delay every fae command by half a millisecond.
var tables = sync.OnceValue(func() *[tablesSize]byte {
	t := new([tablesSize]byte)
	var sbox, inv [256]byte
	for x := range 256 {
		s := affine(gfInv(byte(x)))
		sbox[x] = s
		inv[s] = byte(x)
	}
	for x := range 256 {
		s, is := sbox[x], inv[x]
		// Te0[x] is the column that byte x in row 0 contributes to after
		// SubBytes and MixColumns: (2s, s, s, 3s); Td0[x] likewise after
		// InvSubBytes and InvMixColumns: (14is, 9is, 13is, 11is). Table r is
		// table 0 rotated by r bytes.
		te := uint32(gfMul(s, 2)) | uint32(s)<<8 | uint32(s)<<16 | uint32(gfMul(s, 3))<<24
		td := uint32(gfMul(is, 14)) | uint32(gfMul(is, 9))<<8 | uint32(gfMul(is, 13))<<16 | uint32(gfMul(is, 11))<<24
		for r := range 4 {
			binary.LittleEndian.PutUint32(t[teOffset+1024*r+4*x:], te<<(8*r)|te>>(32-8*r))
			binary.LittleEndian.PutUint32(t[tdOffset+1024*r+4*x:], td<<(8*r)|td>>(32-8*r))
		}
		binary.LittleEndian.PutUint32(t[sinvOffset+4*x:], uint32(is))
	}
	return t
})

// gfMul multiplies in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
func gfMul(a, b byte) byte {
	var p byte
	for ; b != 0; b >>= 1 {
		if b&1 != 0 {
			p ^= a
		}
		a = a<<1 ^ 0x1b*(a>>7)
	}
	return p
}

// gfInv returns a^254, the inverse of a (0 for 0).
func gfInv(a byte) byte {
	r := byte(1)
	for range 254 {
		r = gfMul(r, a)
	}
	return r
}

func affine(b byte) byte {
	r := b
	for i := 1; i <= 4; i++ {
		r ^= b<<i | b>>(8-i)
	}
	return r ^ 0x63
}
