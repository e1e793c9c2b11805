// The portable kernel: AES bitsliced on 64-bit words, four blocks at a time,
// with no table lookup and no branch on secret data.
//
// State layout. Four blocks are held in eight words q[0..7]: q[b] holds bit b
// of all 64 bytes, bit 16*r + 4*c + k of it standing for byte (row r, column
// c) of block k. A row is thus a 16-bit lane, and moving every byte one row up
// is a rotation of the word by 16 bits (the core of MixColumns), while
// ShiftRows would have to rotate each lane by a different amount.
//
// Fixslicing (Adomnicai and Peyrin, "Fixslicing AES-like Ciphers", TCHES
// 2021) removes ShiftRows. Encryption keeps T_i = SR^-i(S_i) instead of the
// state S_i after round i, which turns round i into
//
//	T_i = MC_j(SB(T_i-1)) ^ SR^-i(K_i),  MC_j = SR^-j ∘ MC ∘ SR^j, j = i mod 4,
//
// where MC_j mixes byte (r, c) with bytes (r+d, c+j*d): rotations of the
// word that move across rows and columns at once (rotDiag*). After the last
// round, which has no MixColumns, the ciphertext is SR^Nr(T_Nr): nothing for
// AES-192 (Nr = 12) and SR^2 (shiftRows2) for AES-128 and AES-256. The
// decryption mirrors this with U_m = SR^m(X_m), m counting the rounds done,
// the equivalent inverse cipher's keys, and InvMC = MC ∘ P (see invMix).
//
// The S-box is Boyar and Peralta's 113-gate circuit for the AES S-box (32 AND,
// 81 XOR) less its final constant, S(x)^0x63. That constant passes unchanged
// through MixColumns and the row permutations (every byte of the state gets
// the same 0x63), so it is folded into the round keys. The inverse S-box is
// L∘S∘L, with L the inverse of the S-box's affine map, its constant again
// folded into the keys (see expandKeyGeneric).

package aes

import (
	"crypto/subtle"
	"encoding/binary"
	"math/bits"
)

// bitslicedKey holds the round keys as the bitsliced kernel adds them, each
// compressed to two words: bit 16*r + 4*c + (b&3) of word b>>2 is bit b of
// byte (r, c). Expanding a word replicates each bit into the four block slots
// of its nibble (expandRoundKeys). The keys are already permuted for
// fixslicing and carry the folded S-box constants. 480 bytes in all.
type bitslicedKey struct {
	enc [15][2]uint64 // SR^-i(K_i), ^0x63 for i > 0
	dec [15][2]uint64 // SR^m(dec[m]), ^0x63 for m < Nr
}

