// Package ocb implements OCB3, the authenticated encryption mode of RFC 7253,
// over AES (New, NewWithSizes) or any 128-bit block cipher (NewFromBlock).
//
// With AES keys the bulk of a message runs on fused assembly kernels that
// keep the offsets in registers: AES-NI or VAES (ymm, zmm) on amd64, the
// ARMv8 Cryptography Extensions on arm64. Where they do not run, the mode's
// Go code calls fae's AES engine, which on other architectures and with the
// purego build tag is its constant-time bitsliced AES. Over fae's LEA
// (NewFromBlock with the block of lea.NewCipher) the bulk runs on LEA's
// fused AVX2 or AVX-512 kernels on amd64 and through its NEON kernels on
// arm64. On amd64 a message of up to 256 KiB takes one assembly call: it
// formats the nonce, enciphers Ktop, hashes up to 64 bytes of associated
// data under Ktop's latency and enciphers the final partial block's pad and
// the tag beside the last blocks. With VAES on zmm registers, SealBatch and
// OpenBatch run 16 messages of a batch side by side, one per 128-bit lane,
// each step (Ktop, block j, the pad, the tag) one pass of the AES pipeline
// for all; over LEA, and over the portable AES, short messages go through
// the cipher in groups, each step one call for the group. The mode's Go
// code is the reference these kernels are tested against.
//
// Nonces are 1 to 15 bytes (12 by default) and must never repeat under one
// key: a repeated nonce reveals the XOR of plaintext blocks and lets an
// attacker forge. A short nonce also caps the number of messages per key
// (256 for one byte). Liénardy and Lafitte, "A weakness in OCB3 used with
// short nonces allowing for a break of authenticity and confidentiality"
// (IACR ePrint 2023/326, Information Processing Letters 183), report a flaw
// in OCB3's security proof that appears with short nonces: confidentiality
// and authenticity are then lost until the key changes, even if no nonce
// repeats. They give fixes and, for the mode as it stands, ask that the
// requirement "N ≥ 6" become absolute. The paper's full text was not
// available to us, so its unit is not established here. RFC 7253 measures N
// in bits, and one case follows from the RFC alone: a nonce of 5 bits or
// fewer puts the 1 bit in front of it among the 6 low bits cleared before
// Ktop is enciphered, so with a 128-bit tag Ktop is the encryption of the
// zero block, L_*. fae's nonces are whole bytes and never reach that case;
// RustCrypto's ocb3 reads the bound as 6 bytes and rejects shorter nonces.
// Use 12 bytes; until the unit is settled, treat 6 bytes as the minimum.
//
// Tags are 8 to 16 bytes (16 by default). The tag length is part of the
// nonce formatting, so a shorter tag is not a truncation of a longer one.
package ocb

import (
	"crypto/cipher"
	"errors"
	"fmt"
	"math/bits"
	"strconv"

	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/alias"
	ilea "github.com/faelabs/fae/internal/lea"
	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/words"
)

const (
	blockSize = 16
	// NonceSize and TagSize are the defaults of New.
	NonceSize = 12
	TagSize   = 16
	// MinNonceSize, MaxNonceSize, MinTagSize and MaxTagSize bound
	// NewWithSizes and NewFromBlock.
	MinNonceSize = 1
	MaxNonceSize = 15
	MinTagSize   = 8
	MaxTagSize   = 16
)

// bulkCipher is a block cipher that also encrypts many blocks per call;
// fae's AES and LEA implement it.
type bulkCipher interface {
	cipher.Block
	EncryptBlocks(dst, src []byte)
	DecryptBlocks(dst, src []byte)
}

