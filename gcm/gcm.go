// Package gcm implements the Galois/Counter Mode of NIST SP 800-38D over AES
// (New, NewWithSizes) or any 128-bit block cipher (NewFromBlock), and
// XAES-256-GCM (NewXAES256, c2sp.org/XAES-256-GCM). Its output is that of
// crypto/cipher's GCM for every input.
//
// Constant time. No path looks up a table with, or branches on, the key, the
// hash key H, the plaintext or the tag:
//   - on amd64 with AES-NI and PCLMULQDQ, and on arm64 with the AES and
//     PMULL instructions, AES keys run on stitched assembly kernels
//     (counter mode and GHASH over 8 blocks per iteration, on amd64 in AVX
//     encodings, or legacy SSE ones on CPUs without AVX; with VAES and
//     VPCLMULQDQ, 16 on ymm and 32 on zmm), whose instructions take the
//     same time for any data; other block ciphers hash with their GHASH;
//   - elsewhere (purego, 386, arm, s390x, or such a CPU without those
//     instructions) AES runs on fae's AES engine (its
//     constant-time bitsliced code when the CPU has no AES instructions) and
//     GHASH on integer multiplications of operands masked so that carries
//     cannot reach the bits kept (the method of Thomas Pornin's BearSSL
//     ghash_ctmul64). That is constant time where the CPU multiplies in
//     the same time for all operands, as current amd64, arm64, s390x and 386
//     cores do (on 386 and arm each 64-bit product is three 32-bit
//     multiplications); cores that end a multiplication early, such as the
//     ARM7TDMI and ARM9TDMI, are not (fae's docs/security.md says more);
//   - NewFromBlock is as constant time as the block cipher it is given; its
//     GHASH is the above. Over fae's LEA (lea.NewCipher) it runs LEA's
//     counter kernels, and SealBatch and OpenBatch take the counter blocks
//     of a group of short messages in one call.
//
// Nonces are 12 bytes by default. NewWithSizes accepts 1 to 1024 bytes, for
// compatibility with protocols that fixed another size: a 12-byte nonce is
// the counter block's prefix, while any other size is hashed with GHASH to
// give the first counter block, so counter blocks of different messages may
// then collide, the more likely the longer the messages (NIST SP 800-38D,
// Section 8.3, allows such a key 2^32 messages), and may collide with those
// of 12-byte nonces under the same key. A nonce of fewer than 12 bytes also
// caps the number of messages: one byte allows 256. The upper bound keeps
// hashing the nonce cheap and exceeds every size in use.
// Nonces must never repeat under one key: a repeated nonce reveals the XOR of
// the plaintexts and lets an attacker forge tags.
//
// Tags are 16 bytes by default; NewWithSizes accepts 12 to 16 bytes, the
// leading bytes of the full tag. A message holds at most 2^32-2 blocks
// (64 GiB less 32 bytes).
package gcm

import (
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
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
	// NewWithSizes and NewFromBlock.
	MinNonceSize = 1
	MaxNonceSize = 1024
	MinTagSize   = 12
	MaxTagSize   = 16
)

// maxBlocks is GCM's limit on a message, set by its 32-bit counter: the
// first counter value goes to the tag.
const maxBlocks = 1<<32 - 2

// counter is a message's first counter block J0: its first 12 bytes, as a
// little-endian word and half word, and its last 4, the counter, as a
// number. GCM increments only the counter, modulo 2^32.
type counter struct {
	w0 uint64
	w1 uint32
	c  uint32
}

// at returns the counter block whose counter is c.
func (j counter) at(c uint32) words.Block {
	return words.Block{W0: j.w0, W1: uint64(j.w1) | uint64(bits.ReverseBytes32(c))<<32}
}

type cipherKind int

const (
	aesCipher   cipherKind = iota // fae's AES: AEAD.block
	leaCipher                     // fae's LEA: AEAD.lea
	otherCipher                   // any other: AEAD.b
)

