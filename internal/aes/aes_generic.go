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
// AES-192 (Nr = 12) and SR^2 (shiftRows2) for AES-128 and AES-256.
//
// The decryption runs the inverse cipher (InvSB, then the round key, then
// InvMC) on U_m = SR^m(X_m), m counting the rounds done, X_m the inverse
// cipher's state. Round m adds SR^m(K_Nr-m), which is SR^Nr applied to the
// encryption's bitsliced key SR^-(Nr-m)(K_Nr-m), so one key form serves both
// directions. InvMC = MC ∘ P (see invMixEven), and the output is SR^-Nr(U_Nr).
//
// The S-box is Boyar and Peralta's circuit (32 AND and 83 XOR gates, from "A
// new combinational logic minimization technique with applications to
// cryptology", SEA 2010) less its final constant: it computes S(x)^0x63, its
// 4 XNOR gates becoming XOR. That constant passes unchanged through
// MixColumns and the row permutations (every byte of the state gets the same
// 0x63), so it is folded into the round keys. The inverse S-box reuses the
// circuit (see invSbox) and wants the same 0x63 on its input, which the same
// keys, taken in reverse order, supply.

package aes

import (
	"crypto/subtle"
	"encoding/binary"
	"math/bits"
)

// bitslicedKey holds the encryption round keys as the bitsliced kernel adds
// them, SR^-i(K_i) with 0x63 folded into every byte for i > 0, each compressed
// to two words: bit 16*r + 4*c + (b&3) of word b>>2 is bit b of byte (r, c).
// Expanding a word replicates each bit into the four block slots of its
// nibble (expandRoundKeys). 240 bytes.
type bitslicedKey struct {
	rk [15][2]uint64
}