// AEAD is OCB3 with a fixed key, nonce size and tag size. It is immutable
// and safe for concurrent use.
type AEAD struct {
	aes       *aes.Block // the cipher when it is fae's AES: &block
	block     aes.Block
	lea       *ilea.Block // the cipher when it is fae's LEA
	b         bulkCipher  // the cipher otherwise
	nonceSize int
	tagSize   int
	// parallelism is the number of goroutines for one large message.
	parallelism int
	// serial is the AEAD WithParallelism made this one from, nil in one a
	// constructor made (see serialAEAD).
	serial *AEAD

	lStar, lDollar words.Block
	l              ocbmode.L // L_i, in the kernels' layout
	// rel[j] is the XOR of L_ntz(k) for k = 1..j+1: the offset of block j+1
	// of a 32-block group relative to the offset before the group. It is
	// exact for j < 31 in every group; kernels replace the last block's entry
	// with one L lookup per group.
	rel [32][blockSize]byte
	// ends are L_* and L_$, and nonceBits the formatted nonce block with
	// zero nonce bytes (the tag length and the 1 before the nonce), in the
	// layout of the message kernels, which OR the nonce into it.
	ends      [2][blockSize]byte
	nonceBits [blockSize]byte
}

// New returns AES-OCB3 with a 16-, 24- or 32-byte key, 12-byte nonces and
// 16-byte tags.
func New(key []byte) (*AEAD, error) {
	return NewWithSizes(key, NonceSize, TagSize)
}

// NewWithSizes returns AES-OCB3 with a 16-, 24- or 32-byte key, nonceSize
// in 1..15 and tagSize in 8..16.
func NewWithSizes(key []byte, nonceSize, tagSize int) (*AEAD, error) {
	a := new(AEAD)
	if err := a.block.Init(key); err != nil {
		return nil, fmt.Errorf("ocb: %w", err)
	}
	a.aes = &a.block
	if err := a.init(nonceSize, tagSize); err != nil {
		return nil, err
	}
	return a, nil
}

// NewFromBlock returns OCB3 over any block cipher with 16-byte blocks, with
// nonceSize in 1..15 and tagSize in 8..16. Ciphers that also have
// EncryptBlocks and DecryptBlocks methods (many blocks per call, as fae's
// LEA) are used through them.
func NewFromBlock(b cipher.Block, nonceSize, tagSize int) (*AEAD, error) {
	if b.BlockSize() != blockSize {
		return nil, errors.New("ocb: block size must be 16 bytes")
	}
	bc, ok := b.(bulkCipher)
	if !ok {
		bc = oneByOne{b}
	}
	a := &AEAD{b: bc}
	a.lea, _ = b.(*ilea.Block)
	if err := a.init(nonceSize, tagSize); err != nil {
		return nil, err
	}
	return a, nil
}

// init checks the sizes and derives the key-dependent values, once a.aes or
// a.b is set.
func (a *AEAD) init(nonceSize, tagSize int) error {
	if nonceSize < MinNonceSize || nonceSize > MaxNonceSize {
		return errors.New("ocb: nonce size " + strconv.Itoa(nonceSize) + " not in 1..15")
	}
	if tagSize < MinTagSize || tagSize > MaxTagSize {
		return errors.New("ocb: tag size " + strconv.Itoa(tagSize) + " not in 8..16")
	}
	a.nonceSize, a.tagSize, a.parallelism = nonceSize, tagSize, 1
	a.lStar = a.encrypt(words.Block{})
	a.lDollar, a.l = ocbmode.Ls(a.lStar)
	a.lStar.Store(a.ends[0][:])
	a.lDollar.Store(a.ends[1][:])
	ocbmode.Nonce(make([]byte, nonceSize), tagSize).Store(a.nonceBits[:])
	var r words.Block
	for j := range a.rel {
		r = r.Xor(ocbmode.LAt(&a.l, bits.TrailingZeros(uint(j+1))))
		r.Store(a.rel[j][:])
	}
	return nil
}

// NonceSize returns the nonce size in bytes.
func (a *AEAD) NonceSize() int { return a.nonceSize }

// Overhead returns the tag size in bytes.
func (a *AEAD) Overhead() int { return a.tagSize }

// offset0 returns Offset_0 for nonce (RFC 7253, Section 4.2).
func (a *AEAD) offset0(nonce []byte) words.Block {
	in, bottom := ocbmode.KtopInput(ocbmode.Nonce(nonce, a.tagSize))
	return ocbmode.Stretch(a.encrypt(in), bottom)
}

