package lea

import (
	"crypto/subtle"
	"encoding/binary"
	"math/bits"
)

// delta are the key schedule constants: the hexadecimal fraction digits of
// sqrt(766965), where 766965 spells "LEA" in ASCII.
var delta = [8]uint32{
	0xc3efe9db, 0x44626b02, 0x79e27c8a, 0x78df30ec,
	0x715ea49e, 0xc785da0a, 0xe04ef22a, 0xe5c40957,
}

// keyRot are the rotations of the six key schedule words (four with a
// 128-bit key).
var keyRot = [6]int{1, 3, 6, 11, 13, 17}

func rol(x uint32, n int) uint32 { return bits.RotateLeft32(x, n) }

// expandKey fills b.rk from a key of 16, 24 or 32 bytes. The schedule adds
// (it does not XOR) rotated constants to the key words.
func expandKey(b *Block, key []byte) {
	var t [8]uint32
	for i := range len(key) / 4 {
		t[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	for i := range b.rounds {
		rk := b.rk[6*i : 6*i+6]
		switch len(key) {
		case 16:
			d := delta[i%4]
			for j := range 4 {
				t[j] = rol(t[j]+rol(d, i+j), keyRot[j])
			}
			rk[0], rk[1], rk[2], rk[3], rk[4], rk[5] = t[0], t[1], t[2], t[1], t[3], t[1]
		case 24:
			d := delta[i%6]
			for j := range 6 {
				t[j] = rol(t[j]+rol(d, i+j), keyRot[j])
				rk[j] = t[j]
			}
		case 32:
			d := delta[i%8]
			for j := range 6 {
				k := (6*i + j) % 8
				t[k] = rol(t[k]+rol(d, i+j), keyRot[j])
				rk[j] = t[k]
			}
		}
	}
}

// encryptBlocksGeneric encrypts len(src)/16 blocks; len(dst) >= len(src).
func encryptBlocksGeneric(b *Block, dst, src []byte) {
	for ; len(src) >= BlockSize; dst, src = dst[BlockSize:], src[BlockSize:] {
		x0, x1, x2, x3 := b.encryptState(
			binary.LittleEndian.Uint32(src[0:]),
			binary.LittleEndian.Uint32(src[4:]),
			binary.LittleEndian.Uint32(src[8:]),
			binary.LittleEndian.Uint32(src[12:]))
		binary.LittleEndian.PutUint32(dst[0:], x0)
		binary.LittleEndian.PutUint32(dst[4:], x1)
		binary.LittleEndian.PutUint32(dst[8:], x2)
		binary.LittleEndian.PutUint32(dst[12:], x3)
	}
}

// encryptWordsGeneric is EncryptWords in pure Go.
func encryptWordsGeneric(b *Block, w0, w1 uint64) (uint64, uint64) {
	x0, x1, x2, x3 := b.encryptState(uint32(w0), uint32(w0>>32), uint32(w1), uint32(w1>>32))
	return uint64(x0) | uint64(x1)<<32, uint64(x2) | uint64(x3)<<32
}

// encryptState encrypts the block whose little-endian words are x0..x3. It
// walks the round keys by reslicing, which keeps index arithmetic and bounds
// checks out of the loop: the serial steps of modes (nonce, tag, CBC-MAC)
// wait on it.
func (b *Block) encryptState(x0, x1, x2, x3 uint32) (uint32, uint32, uint32, uint32) {
	for rk := b.rk[:6*b.rounds]; len(rk) >= 6; rk = rk[6:] {
		x0, x1, x2, x3 = encRound(x0, x1, x2, x3, (*[6]uint32)(rk))
	}
	return x0, x1, x2, x3
}

func encRound(x0, x1, x2, x3 uint32, k *[6]uint32) (uint32, uint32, uint32, uint32) {
	return rol((x0^k[0])+(x1^k[1]), 9), rol((x1^k[2])+(x2^k[3]), -5), rol((x2^k[4])+(x3^k[5]), -3), x0
}

// decryptBlocksGeneric decrypts len(src)/16 blocks; len(dst) >= len(src).
// Each round undoes the encryption round: word 0 comes back from word 3,
// and each next word by subtraction, from the one just recovered.
func decryptBlocksGeneric(b *Block, dst, src []byte) {
	for ; len(src) >= BlockSize; dst, src = dst[BlockSize:], src[BlockSize:] {
		x0 := binary.LittleEndian.Uint32(src[0:])
		x1 := binary.LittleEndian.Uint32(src[4:])
		x2 := binary.LittleEndian.Uint32(src[8:])
		x3 := binary.LittleEndian.Uint32(src[12:])
		for i := b.rounds - 1; i >= 0; i-- {
			k := (*[6]uint32)(b.rk[6*i:])
			y0 := x3
			y1 := (rol(x0, -9) - (y0 ^ k[0])) ^ k[1]
			y2 := (rol(x1, 5) - (y1 ^ k[2])) ^ k[3]
			y3 := (rol(x2, 3) - (y2 ^ k[4])) ^ k[5]
			x0, x1, x2, x3 = y0, y1, y2, y3
		}
		binary.LittleEndian.PutUint32(dst[0:], x0)
		binary.LittleEndian.PutUint32(dst[4:], x1)
		binary.LittleEndian.PutUint32(dst[8:], x2)
		binary.LittleEndian.PutUint32(dst[12:], x3)
	}
}

// ctrBlocksGeneric XORs len(src)/16 blocks of src with the encryptions of
// the counter blocks hi||lo, hi||lo+1, ... (big-endian halves) into dst.
// The caller keeps lo from wrapping.
func ctrBlocksGeneric(b *Block, dst, src []byte, hi, lo uint64) {
	var ks [BlockSize]byte
	for ; len(src) >= BlockSize; dst, src = dst[BlockSize:], src[BlockSize:] {
		binary.BigEndian.PutUint64(ks[:8], hi)
		binary.BigEndian.PutUint64(ks[8:], lo)
		encryptBlocksGeneric(b, ks[:], ks[:])
		subtle.XORBytes(dst[:BlockSize], src[:BlockSize], ks[:])
		lo++
	}
}