// expandKeyGeneric fills b.enc, b.dec and b.bs from a key of 16, 24 or 32
// bytes; b.rounds is already set.
func expandKeyGeneric(b *Block, key []byte) {
	b.hasBS = true
	nk := len(key) / 4
	n := 4 * (b.rounds + 1)
	// w holds the key schedule's words, byte 0 of each in the low bits.
	var w [60]uint32
	for i := range nk {
		w[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	for m := range nk / 4 {
		b.setRoundKey(m, w[4*m], w[4*m+1], w[4*m+2], w[4*m+3])
	}
	// Each round key is set as soon as it is known: that work does not
	// depend on the chain of SubWord latencies and overlaps it.
	t := w[nk-1]
	for i, j := nk, 0; i < n; i++ {
		if j == 0 {
			t = subWord(bits.RotateLeft32(t, -8)) ^ rcon[i/nk-1]
		} else if nk == 8 && j == 4 {
			t = subWord(t)
		}
		t ^= w[i-nk]
		w[i] = t
		if j++; j == nk {
			j = 0
		}
		if i&3 == 3 {
			b.setRoundKey(i/4, w[i-3], w[i-2], w[i-1], w[i])
		}
	}
}

// setRoundKey stores encryption round key m, given as four columns, in
// b.enc and b.bs, and the decryption round key Nr-m made from it in b.dec.
func (b *Block) setRoundKey(m int, c0, c1, c2, c3 uint32) {
	lo, hi := uint64(c0)|uint64(c1)<<32, uint64(c2)|uint64(c3)<<32
	binary.LittleEndian.PutUint64(b.enc[16*m:], lo)
	binary.LittleEndian.PutUint64(b.enc[16*m+8:], hi)
	if m > 0 {
		const c63 = 0x6363636363636363
		b.bs.rk[m][0], b.bs.rk[m][1] = compressKey(lo^c63, hi^c63, -m)
	} else {
		b.bs.rk[m][0], b.bs.rk[m][1] = compressKey(lo, hi, 0)
	}

	d := b.rounds - m
	if m > 0 && d > 0 {
		lo, hi = invMixColumns(lo), invMixColumns(hi)
	}
	binary.LittleEndian.PutUint64(b.dec[16*d:], lo)
	binary.LittleEndian.PutUint64(b.dec[16*d+8:], hi)
}

// subWord applies the S-box to the four bytes of w. Every bit position of a
// word is a lane of the bitsliced circuit, so passing w>>b as bit plane b puts
// bit b of each byte in lanes 0, 8, 16 and 24.
func subWord(w uint32) uint32 {
	x := uint64(w)
	s0, s1, s2, s3, s4, s5, s6, s7 := sbox(x>>7, x>>6, x>>5, x>>4, x>>3, x>>2, x>>1, x)
	const m = 0x01010101
	r := s7&m | s6&m<<1 | s5&m<<2 | s4&m<<3 | s3&m<<4 | s2&m<<5 | s1&m<<6 | s0&m<<7
	return uint32(r) ^ 0x63636363
}

// rcon holds the key schedule's round constants, x^(i-1) in GF(2^8).
var rcon = [10]uint32{0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36}

// invMixColumns applies InvMixColumns to the two columns in the halves of x
// (row r in byte r of each). The matrix factors as MixColumns times
// circ(05, 00, 04, 00): y = x + 4(x + x≪2 rows), then 2y + 3y≪1 + y≪2 + y≪3.
func invMixColumns(x uint64) uint64 {
	const b0, b6, b7 = 0x0101010101010101, 0x3f3f3f3f3f3f3f3f, 0x7f7f7f7f7f7f7f7f
	u := x ^ rotRows(x, 2)
	y := x ^ (u&b6)<<2 ^ reduce(u>>6&b0^(u>>7&b0)<<1)
	r := rotRows(y, 1)
	s := y ^ r
	return (s&b7)<<1 ^ reduce(s>>7&b0) ^ r ^ rotRows(s, 2)
}

// reduce returns the carry-less product of each byte of c, the bits shifted
// out of it at x^8 and x^9 (c < 4), with 0x1b: their value modulo the AES
// polynomial. Shifts, not a multiplication, which some CPUs time by operand.
func reduce(c uint64) uint64 {
	return c ^ c<<1 ^ c<<3 ^ c<<4
}

// rotRows moves byte r+n of each half of x to byte r, turning two columns
// by n rows.
func rotRows(x uint64, n uint) uint64 {
	keep := uint64(0xffffffff >> (8 * n))
	keep |= keep << 32
	return x>>(8*n)&keep | x<<(32-8*n)&^keep
}

// rowTurns[n] says how ShiftRows^n turns the 16-bit lanes of a compressed
// key: row r turns by 8 bits if bit 1 of n*r is set (the first mask selects
// the lower byte of those lanes, for a swap) and by 4 if bit 0 is (the second
// mask).
var rowTurns = [4][2]uint64{
	{},
	{0x00ff00ff00000000, 0xffff0000ffff0000},
	{0x00ff000000ff0000, 0},
	{0x000000ff00ff0000, 0xffff0000ffff0000},
}

// compressKey turns a round key, as two little-endian words, into the
// compressed bitsliced form of bitslicedKey, with ShiftRows applied n times
// (n mod 4, n may be negative). It lays out the bytes as for one block (see
// spreadBlock), gathers the low nibbles into one word and the high nibbles
// into the other, and then turns row r, a 16-bit lane of both, by n*r nibbles.
func compressKey(lo, hi uint64, n int) (uint64, uint64) {
	lo, hi = spreadBlock(lo, hi)
	const m = 0x0f0f0f0f0f0f0f0f
	k0, k1 := lo&m|(hi&m)<<4, lo>>4&m|hi&^m
	if n&3 == 0 {
		return k0, k1
	}
	by8, by4 := rowTurns[n&3][0], rowTurns[n&3][1]
	t0 := (k0>>8 ^ k0) & by8
	t1 := (k1>>8 ^ k1) & by8
	k0 ^= t0 ^ t0<<8
	k1 ^= t1 ^ t1<<8
	k0 = k0&^by4 | (k0>>4&0x0fff0fff0fff0fff|k0<<12&0xf000f000f000f000)&by4
	k1 = k1&^by4 | (k1>>4&0x0fff0fff0fff0fff|k1<<12&0xf000f000f000f000)&by4
	return k0, k1
}

// expandRoundKeys expands the rounds+1 compressed keys ck to one word per
// bit, in encryption order or, for decrypt4, in reverse order with
// ShiftRows^Nr applied (see the file comment).
func expandRoundKeys(rk *[15][8]uint64, ck *[15][2]uint64, rounds int, decrypt bool) {
	const m = 0x1111111111111111
	for i := 0; i <= rounds; i++ {
		k0, k1, r := ck[i][0], ck[i][1], &rk[i]
		if decrypt {
			k0, k1 = ck[rounds-i][0], ck[rounds-i][1]
			if rounds&3 == 2 {
				k0, k1 = shiftRows2(k0), shiftRows2(k1)
			}
		}
		// Element by element: a composite literal would be built on the
		// stack and copied with wide loads that stall on its narrow stores.
		r[0], r[1], r[2], r[3] = fill(k0&m), fill(k0>>1&m), fill(k0>>2&m), fill(k0>>3&m)
		r[4], r[5], r[6], r[7] = fill(k1&m), fill(k1>>1&m), fill(k1>>2&m), fill(k1>>3&m)
	}
}

// fill copies bit 4i of x into bits 4i+1..4i+3; x has no other bits set. It
// is x*15, written so that no CPU times it by operand.
func fill(x uint64) uint64 {
	return x<<4 - x
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
	q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = transpose(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
}

// transpose is ortho on words in registers.
func transpose(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	const m1, m2, m4 = 0x5555555555555555, 0x3333333333333333, 0x0f0f0f0f0f0f0f0f
	q0, q1 = swapMove(q0, q1, m1, 1)
	q2, q3 = swapMove(q2, q3, m1, 1)
	q4, q5 = swapMove(q4, q5, m1, 1)
	q6, q7 = swapMove(q6, q7, m1, 1)
	q0, q2 = swapMove(q0, q2, m2, 2)
	q1, q3 = swapMove(q1, q3, m2, 2)
	q4, q6 = swapMove(q4, q6, m2, 2)
	q5, q7 = swapMove(q5, q7, m2, 2)
	q0, q4 = swapMove(q0, q4, m4, 4)
	q1, q5 = swapMove(q1, q5, m4, 4)
	q2, q6 = swapMove(q2, q6, m4, 4)
	q3, q7 = swapMove(q3, q7, m4, 4)
	return q0, q1, q2, q3, q4, q5, q6, q7
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

// checkBitsliced panics if b has no bitsliced key: it was expanded while an
// assembly kernel was active, and a test selected the generic one since.
func checkBitsliced(b *Block) {
	if !b.hasBS {
		panic("aes: generic kernel used on a Block expanded for an assembly kernel (kernel selected after New)")
	}
}

// encryptBlocksGeneric encrypts the whole blocks of src (possibly none) into
// dst, which is as long as src and may be src itself.
func encryptBlocksGeneric(b *Block, dst, src []byte) {
	checkBitsliced(b)
	if len(src) == 0 {
		return
	}
	var rk [15][8]uint64
	expandRoundKeys(&rk, &b.bs.rk, b.rounds, false)
	var q [8]uint64
	for len(src) > 0 {
		n := min(len(src), 64)
		loadBlocks(&q, src[:n])
		encrypt4(&q, &rk, b.rounds)
		storeBlocks(dst[:n], &q)
		dst, src = dst[n:], src[n:]
	}
}

// decryptBlocksGeneric is the inverse of encryptBlocksGeneric.
func decryptBlocksGeneric(b *Block, dst, src []byte) {
	checkBitsliced(b)
	if len(src) == 0 {
		return
	}
	var rk [15][8]uint64
	expandRoundKeys(&rk, &b.bs.rk, b.rounds, true)
	var q [8]uint64
	for len(src) > 0 {
		n := min(len(src), 64)
		loadBlocks(&q, src[:n])
		decrypt4(&q, &rk, b.rounds)
		storeBlocks(dst[:n], &q)
		dst, src = dst[n:], src[n:]
	}
}

// ctrGeneric XORs src (any length) with the CTR keystream from counter block
// *iv into dst, which is as long as src and may be src itself, and leaves in
// *iv the counter block after the last one used.
func ctrGeneric(b *Block, dst, src []byte, iv *[16]byte) {
	checkBitsliced(b)
	hi := binary.BigEndian.Uint64(iv[:8])
	lo := binary.BigEndian.Uint64(iv[8:])
	if len(src) > 0 {
		var rk [15][8]uint64
		expandRoundKeys(&rk, &b.bs.rk, b.rounds, false)
		var q [8]uint64
		for len(src) > 0 {
			n := min(len(src), 64)
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
	binary.BigEndian.PutUint64(iv[:8], hi)
	binary.BigEndian.PutUint64(iv[8:], lo)
}

// encrypt4 encrypts the four bitsliced blocks in q (see the file comment).
// The state travels between the steps of a round in registers.
func encrypt4(q *[8]uint64, rk *[15][8]uint64, rounds int) {
	q0, q1, q2, q3, q4, q5, q6, q7 := addRoundKey(&rk[0], q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
	for i := 1; i < rounds; i++ {
		q7, q6, q5, q4, q3, q2, q1, q0 = sbox(q7, q6, q5, q4, q3, q2, q1, q0)
		switch i & 3 {
		case 0:
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns0(q0, q1, q2, q3, q4, q5, q6, q7)
		case 1:
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns1(q0, q1, q2, q3, q4, q5, q6, q7)
		case 2:
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns2(q0, q1, q2, q3, q4, q5, q6, q7)
		default:
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns3(q0, q1, q2, q3, q4, q5, q6, q7)
		}
		q0, q1, q2, q3, q4, q5, q6, q7 = addRoundKey(&rk[i], q0, q1, q2, q3, q4, q5, q6, q7)
	}
	q7, q6, q5, q4, q3, q2, q1, q0 = sbox(q7, q6, q5, q4, q3, q2, q1, q0)
	finalRound(q, &rk[rounds], rounds, q0, q1, q2, q3, q4, q5, q6, q7)
}

// decrypt4 decrypts the four bitsliced blocks in q with the round keys in
// decryption order (see the file comment). Round m applies
// SR^m ∘ InvMC ∘ SR^-m = MC_j ∘ P_j with j = -m mod 4.
func decrypt4(q *[8]uint64, rk *[15][8]uint64, rounds int) {
	q0, q1, q2, q3, q4, q5, q6, q7 := addRoundKey(&rk[0], q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7])
	for m := 1; m < rounds; m++ {
		q7, q6, q5, q4, q3, q2, q1, q0 = invSbox(q7, q6, q5, q4, q3, q2, q1, q0)
		q0, q1, q2, q3, q4, q5, q6, q7 = addRoundKey(&rk[m], q0, q1, q2, q3, q4, q5, q6, q7)
		switch m & 3 {
		case 0:
			q0, q1, q2, q3, q4, q5, q6, q7 = invMixEven(q0, q1, q2, q3, q4, q5, q6, q7)
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns0(q0, q1, q2, q3, q4, q5, q6, q7)
		case 1:
			q0, q1, q2, q3, q4, q5, q6, q7 = invMixOdd(q0, q1, q2, q3, q4, q5, q6, q7)
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns3(q0, q1, q2, q3, q4, q5, q6, q7)
		case 2:
			q0, q1, q2, q3, q4, q5, q6, q7 = invMixEven(q0, q1, q2, q3, q4, q5, q6, q7)
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns2(q0, q1, q2, q3, q4, q5, q6, q7)
		default:
			q0, q1, q2, q3, q4, q5, q6, q7 = invMixOdd(q0, q1, q2, q3, q4, q5, q6, q7)
			q0, q1, q2, q3, q4, q5, q6, q7 = mixColumns1(q0, q1, q2, q3, q4, q5, q6, q7)
		}
	}
	q7, q6, q5, q4, q3, q2, q1, q0 = invSbox(q7, q6, q5, q4, q3, q2, q1, q0)
	finalRound(q, &rk[rounds], rounds, q0, q1, q2, q3, q4, q5, q6, q7)
}

// addRoundKey adds the expanded round key k.
func addRoundKey(k *[8]uint64, q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	return q0 ^ k[0], q1 ^ k[1], q2 ^ k[2], q3 ^ k[3], q4 ^ k[4], q5 ^ k[5], q6 ^ k[6], q7 ^ k[7]
}

// finalRound adds the last round key k, applies the ShiftRows left over from
// fixslicing and stores the state in q.
func finalRound(q, k *[8]uint64, rounds int, q0, q1, q2, q3, q4, q5, q6, q7 uint64) {
	q0, q1, q2, q3, q4, q5, q6, q7 = addRoundKey(k, q0, q1, q2, q3, q4, q5, q6, q7)
	if rounds&3 == 2 {
		q0, q1, q2, q3 = shiftRows2(q0), shiftRows2(q1), shiftRows2(q2), shiftRows2(q3)
		q4, q5, q6, q7 = shiftRows2(q4), shiftRows2(q5), shiftRows2(q6), shiftRows2(q7)
	}
	q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7] = q0, q1, q2, q3, q4, q5, q6, q7
}

// shiftRows2 applies ShiftRows twice: rows 1 and 3 turn by two columns.
func shiftRows2(x uint64) uint64 {
	t := (x>>8 ^ x) & 0x00ff000000ff0000
	return x ^ t ^ t<<8
}

// rotDiag1 moves byte (r+1, c+1) to (r, c); rotDiag2 and rotDiag3 move
// (r+1, c+2) and (r+1, c+3); rotDiag11 moves (r+2, c+2), which is rotDiag1 and
// rotDiag3 applied twice. Byte (r+1, c) is a plain rotation by 16. Each
// blends two rotations: the mask picks the columns that wrap around.
func rotDiag1(x uint64) uint64 {
	a, b := bits.RotateLeft64(x, -20), bits.RotateLeft64(x, -4)
	return a ^ (a^b)&0xf000f000f000f000
}

func rotDiag2(x uint64) uint64 {
	a, b := bits.RotateLeft64(x, -24), bits.RotateLeft64(x, -8)
	return a ^ (a^b)&0xff00ff00ff00ff00
}

func rotDiag3(x uint64) uint64 {
	a, b := bits.RotateLeft64(x, -12), bits.RotateLeft64(x, -28)
	return a ^ (a^b)&0x000f000f000f000f
}

func rotDiag11(x uint64) uint64 {
	a, b := bits.RotateLeft64(x, -40), bits.RotateLeft64(x, -24)
	return a ^ (a^b)&0xff00ff00ff00ff00
}

// MixColumns with rows taken along a rotation R (R(x) at (r, c) is the byte
// R brings there) is 2x + 3R(x) + R²(x) + R³(x) = 2s + R(x) + R²(s) with
// s = x + R(x). mixColumnsJ computes MC_j.
// Doubling is bitsliced: bit b of 2s is s[b-1] for b > 0, plus s[7] for bits
// 0, 1, 3 and 4.

func mixColumns0(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	r0, r1 := bits.RotateLeft64(q0, -16), bits.RotateLeft64(q1, -16)
	r2, r3 := bits.RotateLeft64(q2, -16), bits.RotateLeft64(q3, -16)
	r4, r5 := bits.RotateLeft64(q4, -16), bits.RotateLeft64(q5, -16)
	r6, r7 := bits.RotateLeft64(q6, -16), bits.RotateLeft64(q7, -16)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	return s7 ^ r0 ^ bits.RotateLeft64(s0, -32),
		s0 ^ s7 ^ r1 ^ bits.RotateLeft64(s1, -32),
		s1 ^ r2 ^ bits.RotateLeft64(s2, -32),
		s2 ^ s7 ^ r3 ^ bits.RotateLeft64(s3, -32),
		s3 ^ s7 ^ r4 ^ bits.RotateLeft64(s4, -32),
		s4 ^ r5 ^ bits.RotateLeft64(s5, -32),
		s5 ^ r6 ^ bits.RotateLeft64(s6, -32),
		s6 ^ r7 ^ bits.RotateLeft64(s7, -32)
}

func mixColumns1(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	r0, r1, r2, r3 := rotDiag1(q0), rotDiag1(q1), rotDiag1(q2), rotDiag1(q3)
	r4, r5, r6, r7 := rotDiag1(q4), rotDiag1(q5), rotDiag1(q6), rotDiag1(q7)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	return s7 ^ r0 ^ rotDiag11(s0),
		s0 ^ s7 ^ r1 ^ rotDiag11(s1),
		s1 ^ r2 ^ rotDiag11(s2),
		s2 ^ s7 ^ r3 ^ rotDiag11(s3),
		s3 ^ s7 ^ r4 ^ rotDiag11(s4),
		s4 ^ r5 ^ rotDiag11(s5),
		s5 ^ r6 ^ rotDiag11(s6),
		s6 ^ r7 ^ rotDiag11(s7)
}

func mixColumns2(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	r0, r1, r2, r3 := rotDiag2(q0), rotDiag2(q1), rotDiag2(q2), rotDiag2(q3)
	r4, r5, r6, r7 := rotDiag2(q4), rotDiag2(q5), rotDiag2(q6), rotDiag2(q7)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	return s7 ^ r0 ^ bits.RotateLeft64(s0, -32),
		s0 ^ s7 ^ r1 ^ bits.RotateLeft64(s1, -32),
		s1 ^ r2 ^ bits.RotateLeft64(s2, -32),
		s2 ^ s7 ^ r3 ^ bits.RotateLeft64(s3, -32),
		s3 ^ s7 ^ r4 ^ bits.RotateLeft64(s4, -32),
		s4 ^ r5 ^ bits.RotateLeft64(s5, -32),
		s5 ^ r6 ^ bits.RotateLeft64(s6, -32),
		s6 ^ r7 ^ bits.RotateLeft64(s7, -32)
}

func mixColumns3(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	r0, r1, r2, r3 := rotDiag3(q0), rotDiag3(q1), rotDiag3(q2), rotDiag3(q3)
	r4, r5, r6, r7 := rotDiag3(q4), rotDiag3(q5), rotDiag3(q6), rotDiag3(q7)
	s0, s1, s2, s3, s4, s5, s6, s7 := q0^r0, q1^r1, q2^r2, q3^r3, q4^r4, q5^r5, q6^r6, q7^r7
	return s7 ^ r0 ^ rotDiag11(s0),
		s0 ^ s7 ^ r1 ^ rotDiag11(s1),
		s1 ^ r2 ^ rotDiag11(s2),
		s2 ^ s7 ^ r3 ^ rotDiag11(s3),
		s3 ^ s7 ^ r4 ^ rotDiag11(s4),
		s4 ^ r5 ^ rotDiag11(s5),
		s5 ^ r6 ^ rotDiag11(s6),
		s6 ^ r7 ^ rotDiag11(s7)
}

// InvMixColumns is MixColumns after P(x) = x + 4(x + R²(x)), the column
// matrix circ(05, 00, 04, 00). invMixEven is P for MC_0 and MC_2 (R² is a
// rotation by 32), invMixOdd for MC_1 and MC_3.

func invMixEven(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	return mul4Add(q0, q1, q2, q3, q4, q5, q6, q7,
		q0^bits.RotateLeft64(q0, 32), q1^bits.RotateLeft64(q1, 32),
		q2^bits.RotateLeft64(q2, 32), q3^bits.RotateLeft64(q3, 32),
		q4^bits.RotateLeft64(q4, 32), q5^bits.RotateLeft64(q5, 32),
		q6^bits.RotateLeft64(q6, 32), q7^bits.RotateLeft64(q7, 32))
}

func invMixOdd(q0, q1, q2, q3, q4, q5, q6, q7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	return mul4Add(q0, q1, q2, q3, q4, q5, q6, q7,
		q0^rotDiag11(q0), q1^rotDiag11(q1), q2^rotDiag11(q2), q3^rotDiag11(q3),
		q4^rotDiag11(q4), q5^rotDiag11(q5), q6^rotDiag11(q6), q7^rotDiag11(q7))
}

// mul4Add returns q + 4u. Bit b of 4u is u[b-2] for b > 1, plus u[6] for bits
// 0, 1, 3, 4 and u[7] for bits 1, 2, 4, 5.
func mul4Add(q0, q1, q2, q3, q4, q5, q6, q7, u0, u1, u2, u3, u4, u5, u6, u7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	u67 := u6 ^ u7
	return q0 ^ u6, q1 ^ u67, q2 ^ u0 ^ u7, q3 ^ u1 ^ u6, q4 ^ u2 ^ u67, q5 ^ u3 ^ u7, q6 ^ u4, q7 ^ u5
}

// sbox computes S(x)^0x63 on every byte lane: the Boyar–Peralta circuit
// without its four NOT gates. Its inputs and outputs are the bit planes from
// the most significant, x0 = q[7], to the least, x7 = q[0].
func sbox(x0, x1, x2, x3, x4, x5, x6, x7 uint64) (s0, s1, s2, s3, s4, s5, s6, s7 uint64) {
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

	s3 = t53 ^ t66
	return t59 ^ t63, t64 ^ s3, t55 ^ t67, s3, t51 ^ t66, t47 ^ t65, t56 ^ t62, t48 ^ t60
}

// invSbox computes S⁻¹(x^0x63) on every byte lane as L(sbox(L(x))), with L
// the linear part of the inverse of the S-box's affine map: bit i of L(x) is
// x[i+2]^x[i+5]^x[i+7] (indices mod 8). Of the constants only the 0x63 on the
// input remains. Bit planes are ordered as for sbox.
func invSbox(x0, x1, x2, x3, x4, x5, x6, x7 uint64) (uint64, uint64, uint64, uint64, uint64, uint64, uint64, uint64) {
	return invAffine(sbox(invAffine(x0, x1, x2, x3, x4, x5, x6, x7)))
}

// invAffine computes L on bit planes ordered from the most significant.
func invAffine(x7, x6, x5, x4, x3, x2, x1, x0 uint64) (y7, y6, y5, y4, y3, y2, y1, y0 uint64) {
	return x1 ^ x4 ^ x6, x0 ^ x3 ^ x5, x7 ^ x2 ^ x4, x6 ^ x1 ^ x3,
		x5 ^ x0 ^ x2, x4 ^ x7 ^ x1, x3 ^ x6 ^ x0, x2 ^ x5 ^ x7
}
