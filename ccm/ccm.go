// Package ccm implements CCM (Counter with CBC-MAC), the authenticated
// encryption mode of RFC 3610 and NIST SP 800-38C, over AES (New,
// NewWithSizes) or any block cipher with 16-byte blocks (NewFromBlock).
//
// CCM authenticates with CBC-MAC, a chain of block cipher calls each of which
// waits for the previous one, and encrypts with CTR, whose blocks are
// independent. With AES keys on amd64 with AES-NI and AVX one assembly loop
// runs both: the keystream blocks execute while the MAC chain waits on AES
// latency, so a message costs little more than the chain alone (the latency
// of 10 AES rounds per 16 bytes with a 128-bit key). Elsewhere the mode's Go
// code hands fae's AES engine each MAC step together with a keystream
// block, on the engine's own kernels (AES-NI on amd64, ARMv8 on arm64) or,
// on other architectures and with the purego build tag, its constant-time
// bitsliced AES. Over fae's LEA (NewFromBlock with the block of
// lea.NewCipher) the chain runs in general registers and the keystream apart
// from it on LEA's CTR kernels.
//
// SealBatch and OpenBatch (package batch) fill the AES units instead with
// many messages: with AES keys on amd64 they run 16 messages side by side
// with VAES and AVX-512 (four to a zmm register), 8 with VAES on ymm
// registers or 4 with AES-NI, each lane with its own length and its CBC-MAC
// chain beside its keystream. The Go code formats each message's blocks
// once; the kernel moves each lane through them and gives a lane whose
// message ends the next one, up to 64 messages a call. A batch of equal
// messages then costs about the AES work of its blocks. Over fae's LEA, and
// over fae's AES where no batch kernel runs (arm64, the purego build, CPUs
// without AVX), Go runs the CBC-MACs of 16 messages side by side, each step
// one call to the cipher's multi-block kernel for all of them, and each
// message's keystream on its CTR kernel: two to three times the speed of
// one message at a time (1.3 times at 64 bytes, measured with amd64's
// AES-NI block kernels and this Go, arm64's arrangement). With any other
// cipher they call Seal and Open in turn.
//
// Nonces are 7 to 13 bytes (12 with New) and must never repeat under one
// key. The nonce size N sets the size L = 15-N of the message length field
// and with it the longest message, 2^(8L)-1 bytes: 64 KiB-1 with a 13-byte
// nonce, 16 MiB-1 with 12 bytes, 4 GiB-1 with 11. Seal panics on a longer
// plaintext and Open rejects a longer ciphertext, as crypto/cipher's GCM
// does at its limit.
//
// Tags are 4, 6, ..., 16 bytes (16 with New). The tag length is part of the
// first MAC block, so a short tag is not a truncation of a longer one. A
// forger succeeds with probability 2^(-8t) per try against a t-byte tag,
// which makes tags under 8 bytes fit only where tries are limited.
package ccm

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/alias"
	ilea "github.com/faelabs/fae/internal/lea"
	"github.com/faelabs/fae/internal/words"
)

const (
	blockSize = 16
	// NonceSize and TagSize are the defaults of New.
	NonceSize = 12
	TagSize   = 16
	// MinNonceSize, MaxNonceSize, MinTagSize and MaxTagSize bound
	// NewWithSizes and NewFromBlock; tag sizes are even.
	MinNonceSize = 7
	MaxNonceSize = 13
	MinTagSize   = 4
	MaxTagSize   = 16
)

// multiBlock is a block cipher that also encrypts many blocks per call;
// fae's AES and LEA implement it.
type multiBlock interface {
	cipher.Block
	EncryptBlocks(dst, src []byte)
}

// AEAD is CCM with a fixed key, nonce size and tag size. It is immutable and
// safe for concurrent use.
type AEAD struct {
	aes       *aes.Block  // the cipher when it is fae's AES
	lea       *ilea.Block // the cipher when it is fae's LEA
	b         multiBlock  // the cipher otherwise
	nonceSize int
	tagSize   int
	maxLen    uint64 // the longest message, in bytes
}