// AEAD is GCM with a fixed key, nonce size and tag size. It is immutable and
// safe for concurrent use.
type AEAD struct {
	kind  cipherKind
	block aes.Block   // the key, with aesCipher
	lea   *ilea.Block // the key, with leaCipher
	b     cipher.Block
	// parallelism is the number of goroutines for one large message.
	parallelism int
	// serial is the AEAD WithParallelism made this one from, nil in one a
	// constructor made (see serialAEAD).
	serial    *AEAD
	nonceSize int
	tagSize   int
	// h is the hash key H in the form of the portable GHASH; kern is the
	// kernel chosen when a was made, and key its form of H.
	h    fieldKey
	kern kernel
	key  kernelKey
}

// New returns AES-GCM with a 16-, 24- or 32-byte key, 12-byte nonces and
// 16-byte tags.
func New(key []byte) (*AEAD, error) {
	return NewWithSizes(key, NonceSize, TagSize)
}

// NewWithSizes returns AES-GCM with a 16-, 24- or 32-byte key, nonceSize in
// 1..1024 and tagSize in 12..16. Nonces of other than 12 bytes exist for
// compatibility only; the package documentation gives their limits.
func NewWithSizes(key []byte, nonceSize, tagSize int) (*AEAD, error) {
	a := new(AEAD)
	if err := a.block.Init(key); err != nil {
		return nil, fmt.Errorf("gcm: %w", err)
	}
	if err := a.init(aesCipher, nonceSize, tagSize, anyLength); err != nil {
		return nil, err
	}
	return a, nil
}

// NewFromBlock returns GCM over any block cipher with 16-byte blocks, with
// nonceSize in 1..1024 and tagSize in 12..16. Over fae's LEA it runs LEA's
// counter kernels.
func NewFromBlock(b cipher.Block, nonceSize, tagSize int) (*AEAD, error) {
	if b.BlockSize() != blockSize {
		return nil, errors.New("gcm: block size must be 16 bytes")
	}
	a := &AEAD{b: b}
	kind := otherCipher
	if l, ok := b.(*ilea.Block); ok {
		a.lea, kind = l, leaCipher
	}
	if err := a.init(kind, nonceSize, tagSize, anyLength); err != nil {
		return nil, err
	}
	return a, nil
}

// anyLength is init's bound for an AEAD that takes messages of any length.
const anyLength = 1<<31 - 1

// init checks the sizes and derives the hash key, once the cipher is set.
// most bounds the blocks of every message and associated data a will take:
// the kernels' key then holds only the powers of H they can reach (an AEAD
// for one message, XAES-256-GCM's, costs less to set up).
func (a *AEAD) init(kind cipherKind, nonceSize, tagSize, most int) error {
	if nonceSize < MinNonceSize || nonceSize > MaxNonceSize {
		return errors.New("gcm: nonce size " + strconv.Itoa(nonceSize) + " not in 1..1024")
	}
	if tagSize < MinTagSize || tagSize > MaxTagSize {
		return errors.New("gcm: tag size " + strconv.Itoa(tagSize) + " not in 12..16")
	}
	a.kind, a.nonceSize, a.tagSize, a.parallelism = kind, nonceSize, tagSize, 1
	h := a.encrypt(words.Block{})
	a.h = newFieldKey(h)
	a.initKernel(h, most)
	return nil
}

// NonceSize returns the nonce size in bytes.
func (a *AEAD) NonceSize() int { return a.nonceSize }

// Overhead returns the tag size in bytes.
func (a *AEAD) Overhead() int { return a.tagSize }

