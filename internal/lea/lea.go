// Package lea is fae's LEA engine: the key schedule and the multi-block
// kernels of LEA, the 128-bit block cipher of the Korean standard KS X 3246
// and of ISO/IEC 29192-2:2019, with 128-, 192- and 256-bit keys (24, 28 and
// 32 rounds). Package fae/lea is its public face; fae's modes take the
// concrete Block from it, so their buffers never pass through an interface,
// and OCB3 has fused AVX2 and AVX-512 kernels here (ocb_amd64.go).
//
// LEA uses only 32-bit addition, rotation and XOR, so every implementation
// here runs in constant time. Its speed comes from word slicing: a vector
// register holds the same word of many blocks, and one instruction advances
// that word in all of them. Kernels, chosen once at start-up:
//   - generic: one block at a time in pure Go; the only code built with the
//     purego tag;
//   - avx2: 8 blocks per ymm register set, 16 in flight;
//   - avx512: 16 blocks per zmm register set, with the rotations of
//     AVX-512 (VPROLD, VPRORD), 64 in flight;
//   - neon (arm64): 4 blocks per register set, loaded and transposed by one
//     VLD4, 16 in flight;
//   - neon (arm, ARMv7): 4 blocks per register set, loaded and transposed by
//     two VLD4, 12 in flight, round keys broadcast from core registers,
//     and a thirteenth block in core registers beside them.
//
// With either amd64 vector kernel, EncryptWords runs in general-register
// assembly; on ARM it stays in Go, one block having nothing for NEON.
//
// Tests run every kernel the CPU has through internal/impl (package "lea").
package lea

import (
	"crypto/cipher"
	"encoding/binary"
	"strconv"

	"github.com/faelabs/fae/internal/alias"
)

// BlockSize is the LEA block size in bytes.
const BlockSize = 16

// maxRounds is the number of rounds of LEA-256.
const maxRounds = 32

// KeySizeError is returned for a key that is not 16, 24 or 32 bytes long.
type KeySizeError int

func (k KeySizeError) Error() string {
	return "lea: invalid key size " + strconv.Itoa(int(k)) + " (want 16, 24 or 32 bytes)"
}

// Block is an expanded LEA key. It implements cipher.Block and adds
// multi-block operations. It is immutable and safe for concurrent use.
type Block struct {
	rounds int
	// rk holds the round keys, six words per round (LEA-128's repeated
	// words included), which is the layout every kernel reads.
	rk [6 * maxRounds]uint32
}

// New expands a 16-, 24- or 32-byte key. The result keeps no reference to
// key.
func New(key []byte) (*Block, error) {
	b := new(Block)
	if err := b.Init(key); err != nil {
		return nil, err
	}
	return b, nil
}

// Init expands key into b, for types that embed a Block to save an
// allocation.
func (b *Block) Init(key []byte) error {
	switch len(key) {
	case 16, 24, 32:
	default:
		return KeySizeError(len(key))
	}
	b.rounds = len(key)/2 + 16
	expandKey(b, key)
	return nil
}

// BlockSize returns 16.
func (b *Block) BlockSize() int { return BlockSize }

// Encrypt encrypts one block, as cipher.Block.
func (b *Block) Encrypt(dst, src []byte) {
	checkOne(dst, src)
	w0, w1 := b.encryptWords(binary.LittleEndian.Uint64(src), binary.LittleEndian.Uint64(src[8:]))
	binary.LittleEndian.PutUint64(dst, w0)
	binary.LittleEndian.PutUint64(dst[8:], w1)
}

// Decrypt decrypts one block, as cipher.Block.
func (b *Block) Decrypt(dst, src []byte) {
	checkOne(dst, src)
	decryptBlocksGeneric(b, dst[:BlockSize], src[:BlockSize])
}

func checkOne(dst, src []byte) {
	if len(src) < BlockSize {
		panic("lea: input not full block")
	}
	if len(dst) < BlockSize {
		panic("lea: output not full block")
	}
	if alias.InexactOverlap(dst[:BlockSize], src[:BlockSize]) {
		panic("lea: invalid buffer overlap")
	}
}

// EncryptWords encrypts one block given, and returned, as two little-endian
// 64-bit words: bytes 0..7 and 8..15. It runs in registers, for the short
// serial steps of modes (nonce, tag, CBC-MAC).
func (b *Block) EncryptWords(w0, w1 uint64) (uint64, uint64) {
	return b.encryptWords(w0, w1)
}

// EncryptBlocks encrypts len(src)/16 whole blocks (ECB). len(src) must be a
// multiple of 16 and dst at least as long; dst and src may be the same slice
// but must not overlap otherwise.
func (b *Block) EncryptBlocks(dst, src []byte) {
	checkBlocks(dst, src)
	b.encryptBlocks(dst[:len(src)], src)
}

// DecryptBlocks decrypts len(src)/16 whole blocks, with EncryptBlocks' rules.
func (b *Block) DecryptBlocks(dst, src []byte) {
	checkBlocks(dst, src)
	b.decryptBlocks(dst[:len(src)], src)
}

// CTRBlocks XORs len(src)/16 whole blocks of src with the encryptions of the
// counter blocks hi||lo, hi||lo+1, ... (big-endian halves) into dst, with
// EncryptBlocks' rules for dst and src. lo must not wrap: the caller splits
// the call where it would and carries into hi.
func (b *Block) CTRBlocks(dst, src []byte, hi, lo uint64) {
	checkBlocks(dst, src)
	b.ctrBlocks(dst[:len(src)], src, hi, lo)
}

func checkBlocks(dst, src []byte) {
	if len(src)%BlockSize != 0 {
		panic("lea: input not a whole number of blocks")
	}
	if len(dst) < len(src) {
		panic("lea: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("lea: invalid buffer overlap")
	}
}

var _ cipher.Block = (*Block)(nil)
