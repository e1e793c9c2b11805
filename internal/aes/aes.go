// Package aes is fae's AES engine: the key schedule and multi-block kernels
// that every AES-based mode in fae stands on.
//
// Kernels, chosen once at start-up from the CPU's features:
//   - generic: constant-time bitsliced AES in pure Go (no table lookup indexed
//     by secret data); the only code built with the purego tag;
//   - aesni: AES-NI on xmm registers, 8 blocks in flight;
//   - vaes256: VAES on ymm registers, for CPUs without AVX-512;
//   - vaes512: VAES on zmm registers (AVX-512), 16 or more blocks in flight.
//   - armv8: the ARMv8 Cryptography Extensions on arm64, 8 blocks in flight.
//
// Tests run every kernel the CPU has through internal/impl (package "aes").
// The modes' fused kernels are theirs to register and select (package "ocb",
// ...); they take their round keys from EncKeys and DecKeys, which every
// kernel's key schedule fills, so any mode kernel pairs with any AES kernel.
package aes

import (
	"crypto/cipher"
	"encoding/binary"
	"strconv"

	"github.com/faelabs/fae/internal/alias"
)

// BlockSize is the AES block size in bytes.
const BlockSize = 16

// Level names a family of kernels.
type Level int

const (
	Generic Level = iota // bitsliced pure Go
	AESNI                // AES-NI, xmm
	VAES256              // VAES, ymm
	VAES512              // VAES, zmm (AVX-512)
	ARMv8                // ARMv8 Cryptography Extensions, NEON
)

func (l Level) String() string {
	return [...]string{"generic", "aesni", "vaes256", "vaes512", "armv8"}[l]
}

// Block is an expanded AES key. It implements cipher.Block and adds
// multi-block operations. It is immutable and safe for concurrent use.
//
// A Block made while an assembly kernel is active has no bitsliced key, and
// the generic kernel panics on it; only a test that switches kernels after
// New can cause that.
type Block struct {
	rounds int
	// enc holds the rounds+1 encryption round keys, 16 bytes each, in the
	// byte order of the AES state (the layout AES-NI and ARMv8 load).
	enc [240]byte
	// dec holds the equivalent inverse cipher's round keys in the order the
	// decryption uses them: enc[rounds], InvMixColumns(enc[rounds-1]), ...,
	// InvMixColumns(enc[1]), enc[0].
	dec [240]byte
	// bs is the key in the bitsliced kernel's form, built only when the
	// generic kernel is active at expansion (hasBS): the assembly kernels
	// expand keys far faster without it, and only tests switch kernels.
	bs    bitslicedKey
	hasBS bool
}

// KeySizeError is returned for a key that is not 16, 24 or 32 bytes long.
type KeySizeError int

func (k KeySizeError) Error() string {
	return "aes: invalid key size " + strconv.Itoa(int(k)) + " (want 16, 24 or 32 bytes)"
}

// New expands a 16-, 24- or 32-byte key.
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
	b.rounds = len(key)/4 + 6
	expandKey(b, key)
	return nil
}

// Rounds returns 10, 12 or 14.
func (b *Block) Rounds() int { return b.rounds }

// EncKeys returns the encryption round keys, for kernels in other packages.
// The first 16*(Rounds()+1) bytes are used. Callers must not modify them.
func (b *Block) EncKeys() *[240]byte { return &b.enc }

// DecKeys returns the equivalent inverse cipher's round keys (see Block.dec).
// Callers must not modify them.
func (b *Block) DecKeys() *[240]byte { return &b.dec }

// BlockSize returns 16.
func (b *Block) BlockSize() int { return BlockSize }

// Encrypt encrypts one block, as cipher.Block.
func (b *Block) Encrypt(dst, src []byte) {
	checkOne(dst, src)
	b.encryptBlocks(dst[:BlockSize], src[:BlockSize])
}

// Decrypt decrypts one block, as cipher.Block.
func (b *Block) Decrypt(dst, src []byte) {
	checkOne(dst, src)
	b.decryptBlocks(dst[:BlockSize], src[:BlockSize])
}

func checkOne(dst, src []byte) {
	if len(src) < BlockSize {
		panic("aes: input not full block")
	}
	if len(dst) < BlockSize {
		panic("aes: output not full block")
	}
	if alias.InexactOverlap(dst[:BlockSize], src[:BlockSize]) {
		panic("aes: invalid buffer overlap")
	}
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

func checkBlocks(dst, src []byte) {
	if len(src)%BlockSize != 0 {
		panic("aes: input not a whole number of blocks")
	}
	if len(dst) < len(src) {
		panic("aes: output smaller than input")
	}
	if alias.InexactOverlap(dst[:len(src)], src) {
		panic("aes: invalid buffer overlap")
	}
}

// XORKeyStreamAt XORs src with the CTR keystream whose first block is the
// counter block *ctr and stores the result in dst; on return *ctr is the
// counter block after the last one used. The counter is a 128-bit
// big-endian integer that wraps around, as in crypto/cipher.NewCTR. A final
// partial block uses the start of its keystream block (and consumes its
// counter). dst must be at least as long as src; the two may be the same
// slice but must not overlap otherwise. The counter is updated in place:
// passing [16]byte values through several calls by value made every small
// call wait for a store to reach memory.
func (b *Block) XORKeyStreamAt(dst, src []byte, ctr *[16]byte) {
	if len(dst) < len(src) {
		panic("aes: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("aes: invalid buffer overlap")
	}
	b.ctr(dst, src, ctr)
}

// EncryptWords encrypts one block given, and returned, as two little-endian
// words: bytes 0..7 and 8..15. Modes use it for their short serial steps
// (nonce and tag processing), where a block assembled in memory from 8-byte
// stores and then loaded whole would stall on store forwarding.
func (b *Block) EncryptWords(w0, w1 uint64) (uint64, uint64) {
	return b.encryptWords(w0, w1)
}

func encryptWordsGeneric(b *Block, w0, w1 uint64) (uint64, uint64) {
	var x [BlockSize]byte
	binary.LittleEndian.PutUint64(x[:8], w0)
	binary.LittleEndian.PutUint64(x[8:], w1)
	encryptBlocksGeneric(b, x[:], x[:])
	return binary.LittleEndian.Uint64(x[:8]), binary.LittleEndian.Uint64(x[8:])
}

var _ cipher.Block = (*Block)(nil)