func expandKeyGeneric(b *Block, key []byte) {
	nk := len(key) / 4
	nr := b.rounds
	n := 4 * (nr + 1)
	// w holds the key schedule's words, byte 0 of each in the low bits.
	var w [60]uint32
	for i := range nk {
		w[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	rcon := uint32(1)
	for i := nk; i < n; i++ {
		t := w[i-1]
		if i%nk == 0 {
			t = subWord(bits.RotateLeft32(t, -8)) ^ rcon
			rcon = mulx(rcon)
		} else if nk > 6 && i%nk == 4 {
			t = subWord(t)
		}
		w[i] = w[i-nk] ^ t
	}
	for i, x := range w[:n] {
		binary.LittleEndian.PutUint32(b.enc[4*i:], x)
	}

	var dk [4]uint32
	for m := 0; m <= nr; m++ {
		ek := [4]uint32(w[4*m:])
		copy(dk[:], w[4*(nr-m):])
		if m > 0 && m < nr {
			for c := range dk {
				dk[c] = invMixColumn(dk[c])
			}
		}
		for c, x := range dk {
			binary.LittleEndian.PutUint32(b.dec[16*m+4*c:], x)
		}
		if m > 0 {
			ek = xorColumns(ek, 0x63636363)
		}
		if m < nr {
			dk = xorColumns(dk, 0x63636363)
		}
		b.bs.enc[m] = compressKey(shiftRowsPow(ek, -m))
		b.bs.dec[m] = compressKey(shiftRowsPow(dk, m))
	}
}

// subWord applies the S-box to the four bytes of w. Every bit position of a
// word is a lane of the bitsliced circuit, so q[b] = w>>b puts bit b of each
// byte in lanes 0, 8, 16 and 24.
func subWord(w uint32) uint32 {
	var q [8]uint64
	for i := range q {
		q[i] = uint64(w >> i)
	}
	sbox(&q)
	var r uint32
	for i, x := range q {
		r |= uint32(x) & 0x01010101 << i
	}
	return r ^ 0x63636363
}

// mulx multiplies each of the four bytes of w by x in GF(2^8).
func mulx(w uint32) uint32 {
	return (w&0x7f7f7f7f)<<1 ^ (w>>7&0x01010101)*0x1b
}

// invMixColumn applies InvMixColumns to one column (row r in byte r). The
// matrix factors as MixColumns times circ(05, 00, 04, 00).
func invMixColumn(x uint32) uint32 {
	y := x ^ mulx(mulx(x^bits.RotateLeft32(x, 16)))
	r := bits.RotateLeft32(y, -8)
	s := y ^ r
	return mulx(s) ^ r ^ bits.RotateLeft32(s, 16)
}

func xorColumns(k [4]uint32, x uint32) [4]uint32 {
	return [4]uint32{k[0] ^ x, k[1] ^ x, k[2] ^ x, k[3] ^ x}
}

// shiftRowsPow applies ShiftRows n times (n mod 4, n may be negative) to a
// round key held as four columns.
func shiftRowsPow(k [4]uint32, n int) [4]uint32 {
	var o [4]uint32
	for c := range o {
		for r := range 4 {
			o[c] |= k[(c+n*r)&3] & (0xff << (8 * r))
		}
	}
	return o
}

// compressKey turns a round key into the compressed bitsliced form of
// bitslicedKey: it lays out the bytes as for one block (see loadBlock), then
// gathers the low nibbles into one word and the high nibbles into the other.
func compressKey(k [4]uint32) [2]uint64 {
	lo, hi := spreadBlock(uint64(k[0])|uint64(k[1])<<32, uint64(k[2])|uint64(k[3])<<32)
	const m = 0x0f0f0f0f0f0f0f0f
	return [2]uint64{lo&m | (hi&m)<<4, lo>>4&m | hi&^m}
}

// expandRoundKeys expands rounds+1 compressed keys to one word per bit.
func expandRoundKeys(rk *[15][8]uint64, ck *[15][2]uint64, rounds int) {
	const m = 0x1111111111111111
	for i := 0; i <= rounds; i++ {
		k0, k1 := ck[i][0], ck[i][1]
		rk[i] = [8]uint64{
			(k0 & m) * 15, (k0 >> 1 & m) * 15, (k0 >> 2 & m) * 15, (k0 >> 3 & m) * 15,
			(k1 & m) * 15, (k1 >> 1 & m) * 15, (k1 >> 2 & m) * 15, (k1 >> 3 & m) * 15,
		}
	}
}

// swapMove exchanges the bits of b selected by m with those of a selected by
// m<<s.
func swapMove(a, b, m uint64, s uint) (uint64, uint64) {
	t := (a>>s ^ b) & m
	return a ^ t<<s, b ^ t
}

// spreadBlock takes a block as two little-endian words and returns its
// even columns (0 and 2) and odd columns (1 and 3), each with the bytes of the
// two columns interleaved: byte 2r + c>>1 is byte (r, c). After ortho, byte
// 2r + c>>1 of word 4*(c&1) + k holds the bits of (r, c) of block k at bit
// 8*(2r + c>>1) + 4*(c&1) + k = 16r + 4c + k, the state layout.
func spreadBlock(lo, hi uint64) (uint64, uint64) {
	lo, hi = swapMove(lo, hi, 0xffffffff, 32)
	return shuffle(lo), shuffle(hi)
}

// gatherBlock inverts spreadBlock.
func gatherBlock(even, odd uint64) (uint64, uint64) {
	return swapMove(unshuffle(even), unshuffle(odd), 0xffffffff, 32)
}

// shuffle interleaves the bytes of the two halves of x: a0..a3 b0..b3 becomes
// a0 b0 a1 b1 a2 b2 a3 b3.
func shuffle(x uint64) uint64 {
	t := (x>>16 ^ x) & 0x00000000ffff0000
	x ^= t ^ t<<16
	t = (x>>8 ^ x) & 0x0000ff000000ff00
	return x ^ t ^ t<<8
}

func unshuffle(x uint64) uint64 {
	t := (x>>8 ^ x) & 0x0000ff000000ff00
	x ^= t ^ t<<8
	t = (x>>16 ^ x) & 0x00000000ffff0000
	return x ^ t ^ t<<16
}

// ortho transposes the 8x8 bit matrices formed by byte j of the eight words:
// bit b of byte j of word i trades places with bit i of byte j of word b. It
// is its own inverse.
func ortho(q *[8]uint64) {
	const m1, m2, m4 = 0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f
	q[0], q[1] = swapMove(q[0], q[1], m1, 1)
	q[2], q[3] = swapMove(q[2], q[3], m1, 1)
	q[4], q[5] = swapMove(q[4], q[5], m1, 1)
	q[6], q[7] = swapMove(q[6], q[7], m1, 1)
	q[0], q[2] = swapMove(q[0], q[2], m2, 2)
	q[1], q[3] = swapMove(q[1], q[3], m2, 2)
	q[4], q[6] = swapMove(q[4], q[6], m2, 2)
	q[5], q[7] = swapMove(q[5], q[7], m2, 2)
	q[0], q[4] = swapMove(q[0], q[4], m4, 4)
	q[1], q[5] = swapMove(q[1], q[5], m4, 4)
	q[2], q[6] = swapMove(q[2], q[6], m4, 4)
	q[3], q[7] = swapMove(q[3], q[7], m4, 4)
}

// loadBlocks bitslices up to four blocks from src; missing blocks are zero.
func loadBlocks(q *[8]uint64, src []byte) {
	for k := range 4 {
		var lo, hi uint64
		if len(src) >= 16*k+16 {
			lo = binary.LittleEndian.Uint64(src[16*k:])
			hi = binary.LittleEndian.Uint64(src[16*k+8:])
		}
		q[k], q[k+4] = spreadBlock(lo, hi)
	}
	ortho(q)
}

// storeBlocks writes the first len(dst)/16 blocks of q, which it destroys.
func storeBlocks(dst []byte, q *[8]uint64) {
	ortho(q)
	for k := 0; k < 4 && len(dst) >= 16*k+16; k++ {
		lo, hi := gatherBlock(q[k], q[k+4])
		binary.LittleEndian.PutUint64(dst[16*k:], lo)
		binary.LittleEndian.PutUint64(dst[16*k+8:], hi)
	}
}

func encryptBlocksGeneric(b *Block, dst, src []byte) {
	if len(src) == 0 {
		return
	}
	var rk [15][8]uint64
	expandRoundKeys(&rk, &b.bs.enc, b.rounds)
	var q [8]uint64
	for len(src) > 0 {
		n := min(len(src), 64)
		loadBlocks(&q, src[:n])
		encrypt4(&q, &rk, b.rounds)
		storeBlocks(dst[:n], &q)
		dst, src = dst[n:], src[n:]
	}
}

func decryptBlocksGeneric(b *Block, dst, src []byte) {
	if len(src) == 0 {
		return
	}
	var rk [15][8]uint64
	expandRoundKeys(&rk, &b.bs.dec, b.rounds)
	var q [8]uint64
	for len(src) > 0 {
		n := min(len(src), 64)
		loadBlocks(&q, src[:n])
		decrypt4(&q, &rk, b.rounds)
		storeBlocks(dst[:n], &q)
		dst, src = dst[n:], src[n:]
	}
}

func ctrGeneric(b *Block, dst, src []byte, iv [16]byte) [16]byte {
	hi := binary.BigEndian.Uint64(iv[:8])
	lo := binary.BigEndian.Uint64(iv[8:])
	if len(src) > 0 {
		var rk [15][8]uint64
		expandRoundKeys(&rk, &b.bs.enc, b.rounds)
		var q [8]uint64
		for len(src) > 0 {
			// Four counter blocks, as little-endian words of their bytes.
			chi, clo := hi, lo
			for k := range 4 {
				q[k], q[k+4] = spreadBlock(bits.ReverseBytes64(chi), bits.ReverseBytes64(clo))
				var c uint64
				clo, c = bits.Add64(clo, 1, 0)
				chi += c
			}
			ortho(&q)
			encrypt4(&q, &rk, b.rounds)
			ortho(&q)
			n := min(len(src), 64)
			if n == 64 {
				for k := range 4 {
					ks0, ks1 := gatherBlock(q[k], q[k+4])
					s := src[16*k : 16*k+16]
					d := dst[16*k : 16*k+16]
					binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(s)^ks0)
					binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(s[8:])^ks1)
				}
			} else {
				var ks [64]byte
				for k := range 4 {
					ks0, ks1 := gatherBlock(q[k], q[k+4])
					binary.LittleEndian.PutUint64(ks[16*k:], ks0)
					binary.LittleEndian.PutUint64(ks[16*k+8:], ks1)
				}
				subtle.XORBytes(dst, src, ks[:n])
			}
			var c uint64
			lo, c = bits.Add64(lo, uint64(n+15)/16, 0)
			hi += c
			dst, src = dst[n:], src[n:]
		}
	}
	var next [16]byte
	binary.BigEndian.PutUint64(next[:8], hi)
	binary.BigEndian.PutUint64(next[8:], lo)
	return next
}