// Seal encrypts and authenticates plaintext, authenticates ad, and appends
// ciphertext || tag to dst, as cipher.AEAD. It panics if nonce is not
// NonceSize() bytes long, if plaintext is longer than 2^32-2 blocks, or if
// the output would overlap plaintext other than exactly, or overlap ad.
func (a *AEAD) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != a.nonceSize {
		panic("gcm: incorrect nonce length given to GCM")
	}
	if uint64(len(plaintext)) > maxBlocks*blockSize {
		panic("gcm: message too large for GCM")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+a.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("gcm: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("gcm: invalid buffer overlap of output and additional data")
	}
	// crypt written out: a frame fewer, whose stacked arguments cost a
	// short message's call a few nanoseconds.
	j := a.j0(nonce)
	tag, ok := a.message(sealOp, out, plaintext, ad, j)
	if !ok {
		tag = a.steps(sealOp, out, plaintext, ad, j)
	}
	tag.Put(out[len(plaintext):])
	return ret
}

var errOpen = errors.New("gcm: message authentication failed")

// Open authenticates and decrypts ciphertext || tag and appends the plaintext
// to dst, as cipher.AEAD. It decrypts while it authenticates: on failure it
// returns an error and overwrites the bytes it had written with zeros. It
// panics if nonce is not NonceSize() bytes long or if the output would
// overlap ciphertext other than exactly, or overlap ad.
func (a *AEAD) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != a.nonceSize {
		panic("gcm: incorrect nonce length given to GCM")
	}
	if len(ciphertext) < a.tagSize || uint64(len(ciphertext)) > maxBlocks*blockSize+uint64(a.tagSize) {
		return nil, errOpen
	}
	n := len(ciphertext) - a.tagSize
	ret, out := alias.SliceForAppend(dst, n)
	if alias.InexactOverlap(out, ciphertext) {
		panic("gcm: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("gcm: invalid buffer overlap of output and additional data")
	}
	j := a.j0(nonce) // crypt written out, as in Seal
	tag, ok := a.message(openOp, out, ciphertext[:n], ad, j)
	if !ok {
		tag = a.steps(openOp, out, ciphertext[:n], ad, j)
	}
	if !tag.Matches(ciphertext[n:]) {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// steps is crypt through the kernels' steps.
func (a *AEAD) steps(o op, out, in, ad []byte, j counter) words.Block {
	mask := a.encrypt(j.at(j.c)) // first: the work that follows hides its latency
	var y words.Block
	if len(ad) > 0 {
		a.hashAD(&y, ad)
	}
	full := len(in) &^ (blockSize - 1)
	if full > 0 {
		a.run(o, out[:full], in[:full], j, j.c+1, &y)
	}
	if rest := in[full:]; len(rest) > 0 {
		ks, tail := a.encrypt(j.at(j.c+1+uint32(full/blockSize))), out[full:len(in)]
		if o == openOp {
			y = a.mulH(y.Xor(words.LoadPartial(rest))) // before tail, which may be rest, is written
		}
		ks.XorPartial(tail, rest)
		if o == sealOp {
			y = a.mulH(y.Xor(words.LoadPartial(tail)))
		}
	}
	return a.finish(y, mask, len(ad), len(in))
}

// finish absorbs the lengths block into y and returns the full tag,
// GHASH ^ E(J0).
func (a *AEAD) finish(y, mask words.Block, adLen, msgLen int) words.Block {
	lengths := words.Block{W0: bits.ReverseBytes64(uint64(adLen) * 8), W1: bits.ReverseBytes64(uint64(msgLen) * 8)}
	return a.mulH(y.Xor(lengths)).Xor(mask)
}

// j0 returns the first counter block for nonce (NIST SP 800-38D, Section
// 7.1): nonce || 1 for a 12-byte nonce, else the GHASH of the nonce, zero
// padded, and of its length in bits.
// It inlines: a short message's call costs a few nanoseconds.
func (a *AEAD) j0(nonce []byte) counter {
	if len(nonce) == 12 {
		return counter{binary.LittleEndian.Uint64(nonce), binary.LittleEndian.Uint32(nonce[8:]), 1}
	}
	return a.j0Hash(nonce)
}

// j0Hash is j0 for a nonce of other than 12 bytes.
func (a *AEAD) j0Hash(nonce []byte) counter {
	var y words.Block
	full := len(nonce) &^ (blockSize - 1)
	a.h.update(&y, nonce[:full])
	var buf [2 * blockSize]byte
	k := 0
	if rest := nonce[full:]; len(rest) > 0 {
		copy(buf[:], rest)
		k = blockSize
	}
	binary.BigEndian.PutUint64(buf[k+8:], uint64(len(nonce))*8)
	a.h.update(&y, buf[:k+blockSize])
	return counter{y.W0, uint32(y.W1), bits.ReverseBytes32(uint32(y.W1 >> 32))}
}

// hashAD absorbs the associated data, its last partial block zero padded.
func (a *AEAD) hashAD(y *words.Block, ad []byte) {
	full := len(ad) &^ (blockSize - 1)
	a.run(hashOp, nil, ad[:full], counter{}, 0, y)
	if rest := ad[full:]; len(rest) > 0 {
		*y = a.mulH(y.Xor(words.LoadPartial(rest)))
	}
}

// The mode reaches the kernels through five methods, which each
// architecture's file provides (gcm_amd64.go; gcm_noasm.go elsewhere) and
// which fall back to gcm_generic.go's portable code:
//
//	initKernel(h block, most int)
//	    chooses a.kern and fills a.key from H, at construction, for
//	    messages and associated data of at most most blocks.
//	ghash(y *block, src []byte)
//	    absorbs the whole blocks of src, at least one, into y.
//	mulH(y block) block
//	    returns y·H.
//	cryptBlocks(o op, dst, src []byte, j counter, c uint32, y *block)
//	    seals (sealOp) or opens (openOp) the whole blocks of src, at least
//	    one and at most maxKernelBlocks, with the counter blocks c, c+1, ...
//	    of j (modulo 2^32), absorbing the ciphertext into y; dst is as long
//	    as src and is src or does not overlap it.
//	message(o op, dst, src, ad []byte, j counter) (tag block, ok bool)
//	    seals or opens a whole message in one call, where the family has
//	    such a kernel and the message suits it, and returns the full tag;
//	    else ok is false and the mode runs the steps above.
type op int

const (
	sealOp op = iota // dst = CTR(src); hash dst
	openOp           // hash src; dst = CTR(src)
	hashOp           // hash src; no output
)

// run processes whole blocks of a message (counter c onward) or of the
// associated data, over several goroutines when a.parallelism and the length
// say so.
func (a *AEAD) run(o op, dst, src []byte, j counter, c uint32, y *words.Block) {
	if a.parallelism > 1 {
		a.runParallel(o, dst, src, j, c, y)
		return
	}
	a.runSerial(o, dst, src, j, c, y)
}

// maxKernelBlocks bounds one kernel call (256 KiB): assembly cannot be
// preempted, and the garbage collector's stop-the-world waits for it.
const maxKernelBlocks = 1 << 14

// runSerial hands whole blocks to the kernels, at most maxKernelBlocks per
// call.
func (a *AEAD) runSerial(o op, dst, src []byte, j counter, c uint32, y *words.Block) {
	for len(src) > 0 {
		n := min(len(src), maxKernelBlocks*blockSize)
		if o == hashOp {
			a.ghash(y, src[:n])
		} else {
			a.cryptBlocks(o, dst[:n], src[:n], j, c, y)
			dst = dst[n:]
		}
		src = src[n:]
		c += uint32(n / blockSize)
	}
}

// encrypt enciphers one block, in registers with fae's AES and LEA.
func (a *AEAD) encrypt(x words.Block) words.Block {
	switch a.kind {
	case aesCipher:
		w0, w1 := a.block.EncryptWords(x.W0, x.W1)
		return words.Block{W0: w0, W1: w1}
	case leaCipher:
		w0, w1 := a.lea.EncryptWords(x.W0, x.W1)
		return words.Block{W0: w0, W1: w1}
	}
	buf := make([]byte, blockSize) // escapes through the interface anyway
	x.Store(buf)
	a.b.Encrypt(buf, buf)
	return words.Load(buf)
}

var _ cipher.AEAD = (*AEAD)(nil)