// New returns AES-CCM with a 16-, 24- or 32-byte key, 12-byte nonces (which
// allow messages of up to 16 MiB-1) and 16-byte tags.
func New(key []byte) (*AEAD, error) {
	return NewWithSizes(key, NonceSize, TagSize)
}

// NewWithSizes returns AES-CCM with a 16-, 24- or 32-byte key, nonceSize in
// 7..13 and tagSize one of 4, 6, ..., 16.
func NewWithSizes(key []byte, nonceSize, tagSize int) (*AEAD, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("ccm: %w", err)
	}
	return newAEAD(b, nil, nonceSize, tagSize)
}

// NewFromBlock returns CCM over any block cipher with 16-byte blocks, with
// nonceSize in 7..13 and tagSize one of 4, 6, ..., 16. A cipher that also
// has an EncryptBlocks method (many blocks per call, as fae's LEA) is used
// through it.
func NewFromBlock(b cipher.Block, nonceSize, tagSize int) (*AEAD, error) {
	if b.BlockSize() != blockSize {
		return nil, errors.New("ccm: block size must be 16 bytes")
	}
	mb, ok := b.(multiBlock)
	if !ok {
		mb = oneByOne{b}
	}
	a, err := newAEAD(nil, mb, nonceSize, tagSize)
	if err != nil {
		return nil, err
	}
	a.lea, _ = b.(*ilea.Block)
	return a, nil
}

// newAEAD takes either fae's AES or another cipher.
func newAEAD(aesBlock *aes.Block, b multiBlock, nonceSize, tagSize int) (*AEAD, error) {
	if nonceSize < MinNonceSize || nonceSize > MaxNonceSize {
		return nil, errors.New("ccm: nonce size " + strconv.Itoa(nonceSize) + " not in 7..13")
	}
	if tagSize < MinTagSize || tagSize > MaxTagSize || tagSize%2 != 0 {
		return nil, errors.New("ccm: tag size " + strconv.Itoa(tagSize) + " not one of 4, 6, ..., 16")
	}
	a := &AEAD{aes: aesBlock, b: b, nonceSize: nonceSize, tagSize: tagSize, maxLen: math.MaxUint64}
	if l := 15 - nonceSize; l < 8 {
		a.maxLen = 1<<(8*l) - 1
	}
	return a, nil
}

// NonceSize returns the nonce size in bytes.
func (a *AEAD) NonceSize() int { return a.nonceSize }

// Overhead returns the tag size in bytes.
func (a *AEAD) Overhead() int { return a.tagSize }