// encrypt4 encrypts the four bitsliced blocks in q (see the file comment).
func encrypt4(q *[8]uint64, rk *[15][8]uint64, rounds int) {
	addRoundKey(q, &rk[0])
	for i := 1; i < rounds; i++ {
		sbox(q)
		switch i & 3 {
		case 0:
			mixColumns0(q, &rk[i])
		case 1:
			mixColumns1(q, &rk[i])
		case 2:
			mixColumns2(q, &rk[i])
		default:
			mixColumns3(q, &rk[i])
		}
	}
	sbox(q)
	addRoundKey(q, &rk[rounds])
	if rounds&3 == 2 {
		shiftRows2(q)
	}
}

// decrypt4 decrypts the four bitsliced blocks in q. Round m applies
// SR^m ∘ InvMC ∘ SR^-m = MC_j ∘ P_j with j = -m mod 4.
func decrypt4(q *[8]uint64, rk *[15][8]uint64, rounds int) {
	addRoundKey(q, &rk[0])
	for m := 1; m < rounds; m++ {
		invSbox(q)
		switch m & 3 {
		case 0:
			invMixEven(q)
			mixColumns0(q, &rk[m])
		case 1:
			invMixOdd(q)
			mixColumns3(q, &rk[m])
		case 2:
			invMixEven(q)
			mixColumns2(q, &rk[m])
		default:
			invMixOdd(q)
			mixColumns1(q, &rk[m])
		}
	}
	invSbox(q)
	addRoundKey(q, &rk[rounds])
	if rounds&3 == 2 {
		shiftRows2(q)
	}
}

