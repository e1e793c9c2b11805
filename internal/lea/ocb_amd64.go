//go:build !purego

package lea

// The fused OCB3 kernels (lea_amd64.s) process n > 0 whole blocks of a
// message or of its associated data for fae's ocb package, with ocb's
// contract: the blocks follow block index i, a multiple of 32, and none of
// their indices has 32 or more trailing zeros; rel[j] is the offset of
// block j+1 of a 32-block group relative to the offset before the group
// (exact for j < 31), l holds L_0..L_31; the offset before the first block
// and the checksum (or AD sum) come in, and the offset of the last block and
// the updated sum go out, as little-endian words. The AVX2 kernels take
// whole 32-block groups only.

//go:noescape
func ocbEncAVX2(rk *[192]uint32, rounds int, rel, l *[32][16]byte, dst, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)

//go:noescape
func ocbDecAVX2(rk *[192]uint32, rounds int, rel, l *[32][16]byte, dst, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)

//go:noescape
func ocbHashAVX2(rk *[192]uint32, rounds int, rel, l *[32][16]byte, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)

//go:noescape
func ocbEncAVX512(rk *[192]uint32, rounds int, rel, l *[32][16]byte, dst, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)

//go:noescape
func ocbDecAVX512(rk *[192]uint32, rounds int, rel, l *[32][16]byte, dst, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)

//go:noescape
func ocbHashAVX512(rk *[192]uint32, rounds int, rel, l *[32][16]byte, src *byte, n int, i uint64, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64)

// OCBBlocks returns how many of n > 0 whole blocks that start a 32-block
// group the fused OCB3 kernels take: all of them with AVX-512, whole groups
// with AVX2, none with the generic code. ocb runs the rest through
// EncryptBlocks and DecryptBlocks.
func OCBBlocks(n int) int {
	switch {
	case useAVX512:
		return n
	case useAVX2:
		return n &^ 31
	}
	return 0
}

// OCBEncrypt encrypts the whole blocks of src into dst (dst = E(src^O)^O,
// sum ^= src) with the kernels' contract above, given the offset before the
// first block and the checksum so far, and returns the offset of the last
// block and the new checksum. len(src)/16 must be what OCBBlocks allows.
func (b *Block) OCBEncrypt(rel, l *[32][16]byte, dst, src []byte, i, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64) {
	n := len(src) / BlockSize
	_ = dst[n*BlockSize-1]
	if useAVX512 {
		return ocbEncAVX512(&b.rk, b.rounds, rel, l, &dst[0], &src[0], n, i, off0, off1, sum0, sum1)
	}
	return ocbEncAVX2(&b.rk, b.rounds, rel, l, &dst[0], &src[0], n, i, off0, off1, sum0, sum1)
}

// OCBDecrypt decrypts as OCBEncrypt encrypts (dst = D(src^O)^O, sum ^= dst).
func (b *Block) OCBDecrypt(rel, l *[32][16]byte, dst, src []byte, i, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64) {
	n := len(src) / BlockSize
	_ = dst[n*BlockSize-1]
	if useAVX512 {
		return ocbDecAVX512(&b.rk, b.rounds, rel, l, &dst[0], &src[0], n, i, off0, off1, sum0, sum1)
	}
	return ocbDecAVX2(&b.rk, b.rounds, rel, l, &dst[0], &src[0], n, i, off0, off1, sum0, sum1)
}

// OCBHash absorbs the whole blocks of src into the AD sum (sum ^= E(src^O)),
// as OCBEncrypt.
func (b *Block) OCBHash(rel, l *[32][16]byte, src []byte, i, off0, off1, sum0, sum1 uint64) (o0, o1, s0, s1 uint64) {
	n := len(src) / BlockSize
	if useAVX512 {
		return ocbHashAVX512(&b.rk, b.rounds, rel, l, &src[0], n, i, off0, off1, sum0, sum1)
	}
	return ocbHashAVX2(&b.rk, b.rounds, rel, l, &src[0], n, i, off0, off1, sum0, sum1)
}