// Seal encrypts and authenticates plaintext, authenticates ad, and appends
// ciphertext || tag to dst, as cipher.AEAD. It panics if nonce is not
// NonceSize() bytes long, if the output would overlap plaintext other than
// exactly, or if it would overlap ad.
func (a *AEAD) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != a.nonceSize {
		panic("ocb: incorrect nonce length given to OCB")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+a.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("ocb: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("ocb: invalid buffer overlap of output and additional data")
	}
	// The message kernel called here (a frame fewer), and the tag put as
	// two words, not stored and copied back by a call that waits for the
	// stores.
	t, ok := a.messageKernel(encrypt, out[:len(plaintext)], nonce, plaintext, ad)
	if !ok {
		t = a.sealSteps(out[:len(plaintext)], nonce, plaintext, ad)
	}
	t.Put(out[len(plaintext):])
	return ret
}

var errOpen = errors.New("ocb: message authentication failed")

// Open authenticates and decrypts ciphertext || tag and appends the
// plaintext to dst, as cipher.AEAD. On failure it returns an error and
// overwrites the bytes it had written with zeros. It panics if nonce is not
// NonceSize() bytes long, if the output would overlap ciphertext || tag other
// than exactly (from its start), or if it would overlap ad.
func (a *AEAD) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != a.nonceSize {
		panic("ocb: incorrect nonce length given to OCB")
	}
	if len(ciphertext) < a.tagSize {
		return nil, errOpen
	}
	n := len(ciphertext) - a.tagSize
	ret, out := alias.SliceForAppend(dst, n)
	if alias.InexactOverlap(out, ciphertext) {
		panic("ocb: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("ocb: invalid buffer overlap of output and additional data")
	}
	t, ok := a.messageKernel(decrypt, out, nonce, ciphertext[:n], ad) // as in Seal
	if !ok {
		t = a.openSteps(out, nonce, ciphertext[:n], ad)
	}
	if !t.Matches(ciphertext[n:]) {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// sealSteps encrypts plaintext into out without the message kernel and
// returns the full-length tag.
func (a *AEAD) sealSteps(out, nonce, plaintext, ad []byte) words.Block {
	off := a.offset0(nonce)
	var sum words.Block
	full := len(plaintext) &^ (blockSize - 1)
	a.run(encrypt, out[:full], plaintext[:full], &off, &sum)
	if p := plaintext[full:]; len(p) > 0 {
		off = off.Xor(a.lStar)
		sum = sum.Xor(ocbmode.Padded(p)) // before out, which may be p, is written
		a.encrypt(off).XorPartial(out[full:], p)
	}
	return a.tag(sum, off, ad)
}

// openSteps decrypts ciphertext into out without the message kernel and
// returns the full-length tag.
func (a *AEAD) openSteps(out, nonce, ciphertext, ad []byte) words.Block {
	off := a.offset0(nonce)
	var sum words.Block
	full := len(ciphertext) &^ (blockSize - 1)
	a.run(decrypt, out[:full], ciphertext[:full], &off, &sum)
	if c := ciphertext[full:]; len(c) > 0 {
		off = off.Xor(a.lStar)
		a.encrypt(off).XorPartial(out[full:], c)
		sum = sum.Xor(ocbmode.Padded(out[full:]))
	}
	return a.tag(sum, off, ad)
}

// tag returns Tag = E(Checksum ^ Offset ^ L_$) ^ HASH(A), at full length.
func (a *AEAD) tag(sum, off words.Block, ad []byte) words.Block {
	t := a.encrypt(sum.Xor(off).Xor(a.lDollar))
	if len(ad) > 0 {
		t = t.Xor(a.hash(ad))
	}
	return t
}

// hash is HASH(K, A) of RFC 7253, Section 4.1.
func (a *AEAD) hash(ad []byte) words.Block {
	var off, sum words.Block
	full := len(ad) &^ (blockSize - 1)
	a.run(hash, nil, ad[:full], &off, &sum)
	if rest := ad[full:]; len(rest) > 0 {
		off = off.Xor(a.lStar)
		sum = sum.Xor(a.encrypt(ocbmode.Padded(rest).Xor(off)))
	}
	return sum
}

// encrypt enciphers one block, in registers with fae's AES and LEA.
func (a *AEAD) encrypt(x words.Block) words.Block {
	if a.aes != nil {
		w0, w1 := a.aes.EncryptWords(x.W0, x.W1)
		return words.Block{W0: w0, W1: w1}
	}
	if a.lea != nil {
		w0, w1 := a.lea.EncryptWords(x.W0, x.W1)
		return words.Block{W0: w0, W1: w1}
	}
	var buf [blockSize]byte
	x.Store(buf[:])
	a.encryptBlocks(buf[:], buf[:])
	return words.Load(buf[:])
}

// encryptBlocks and decryptBlocks call fae's AES and LEA directly, which
// keeps the callers' stack buffers on the stack; another cipher gets a heap
// copy, since buffers passed through an interface escape.
func (a *AEAD) encryptBlocks(dst, src []byte) {
	switch {
	case a.aes != nil:
		a.aes.EncryptBlocks(dst, src)
	case a.lea != nil:
		a.lea.EncryptBlocks(dst, src)
	default:
		viaHeap(a.b, false, dst, src)
	}
}

func (a *AEAD) decryptBlocks(dst, src []byte) {
	switch {
	case a.aes != nil:
		a.aes.DecryptBlocks(dst, src)
	case a.lea != nil:
		a.lea.DecryptBlocks(dst, src)
	default:
		viaHeap(a.b, true, dst, src)
	}
}

func viaHeap(b bulkCipher, decrypt bool, dst, src []byte) {
	buf := make([]byte, len(src))
	copy(buf, src)
	if decrypt {
		b.DecryptBlocks(buf, buf)
	} else {
		b.EncryptBlocks(buf, buf)
	}
	copy(dst, buf)
}

type direction int

const (
	encrypt direction = iota // dst = E(src ^ O) ^ O, sum ^= src
	decrypt                  // dst = D(src ^ O) ^ O, sum ^= dst
	hash                     // sum ^= E(src ^ O); no output
)

// run processes whole blocks from the start of a message or of the AD as
// blocksParallel does: up to one kernel call's worth directly, which spares
// a short message two calls.
func (a *AEAD) run(d direction, dst, src []byte, off, sum *words.Block) {
	if len(src) > maxKernelBlocks*blockSize {
		a.blocksParallel(d, dst, src, off, sum)
		return
	}
	if len(src) > 0 {
		a.kernel(d, dst, src, off, sum, 0)
	}
}

// maxKernelBlocks bounds one kernel call (256 KiB): assembly cannot be
// preempted, and the garbage collector's stop-the-world waits for it.
const maxKernelBlocks = 1 << 14

// blocks processes whole blocks i+1, i+2, ... (len(src)/16 of them) of a
// message or of the AD, starting from *off, the offset of block i, and
// leaves *off at the last block's offset and the checksum (or AD sum) in
// *sum. The fused kernels start at multiples of 32 and never meet an index
// with ocbmode.NumL or more trailing zeros; the generic code takes the rest.
func (a *AEAD) blocks(d direction, dst, src []byte, off, sum *words.Block, i uint64) {
	const span = 1 << ocbmode.NumL
	for len(src) > 0 {
		n := uint64(len(src) / blockSize)
		if r := i % 32; r != 0 {
			n = min(n, 32-r)
			a.blocksGeneric(d, dst, src[:n*blockSize], off, sum, i)
		} else {
			n = min(n, span-1-i%span, maxKernelBlocks)
			a.kernel(d, dst, src[:n*blockSize], off, sum, i)
		}
		i += n
		src = src[n*blockSize:]
		if d != hash {
			dst = dst[n*blockSize:]
		}
	}
}

var _ cipher.AEAD = (*AEAD)(nil)