func addRoundKey(q, k *[8]uint64) {
	for i := range q {
		q[i] ^= k[i]
	}
}

// shiftRows2 applies ShiftRows twice: rows 1 and 3 turn by two columns.
func shiftRows2(q *[8]uint64) {
	for i, x := range q {
		t := (x>>8 ^ x) & 0x00ff000000ff0000
		q[i] = x ^ t ^ t<<8
	}
}

// rotDiag1 moves byte (r+1, c+1) to (r, c); rotDiag2 and rotDiag3 move
// (r+1, c+2) and (r+1, c+3); rotDiag11 moves (r+2, c+2), which is rotDiag1 and
// rotDiag3 applied twice. Byte (r+1, c) is a plain rotation by 16.
func rotDiag1(x uint64) uint64 {
	return bits.RotateLeft64(x, -20)&0x0fff0fff0fff0fff | bits.RotateLeft64(x, -4)&0xf000f000f000f000
}

func rotDiag2(x uint64) uint64 {
	return bits.RotateLeft64(x, -24)&0x00ff00ff00ff00ff | bits.RotateLeft64(x, -8)&0xff00ff00ff00ff00
}

func rotDiag3(x uint64) uint64 {
	return bits.RotateLeft64(x, -12)&0xfff0fff0fff0fff0 | bits.RotateLeft64(x, -28)&0x000f000f000f000f
}

func rotDiag11(x uint64) uint64 {
	return bits.RotateLeft64(x, -40)&0x00ff00ff00ff00ff | bits.RotateLeft64(x, -24)&0xff00ff00ff00ff00
}

// MixColumns with rows taken along a rotation R (R(x) at (r, c) is the byte
// R brings there) is 2x + 3R(x) + R²(x) + R³(x) = 2s + R(x) + R²(s) with
// s = x + R(x). mixColumnsJ uses the R of MC_j and adds the round key k.
// mul2 is the bitsliced doubling: bit b of 2s is s[b-1], plus s[7] for bits
// 0, 1, 3 and 4.

