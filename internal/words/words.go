// Package words holds a 16-byte block as two little-endian words, the form
// in which OCB3 (package ocb), RAOCB and GCM keep offsets, checksums, GHASH
// states and counter blocks in registers and hand them to their kernels: a
// block assembled in memory from 8-byte stores and then loaded whole waits
// for the stores to reach the cache.
package words

import "encoding/binary"

// Block is a 16-byte block: W0 holds bytes 0..7 and W1 bytes 8..15, each
// read little-endian (the byte order of the kernels' memory).
type Block struct{ W0, W1 uint64 }

// Load returns the block in p[:16].
func Load(p []byte) Block {
	return Block{binary.LittleEndian.Uint64(p[:8]), binary.LittleEndian.Uint64(p[8:16])}
}

// LoadPartial returns p, shorter than 16 bytes, zero padded.
func LoadPartial(p []byte) Block {
	var x Block
	for i, b := range p {
		if i < 8 {
			x.W0 |= uint64(b) << (8 * i)
		} else {
			x.W1 |= uint64(b) << (8 * (i - 8))
		}
	}
	return x
}

// Store writes x to p[:16].
func (x Block) Store(p []byte) {
	binary.LittleEndian.PutUint64(p[:8], x.W0)
	binary.LittleEndian.PutUint64(p[8:16], x.W1)
}

// Bytes returns x as an array.
func (x Block) Bytes() [16]byte {
	var b [16]byte
	x.Store(b[:])
	return b
}

// Xor returns x ^ y.
func (x Block) Xor(y Block) Block { return Block{x.W0 ^ y.W0, x.W1 ^ y.W1} }

// XorPartial sets dst[i] = src[i] ^ byte i of x, for len(src) < 16: a
// final partial block's keystream.
func (x Block) XorPartial(dst, src []byte) {
	for i := range src {
		w := x.W0
		if i >= 8 {
			w = x.W1
		}
		dst[i] = src[i] ^ byte(w>>(8*(i%8)))
	}
}

// Put writes the first len(p) bytes of x, 8 to 16, to p: a tag of any
// length. A whole block goes as two words, not through a copy that would
// wait for them to reach memory.
func (x Block) Put(p []byte) {
	binary.LittleEndian.PutUint64(p, x.W0)
	if len(p) == 16 {
		binary.LittleEndian.PutUint64(p[8:], x.W1)
		return
	}
	for i := 8; i < len(p); i++ {
		p[i] = byte(x.W1 >> (8 * (i - 8)))
	}
}

// Matches reports whether p, 8 to 16 bytes, holds the first len(p) bytes of
// x: a tag check. It takes the same time wherever they differ: it ORs all
// differences before it looks at them.
func (x Block) Matches(p []byte) bool {
	d := x.W0 ^ binary.LittleEndian.Uint64(p)
	if len(p) == 16 {
		d |= x.W1 ^ binary.LittleEndian.Uint64(p[8:])
	} else {
		for i := 8; i < len(p); i++ {
			d |= uint64(byte(x.W1>>(8*(i-8))) ^ p[i])
		}
	}
	return d == 0
}

// Equal reports whether a and b hold the same bytes, in a time that depends
// only on their lengths: a tag check for tags of any length (CCM's 4 to 16
// bytes, AEGIS's 16 or 32, ROCCA-S's 32), eight bytes at a time where
// subtle.ConstantTimeCompare goes byte by byte.
func Equal(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	var d uint64
	i := 0
	for ; i+8 <= len(a); i += 8 {
		d |= binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
	}
	for ; i < len(a); i++ {
		d |= uint64(a[i] ^ b[i])
	}
	return d == 0
}
