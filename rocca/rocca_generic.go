// The portable kernel. A round of ROCCA-S runs eight AES rounds
// AES(x, k) = MixColumns(ShiftRows(SubBytes(x))) ^ k, all on blocks of the
// old state: four that do not depend on the round's input (the new S5 and
// S6, and the keystream) and four that do (the new S1..S4). Each four run
// together on internal/aes's constant-time bitsliced round, aes.Round4.

package rocca

import (
	"encoding/binary"

	"github.com/faelabs/fae/internal/aes"
)

// stateWords is the state as pairs of little-endian words, the form the portable
// kernel computes on.
type stateWords [7][2]uint64

func (s *state) words() stateWords {
	var w stateWords
	for i := range w {
		w[i] = [2]uint64{binary.LittleEndian.Uint64(s[i][:8]), binary.LittleEndian.Uint64(s[i][8:])}
	}
	return w
}

func (s *state) setWords(w *stateWords) {
	for i := range w {
		binary.LittleEndian.PutUint64(s[i][:8], w[i][0])
		binary.LittleEndian.PutUint64(s[i][8:], w[i][1])
	}
}

func load(b []byte) [2]uint64 {
	return [2]uint64{binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:16])}
}

func store(b []byte, x [2]uint64) {
	binary.LittleEndian.PutUint64(b[:8], x[0])
	binary.LittleEndian.PutUint64(b[8:16], x[1])
}

func xor(x, y [2]uint64) [2]uint64 { return [2]uint64{x[0] ^ y[0], x[1] ^ y[1]} }

// rounds runs the AES rounds of R(S, x0, x1) that do not depend on x0 and
// x1: h = AES(S4, S3), AES(S5, S4), the new S5 and S6, and AES(S3^S5, S0),
// AES(S4^S6, S2), the keystream of the round's 32-byte block.
func (w *stateWords) rounds(h *[4][2]uint64) {
	k := [4][2]uint64{w[3], w[4], w[0], w[2]}
	h[0], h[1], h[2], h[3] = w[4], w[5], xor(w[3], w[5]), xor(w[4], w[6])
	aes.Round4(h, h, &k)
}

// update is R(S, x0, x1), given h from rounds: S1..S4 become AES(S0, x0),
// AES(S1, S0), AES(S2, S6) and AES(S3, x1), which Round4 may write over
// S0..S3 as it reads all of them first.
func (w *stateWords) update(h *[4][2]uint64, x0, x1 [2]uint64) {
	k := [4][2]uint64{x0, w[0], w[6], x1}
	s0 := xor(w[6], w[1])
	aes.Round4((*[4][2]uint64)(w[1:5]), (*[4][2]uint64)(w[:4]), &k)
	w[0], w[5], w[6] = s0, h[0], h[1]
}

// absorb is R(S, x0, x1).
func (w *stateWords) absorb(x0, x1 [2]uint64) {
	var h [4][2]uint64
	w.rounds(&h)
	w.update(&h, x0, x1)
}

// z0 || z1, the initialisation constants, in memory order.
var z = [blockSize]byte{
	0xcd, 0x65, 0xef, 0x23, 0x91, 0x44, 0x37, 0x71, 0x22, 0xae, 0x28, 0xd7, 0x98, 0x2f, 0x8a, 0x42,
	0xbc, 0xdb, 0x89, 0x81, 0xa5, 0xdb, 0xb5, 0xe9, 0x2f, 0x3b, 0x4d, 0xec, 0xcf, 0xfb, 0xc0, 0xb5,
}

// initGeneric sets s from key and the 16-byte nonce, runs the 16 rounds
// that absorb Z0 || Z1 and adds the key in.
func initGeneric(s *state, key *[KeySize]byte, nonce []byte) {
	k0, k1, n := load(key[:]), load(key[16:]), load(nonce)
	z0, z1 := load(z[:]), load(z[16:])
	w := stateWords{k1, n, z0, k0, z1, xor(n, k1), {}}
	for range 16 {
		w.absorb(z0, z1)
	}
	for i, k := range [7][2]uint64{k0, k0, k1, k0, k0, k1, k1} {
		w[i] = xor(w[i], k)
	}
	s.setWords(&w)
}

// finalizeGeneric runs the 16 rounds that absorb the bit lengths of the
// associated data and the message, and writes the tag.
func finalizeGeneric(s *state, tag *[TagSize]byte, adLen, mLen uint64) {
	w := s.words()
	x0, x1 := [2]uint64{adLen << 3, adLen >> 61}, [2]uint64{mLen << 3, mLen >> 61}
	for range 16 {
		w.absorb(x0, x1)
	}
	store(tag[:], xor(xor(w[0], w[1]), xor(w[2], w[3])))
	store(tag[16:], xor(xor(w[4], w[5]), w[6]))
}

// absorbGeneric runs n rounds that absorb the 32-byte blocks of src.
func absorbGeneric(s *state, src []byte, n int) {
	w := s.words()
	for i := range n {
		b := src[i*blockSize:]
		w.absorb(load(b), load(b[16:]))
	}
	s.setWords(&w)
}

// encryptGeneric encrypts the whole blocks of src into dst, which is as long
// as src and may be src itself.
func encryptGeneric(s *state, dst, src []byte) {
	w := s.words()
	var h [4][2]uint64
	for ; len(src) >= blockSize; dst, src = dst[blockSize:], src[blockSize:] {
		m0, m1 := load(src), load(src[16:])
		w.rounds(&h)
		store(dst, xor(h[2], m0))
		store(dst[16:], xor(h[3], m1))
		w.update(&h, m0, m1)
	}
	s.setWords(&w)
}

// decryptGeneric is the inverse of encryptGeneric.
func decryptGeneric(s *state, dst, src []byte) {
	w := s.words()
	var h [4][2]uint64
	for ; len(src) >= blockSize; dst, src = dst[blockSize:], src[blockSize:] {
		w.rounds(&h)
		m0, m1 := xor(h[2], load(src)), xor(h[3], load(src[16:]))
		store(dst, m0)
		store(dst[16:], m1)
		w.update(&h, m0, m1)
	}
	s.setWords(&w)
}