func mixColumns0(q, k *[8]uint64) {
	q0, q1, q2, q3, q4, q5, q6, q7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	r0 := bits.RotateLeft64(q0, -16)
	r1 := bits.RotateLeft64(q1, -16)
	r2 := bits.RotateLeft64(q2, -16)
	r3 := bits.RotateLeft64(q3, -16)
	r4 := bits.RotateLeft64(q4, -16)
	r5 := bits.RotateLeft64(q5, -16)
	r6 := bits.RotateLeft64(q6, -16)
	r7 := bits.RotateLeft64(q7, -16)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	q[0] = s7 ^ r0 ^ bits.RotateLeft64(s0, 32) ^ k[0]
	q[1] = s0 ^ s7 ^ r1 ^ bits.RotateLeft64(s1, 32) ^ k[1]
	q[2] = s1 ^ r2 ^ bits.RotateLeft64(s2, 32) ^ k[2]
	q[3] = s2 ^ s7 ^ r3 ^ bits.RotateLeft64(s3, 32) ^ k[3]
	q[4] = s3 ^ s7 ^ r4 ^ bits.RotateLeft64(s4, 32) ^ k[4]
	q[5] = s4 ^ r5 ^ bits.RotateLeft64(s5, 32) ^ k[5]
	q[6] = s5 ^ r6 ^ bits.RotateLeft64(s6, 32) ^ k[6]
	q[7] = s6 ^ r7 ^ bits.RotateLeft64(s7, 32) ^ k[7]
}

func mixColumns1(q, k *[8]uint64) {
	q0, q1, q2, q3, q4, q5, q6, q7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	r0, r1, r2, r3 := rotDiag1(q0), rotDiag1(q1), rotDiag1(q2), rotDiag1(q3)
	r4, r5, r6, r7 := rotDiag1(q4), rotDiag1(q5), rotDiag1(q6), rotDiag1(q7)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	q[0] = s7 ^ r0 ^ rotDiag11(s0) ^ k[0]
	q[1] = s0 ^ s7 ^ r1 ^ rotDiag11(s1) ^ k[1]
	q[2] = s1 ^ r2 ^ rotDiag11(s2) ^ k[2]
	q[3] = s2 ^ s7 ^ r3 ^ rotDiag11(s3) ^ k[3]
	q[4] = s3 ^ s7 ^ r4 ^ rotDiag11(s4) ^ k[4]
	q[5] = s4 ^ r5 ^ rotDiag11(s5) ^ k[5]
	q[6] = s5 ^ r6 ^ rotDiag11(s6) ^ k[6]
	q[7] = s6 ^ r7 ^ rotDiag11(s7) ^ k[7]
}

func mixColumns2(q, k *[8]uint64) {
	q0, q1, q2, q3, q4, q5, q6, q7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	r0, r1, r2, r3 := rotDiag2(q0), rotDiag2(q1), rotDiag2(q2), rotDiag2(q3)
	r4, r5, r6, r7 := rotDiag2(q4), rotDiag2(q5), rotDiag2(q6), rotDiag2(q7)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	q[0] = s7 ^ r0 ^ bits.RotateLeft64(s0, 32) ^ k[0]
	q[1] = s0 ^ s7 ^ r1 ^ bits.RotateLeft64(s1, 32) ^ k[1]
	q[2] = s1 ^ r2 ^ bits.RotateLeft64(s2, 32) ^ k[2]
	q[3] = s2 ^ s7 ^ r3 ^ bits.RotateLeft64(s3, 32) ^ k[3]
	q[4] = s3 ^ s7 ^ r4 ^ bits.RotateLeft64(s4, 32) ^ k[4]
	q[5] = s4 ^ r5 ^ bits.RotateLeft64(s5, 32) ^ k[5]
	q[6] = s5 ^ r6 ^ bits.RotateLeft64(s6, 32) ^ k[6]
	q[7] = s6 ^ r7 ^ bits.RotateLeft64(s7, 32) ^ k[7]
}