// Seal encrypts and authenticates plaintext, authenticates additionalData,
// and appends ciphertext || tag to dst, as cipher.AEAD. It panics if nonce
// is not NonceSize() bytes long, if plaintext is longer than the nonce size
// allows (see the package comment), if the output would overlap plaintext
// other than exactly, or if it would overlap additionalData.
func (a *AEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	if len(nonce) != a.nonceSize {
		panic("ccm: incorrect nonce length given to CCM")
	}
	if uint64(len(plaintext)) > a.maxLen {
		panic("ccm: message too large for CCM with this nonce size")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+a.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("ccm: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("ccm: invalid buffer overlap of output and additional data")
	}
	tag := a.seal(out[:len(plaintext)], nonce, plaintext, additionalData)
	copy(out[len(plaintext):], tag[:a.tagSize])
	return ret
}

var errOpen = errors.New("ccm: message authentication failed")

// Open authenticates and decrypts ciphertext || tag and appends the
// plaintext to dst, as cipher.AEAD. On failure, including a ciphertext longer
// than the nonce size allows, it returns an error and overwrites the bytes it
// had written with zeros. It panics if nonce is not NonceSize() bytes long,
// if the output would overlap ciphertext || tag other than exactly (from its
// start), or if it would overlap additionalData.
func (a *AEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != a.nonceSize {
		panic("ccm: incorrect nonce length given to CCM")
	}
	if len(ciphertext) < a.tagSize || uint64(len(ciphertext)-a.tagSize) > a.maxLen {
		return nil, errOpen
	}
	n := len(ciphertext) - a.tagSize
	ret, out := alias.SliceForAppend(dst, n)
	if alias.InexactOverlap(out, ciphertext) {
		panic("ccm: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, additionalData) {
		panic("ccm: invalid buffer overlap of output and additional data")
	}
	tag := a.open(out, nonce, ciphertext[:n], additionalData)
	if !words.Equal(tag[:a.tagSize], ciphertext[n:]) {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// state is the working set of one message; it stays on the caller's stack.
type state struct {
	x    [blockSize]byte     // CBC-MAC value
	ctr  [blockSize]byte     // counter block of the next whole block
	s0   [blockSize]byte     // E(A_0), which masks the tag
	last [blockSize]byte     // keystream of the final partial block
	buf  [3 * blockSize]byte // blocks for the cipher
	heap *[3 * blockSize]byte
}

func (a *AEAD) seal(out, nonce, plaintext, ad []byte) [blockSize]byte {
	var s state
	a.start(&s, nonce, len(plaintext), ad)
	full := len(plaintext) &^ (blockSize - 1)
	if full > 0 {
		a.sealBlocks(&s, out[:full], plaintext[:full])
	}
	if p := plaintext[full:]; len(p) > 0 {
		var pad [blockSize]byte
		copy(pad[:], p)
		a.macBlocks(&s, pad[:])
		subtle.XORBytes(out[full:], p, s.last[:])
	}
	return xor(s.x, s.s0)
}

func (a *AEAD) open(out, nonce, ciphertext, ad []byte) [blockSize]byte {
	var s state
	a.start(&s, nonce, len(ciphertext), ad)
	full := len(ciphertext) &^ (blockSize - 1)
	if full > 0 {
		a.openBlocks(&s, out[:full], ciphertext[:full])
	}
	if c := ciphertext[full:]; len(c) > 0 {
		var pad [blockSize]byte
		subtle.XORBytes(pad[:], c, s.last[:])
		copy(out[full:], pad[:len(c)])
		a.macBlocks(&s, pad[:])
	}
	return xor(s.x, s.s0)
}

// start formats B_0 and the counter blocks A_i for a message of msgLen
// bytes (RFC 3610, Section 2.2 and 2.3) and leaves in s the CBC-MAC of B_0
// and the associated data, E(A_0), the keystream of a final partial block,
// and A_1. It encrypts B_0, A_0 and that keystream block in one call.
func (a *AEAD) start(s *state, nonce []byte, msgLen int, ad []byte) {
	if a.aes == nil && a.lea == nil {
		s.heap = new([3 * blockSize]byte)
	}
	// A_i = L' || nonce || i and B_0 = Flags || nonce || msgLen differ
	// from A_0 in the first byte and in the low 8 bytes, where the L <= 8
	// bytes of the counter or length field end; Seal and Open have checked
	// that msgLen, and so every counter value, fits in the field.
	b0, a0, am := s.buf[:blockSize], s.buf[blockSize:2*blockSize], s.buf[2*blockSize:]
	a0[0] = byte(14 - a.nonceSize) // L' = L-1
	copy(a0[1:], nonce)
	lo := binary.BigEndian.Uint64(a0[8:])
	copy(b0, a0)
	b0[0] |= byte((a.tagSize - 2) / 2 << 3) // M'
	if len(ad) > 0 {
		b0[0] |= 0x40 // Adata
	}
	binary.BigEndian.PutUint64(b0[8:], lo|uint64(msgLen))
	s.ctr = [blockSize]byte(a0)
	binary.BigEndian.PutUint64(s.ctr[8:], lo|1)
	n := 2
	if msgLen%blockSize != 0 {
		copy(am, a0)
		binary.BigEndian.PutUint64(am[8:], lo|uint64(msgLen/blockSize+1))
		n = 3
	}
	a.encrypt(s, 0, n)
	copy(s.x[:], b0)
	copy(s.s0[:], a0)
	copy(s.last[:], am)
	if len(ad) > 0 {
		a.macAD(s, ad)
	}
}

// incCounter adds one to counter block ctr. The length limit keeps the
// counter inside its L bytes, so nothing carries out of the low 64 bits.
func incCounter(ctr *[blockSize]byte) {
	binary.BigEndian.PutUint64(ctr[8:], binary.BigEndian.Uint64(ctr[8:])+1)
}

// macAD absorbs the encoded length of ad and ad itself, zero-padded to whole
// blocks (RFC 3610, Section 2.2). Associated data of up to 30 bytes takes one
// kernel call.
func (a *AEAD) macAD(s *state, ad []byte) {
	var h [2 * blockSize]byte
	head, ad := adHead(h[:], ad)
	a.macBlocks(s, head)
	full := len(ad) &^ (blockSize - 1)
	if full > 0 {
		a.macBlocks(s, ad[:full])
	}
	if rest := ad[full:]; len(rest) > 0 {
		var pad [blockSize]byte
		copy(pad[:], rest)
		a.macBlocks(s, pad[:])
	}
}

// putADLen writes the encoding of the associated data length l to b and
// returns its size: 2 bytes below 2^16-2^8, then 0xfffe and 4 bytes below
// 2^32, then 0xffff and 8 bytes.
func putADLen(b []byte, l uint64) int {
	switch {
	case l < 1<<16-1<<8:
		binary.BigEndian.PutUint16(b, uint16(l))
		return 2
	case l <= math.MaxUint32:
		b[0], b[1] = 0xff, 0xfe
		binary.BigEndian.PutUint32(b[2:], uint32(l))
		return 6
	}
	b[0], b[1] = 0xff, 0xff
	binary.BigEndian.PutUint64(b[2:], l)
	return 10
}

// counterWords returns the big-endian halves of A_0 = L' || nonce || 0 for
// a nonce of nonceSize bytes: A_i and B_0 differ from it in the first byte
// and in the low 8 bytes, where the counter or length field of L <= 8
// bytes ends.
func counterWords(nonceSize int, nonce []byte) (hi, lo uint64) {
	if n := len(nonce); n > 7 {
		// The first seven bytes by one load of eight.
		hi = binary.BigEndian.Uint64(nonce) >> 8
		lo = binary.BigEndian.Uint64(nonce[n-8:]) << (8 * (15 - n) & 63)
	} else {
		hi = uint64(binary.BigEndian.Uint32(nonce))<<24 | uint64(binary.BigEndian.Uint16(nonce[4:]))<<8 | uint64(nonce[6])
	}
	return uint64(14-nonceSize)<<56 | hi, lo // L' = L-1
}

// b0Hi returns B_0's first eight bytes from A_0's (hi): the flags byte with
// the tag size (M') and, for a message with associated data, Adata.
func (a *AEAD) b0Hi(hi uint64, hasAD bool) uint64 {
	flags := uint64((a.tagSize-2)/2<<3) << 56
	if hasAD {
		flags |= 0x40 << 56
	}
	return hi | flags
}

// adHead writes the encoding of ad's length (not 0) and as much of ad as
// fits after it to h, zero padded to whole blocks, and returns those blocks
// and the rest of ad.
func adHead(h, ad []byte) (head, rest []byte) {
	n := putADLen(h, uint64(len(ad)))
	k := copy(h[n:], ad)
	end := (n + k + blockSize - 1) &^ (blockSize - 1)
	clear(h[n+k : end])
	return h[:end], ad[k:]
}

// encrypt encrypts blocks from..to-1 of s.buf in place. It calls fae's AES
// and LEA directly, which keeps s on the caller's stack; another cipher works
// on s.heap, since buffers passed through an interface escape.
func (a *AEAD) encrypt(s *state, from, to int) {
	b := s.buf[from*blockSize : to*blockSize]
	switch {
	case a.aes != nil:
		a.aes.EncryptBlocks(b, b)
		return
	case a.lea != nil:
		a.lea.EncryptBlocks(b, b)
		return
	}
	h := s.heap[:len(b)]
	copy(h, b)
	a.b.EncryptBlocks(h, h)
	copy(b, h)
}

func xor(x, y [blockSize]byte) [blockSize]byte {
	subtle.XORBytes(x[:], x[:], y[:])
	return x
}

var _ cipher.AEAD = (*AEAD)(nil)