func mixColumns3(q, k *[8]uint64) {
	q0, q1, q2, q3, q4, q5, q6, q7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	r0, r1, r2, r3 := rotDiag3(q0), rotDiag3(q1), rotDiag3(q2), rotDiag3(q3)
	r4, r5, r6, r7 := rotDiag3(q4), rotDiag3(q5), rotDiag3(q6), rotDiag3(q7)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	q[0] = s7 ^ r0 ^ rotDiag11(s0) ^ k[0]
	q[1] = s0 ^ s7 ^ r1 ^ rotDiag11(s1) ^ k[1]
	q[2] = s1 ^ r2 ^ rotDiag11(s2) ^ k[2]
	q[3] = s2 ^ s7 ^ r3 ^ rotDiag11(s3) ^ k[3]
	q[4] = s3 ^ s7 ^ r4 ^ rotDiag11(s4) ^ k[4]
	q[5] = s4 ^ r5 ^ rotDiag11(s5) ^ k[5]
	q[6] = s5 ^ r6 ^ rotDiag11(s6) ^ k[6]
	q[7] = s6 ^ r7 ^ rotDiag11(s7) ^ k[7]
}

// InvMixColumns is MixColumns after P(x) = x + 4(x + R²(x)), the column
// matrix circ(05, 00, 04, 00). invMixEven is P for MC_0 and MC_2 (R² is a
// rotation by 32), invMixOdd for MC_1 and MC_3. Bit b of 4u is u[b-2], plus
// u[6] for bits 0, 1, 3, 4 and u[7] for bits 1, 2, 4, 5.

func invMixEven(q *[8]uint64) {
	u0 := q[0] ^ bits.RotateLeft64(q[0], 32)
	u1 := q[1] ^ bits.RotateLeft64(q[1], 32)
	u2 := q[2] ^ bits.RotateLeft64(q[2], 32)
	u3 := q[3] ^ bits.RotateLeft64(q[3], 32)
	u4 := q[4] ^ bits.RotateLeft64(q[4], 32)
	u5 := q[5] ^ bits.RotateLeft64(q[5], 32)
	u6 := q[6] ^ bits.RotateLeft64(q[6], 32)
	u7 := q[7] ^ bits.RotateLeft64(q[7], 32)
	mul4Add(q, u0, u1, u2, u3, u4, u5, u6, u7)
}

func invMixOdd(q *[8]uint64) {
	u0 := q[0] ^ rotDiag11(q[0])
	u1 := q[1] ^ rotDiag11(q[1])
	u2 := q[2] ^ rotDiag11(q[2])
	u3 := q[3] ^ rotDiag11(q[3])
	u4 := q[4] ^ rotDiag11(q[4])
	u5 := q[5] ^ rotDiag11(q[5])
	u6 := q[6] ^ rotDiag11(q[6])
	u7 := q[7] ^ rotDiag11(q[7])
	mul4Add(q, u0, u1, u2, u3, u4, u5, u6, u7)
}

// mul4Add adds 4u to q.
func mul4Add(q *[8]uint64, u0, u1, u2, u3, u4, u5, u6, u7 uint64) {
	u67 := u6 ^ u7
	q[0] ^= u6
	q[1] ^= u67
	q[2] ^= u0 ^ u7
	q[3] ^= u1 ^ u6
	q[4] ^= u2 ^ u67
	q[5] ^= u3 ^ u7
	q[6] ^= u4
	q[7] ^= u5
}

// sbox computes S(x)^0x63 on every byte lane: the Boyar–Peralta circuit
// without its four NOT gates. Its inputs x0..x7 and outputs s0..s7 number the
// bits from the most significant.
func sbox(q *[8]uint64) {
	x0, x1, x2, x3 := q[7], q[6], q[5], q[4]
	x4, x5, x6, x7 := q[3], q[2], q[1], q[0]

	// Top linear layer.
	y14 := x3 ^ x5
	y13 := x0 ^ x6
	y9 := x0 ^ x3
	y8 := x0 ^ x5
	t0 := x1 ^ x2
	y1 := t0 ^ x7
	y4 := y1 ^ x3
	y12 := y13 ^ y14
	y2 := y1 ^ x0
	y5 := y1 ^ x6
	y3 := y5 ^ y8
	t1 := x4 ^ y12
	y15 := t1 ^ x5
	y20 := t1 ^ x1
	y6 := y15 ^ x7
	y10 := y15 ^ t0
	y11 := y20 ^ y9
	y7 := x7 ^ y11
	y17 := y10 ^ y11
	y19 := y10 ^ y8
	y16 := t0 ^ y11
	y21 := y13 ^ y16
	y18 := x0 ^ y16

	// Middle non-linear layer: inversion in GF(2^4)^2.
	t2 := y12 & y15
	t3 := y3 & y6
	t4 := t3 ^ t2
	t5 := y4 & x7
	t6 := t5 ^ t2
	t7 := y13 & y16
	t8 := y5 & y1
	t9 := t8 ^ t7
	t10 := y2 & y7
	t11 := t10 ^ t7
	t12 := y9 & y11
	t13 := y14 & y17
	t14 := t13 ^ t12
	t15 := y8 & y10
	t16 := t15 ^ t12
	t17 := t4 ^ t14
	t18 := t6 ^ t16
	t19 := t9 ^ t14
	t20 := t11 ^ t16
	t21 := t17 ^ y20
	t22 := t18 ^ y19
	t23 := t19 ^ y21
	t24 := t20 ^ y18

	t25 := t21 ^ t22
	t26 := t21 & t23
	t27 := t24 ^ t26
	t28 := t25 & t27
	t29 := t28 ^ t22
	t30 := t23 ^ t24
	t31 := t22 ^ t26
	t32 := t31 & t30
	t33 := t32 ^ t24
	t34 := t23 ^ t33
	t35 := t27 ^ t33
	t36 := t24 & t35
	t37 := t36 ^ t34
	t38 := t27 ^ t36
	t39 := t29 & t38
	t40 := t25 ^ t39

	t41 := t40 ^ t37
	t42 := t29 ^ t33
	t43 := t29 ^ t40
	t44 := t33 ^ t37
	t45 := t42 ^ t41
	z0 := t44 & y15
	z1 := t37 & y6
	z2 := t33 & x7
	z3 := t43 & y16
	z4 := t40 & y1
	z5 := t29 & y7
	z6 := t42 & y11
	z7 := t45 & y17
	z8 := t41 & y10
	z9 := t44 & y12
	z10 := t37 & y3
	z11 := t33 & y4
	z12 := t43 & y13
	z13 := t40 & y5
	z14 := t29 & y2
	z15 := t42 & y9
	z16 := t45 & y14
	z17 := t41 & y8

	// Bottom linear layer.
	t46 := z15 ^ z16
	t47 := z10 ^ z11
	t48 := z5 ^ z13
	t49 := z9 ^ z10
	t50 := z2 ^ z12
	t51 := z2 ^ z5
	t52 := z7 ^ z8
	t53 := z0 ^ z3
	t54 := z6 ^ z7
	t55 := z16 ^ z17
	t56 := z12 ^ t48
	t57 := t50 ^ t53
	t58 := z4 ^ t46
	t59 := z3 ^ t54
	t60 := t46 ^ t57
	t61 := z14 ^ t57
	t62 := t52 ^ t58
	t63 := t49 ^ t58
	t64 := z4 ^ t59
	t65 := t61 ^ t62
	t66 := z1 ^ t63
	t67 := t64 ^ t65

	s3 := t53 ^ t66
	q[7] = t59 ^ t63 // s0
	q[6] = t64 ^ s3  // s1
	q[5] = t55 ^ t67 // s2
	q[4] = s3        // s3
	q[3] = t51 ^ t66 // s4
	q[2] = t47 ^ t65 // s5
	q[1] = t56 ^ t62 // s6
	q[0] = t48 ^ t60 // s7
}

// invSbox computes S⁻¹(x^0x63) on every byte lane as L(S(L(x))) with L the
// linear part of the inverse affine map: bit i of L(x) is x[i+2]^x[i+5]^x[i+7]
// (indices mod 8). The constants cancel but for the 0x63 on the input.
func invSbox(q *[8]uint64) {
	invAffine(q)
	sbox(q)
	invAffine(q)
}

func invAffine(q *[8]uint64) {
	x0, x1, x2, x3, x4, x5, x6, x7 := q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]
	q[0] = x2 ^ x5 ^ x7
	q[1] = x3 ^ x6 ^ x0
	q[2] = x4 ^ x7 ^ x1
	q[3] = x5 ^ x0 ^ x2
	q[4] = x6 ^ x1 ^ x3
	q[5] = x7 ^ x2 ^ x4
	q[6] = x0 ^ x3 ^ x5
	q[7] = x1 ^ x4 ^ x6
}
