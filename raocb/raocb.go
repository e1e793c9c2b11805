// Package raocb implements RAOCB, random-access OCB over AES, as fae's
// profile "RAOCB-2, fae profile v1" (docs/raocb.md).
//
// RAOCB is OCB3 (RFC 7253) with one change: the offset of block i is
// computed directly from a per-message base and i by two AES rounds (the
// mask generating function Δ), instead of from the offset of block i-1. Any
// block of a message can then be encrypted or decrypted on its own, and all
// blocks are independent of each other. The mode comes from Jha,
// Mancillas-López, Nandi and Sen Gupta, "On random read access in OCB" (IEEE
// Trans. Inf. Theory 65(12), 2019) and Pérez-Sarmiento and Mancillas-López,
// "Parallel implementation of OCB using VAES and GPUs" (J. Supercomput. 81,
// 2025). fae's profile follows the authors' public prototype where it is
// self-consistent and RFC 7253 elsewhere; it is not a claim of byte
// compatibility with the authors' code, and it is not OCB3: the two
// interoperate with nothing but themselves.
//
// The bulk of a message runs on fused kernels that compute the masks
// alongside the cipher: AES-NI or VAES (ymm, zmm) on amd64, the ARMv8
// Cryptography Extensions on arm64. Where they do not run, the mode's Go code
// computes the masks with a bitsliced mask function and calls fae's AES
// engine, which on other architectures and with the purego build tag is its
// constant-time bitsliced AES.
//
// Nonces are 1 to 15 bytes (12 by default) and must never repeat under one
// key; tags are 8 to 16 bytes (16 by default), and, as in OCB3, the tag
// length is part of the nonce formatting. Δ is used on indices below 2^30
// only (its "reduced domain"), so a message holds at most 2^30-4 blocks,
// 16 GiB less 64 bytes, and the associated data at most 16 GiB: Open
// returns an error for longer input and Seal panics.
//
// # Random access
//
// EncryptBlocks and DecryptBlocks process any run of blocks of a message,
// and NewReaderAt gives verified random read access to a sealed message. The
// output of DecryptBlocks is NOT authenticated: it is whatever the
// ciphertext decrypts to, and an attacker who changes ciphertext blocks
// changes the plaintext returned, undetected, because only the tag over the
// whole message (and its associated data) proves integrity, and
// DecryptBlocks never sees that tag. Use it only on ciphertext whose tag has
// already been verified and which cannot have changed since, which is what
// NewReaderAt arranges.
package raocb

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/words"
)

const (
	blockSize = 16
	// NonceSize and TagSize are the defaults of New.
	NonceSize = 12
	TagSize   = 16
	// MinNonceSize, MaxNonceSize, MinTagSize and MaxTagSize bound
	// NewWithSizes.
	MinNonceSize = 1
	MaxNonceSize = 15
	MinTagSize   = 8
	MaxTagSize   = 16
)

// AEAD is RAOCB with a fixed AES key, nonce size and tag size. It is
// immutable and safe for concurrent use.
type AEAD struct {
	b         *aes.Block
	nonceSize int
	tagSize   int
	// parallelism is the number of goroutines for one large message.
	parallelism int
	// serial is the AEAD WithParallelism made this one from, nil in one a
	// constructor made (see serialAEAD).
	serial *AEAD

	r1, r2 [blockSize]byte // round keys of Δ: E(2 || 0^120), E(3 || 0^120)
	la     [blockSize]byte // base of the associated data: E(4 || 0^120)

	// encMK and decMK feed the assembly kernels (hashing uses encMK); see
	// maskKeys.
	encMK, decMK [3][blockSize]byte
	// mgfKeys are R1 and R2 as the portable Δ adds them.
	mgfKeys [2]aes.RoundKey
	// nonceBits is Nonce for a nonce of zeros, TAGLEN and the 1 before N:
	// the message kernels OR N into it.
	nonceBits [blockSize]byte
}

// New returns RAOCB over AES with a 16-, 24- or 32-byte key, 12-byte nonces
// and 16-byte tags.
func New(key []byte) (*AEAD, error) {
	return NewWithSizes(key, NonceSize, TagSize)
}

// NewWithSizes returns RAOCB over AES with a 16-, 24- or 32-byte key,
// nonceSize in 1..15 and tagSize in 8..16.
func NewWithSizes(key []byte, nonceSize, tagSize int) (*AEAD, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("raocb: %w", err)
	}
	if nonceSize < MinNonceSize || nonceSize > MaxNonceSize {
		return nil, errors.New("raocb: nonce size " + strconv.Itoa(nonceSize) + " not in 1..15")
	}
	if tagSize < MinTagSize || tagSize > MaxTagSize {
		return nil, errors.New("raocb: tag size " + strconv.Itoa(tagSize) + " not in 8..16")
	}
	a := &AEAD{b: b, nonceSize: nonceSize, tagSize: tagSize, parallelism: 1}
	var c [3 * blockSize]byte
	c[0], c[blockSize], c[2*blockSize] = 2, 3, 4
	b.EncryptBlocks(c[:], c[:])
	copy(a.r1[:], c[:])
	copy(a.r2[:], c[blockSize:])
	copy(a.la[:], c[2*blockSize:])

	last := 16 * b.Rounds()
	enc, dec := b.EncKeys(), b.DecKeys()
	a.encMK = maskKeys(a.r1, a.r2, enc[:blockSize], enc[last:last+blockSize])
	a.decMK = maskKeys(a.r1, a.r2, dec[:blockSize], dec[last:last+blockSize])
	a.nonceBits = ocbmode.Nonce(make([]byte, nonceSize), tagSize).Bytes()
	for i, r := range [2][blockSize]byte{a.r1, a.r2} {
		a.mgfKeys[i] = aes.NewRoundKey([2]uint64{binary.LittleEndian.Uint64(r[:8]), binary.LittleEndian.Uint64(r[8:])})
	}
	return a, nil
}

// maskKeys returns what the assembly kernels need besides the round keys:
// R1, R2 ^ K0 and K0 ^ Klast, K0 and Klast the first and last round keys of
// a direction. The kernels compute Δ ^ K0 = AESENC(AESENC(X ⊞ i, R1),
// R2 ^ K0), the mask and the whitening of the cipher input in one; XORed
// with K0 ^ Klast it is the last round key, which also unmasks the output.
func maskKeys(r1, r2 [blockSize]byte, first, last []byte) [3][blockSize]byte {
	mk := [3][blockSize]byte{r1, r2}
	subtle.XORBytes(mk[1][:], mk[1][:], first)
	subtle.XORBytes(mk[2][:], first, last)
	return mk
}

// NonceSize returns the nonce size in bytes.
func (a *AEAD) NonceSize() int { return a.nonceSize }

// Overhead returns the tag size in bytes.
func (a *AEAD) Overhead() int { return a.tagSize }

// base returns B = E(Nonce).
func (a *AEAD) base(nonce []byte) [blockSize]byte {
	n := ocbmode.Nonce(nonce, a.tagSize)
	w0, w1 := a.b.EncryptWords(n.W0, n.W1)
	return words.Block{W0: w0, W1: w1}.Bytes()
}

var (
	errOpen    = errors.New("raocb: message authentication failed")
	errTooLong = errors.New("raocb: message or associated data too long (over 2^30 blocks)")
)

// Seal encrypts and authenticates plaintext, authenticates ad, and appends
// ciphertext || tag to dst, as cipher.AEAD. It panics if nonce is not
// NonceSize() bytes long, if the output would overlap plaintext other than
// exactly or overlap ad, or if plaintext is longer than 2^30-4 blocks or ad
// longer than 2^30 blocks.
func (a *AEAD) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != a.nonceSize {
		panic("raocb: incorrect nonce length given to RAOCB")
	}
	if !ocbmode.RangeFits(0, uint64(len(plaintext))) {
		panic("raocb: message too long: RAOCB allows at most 2^30-4 blocks (16 GiB less 64 bytes)")
	}
	if !ocbmode.ADFits(uint64(len(ad))) {
		panic("raocb: associated data too long: RAOCB allows at most 2^30 blocks (16 GiB)")
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+a.tagSize)
	if alias.InexactOverlap(out, plaintext) {
		panic("raocb: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("raocb: invalid buffer overlap of output and additional data")
	}
	// The message kernel called here: a frame fewer on a short message's call.
	t, ok := a.messageKernel(encrypt, out[:len(plaintext)], nonce, plaintext)
	if !ok {
		t = a.messageSteps(encrypt, out[:len(plaintext)], nonce, plaintext)
	}
	if len(ad) > 0 {
		t = t.Xor(a.hash(ad))
	}
	t.Put(out[len(plaintext):])
	return ret
}

// messageSteps seals (encrypt) or opens src into out, as long, without the
// message kernel, and returns the tag of src alone, without the associated
// data's.
func (a *AEAD) messageSteps(d direction, out, nonce, src []byte) words.Block {
	b := a.base(nonce)
	sum := a.crypt(d, out, src, &b, 0)
	return a.encryptMasked(&b, ocbmode.TagIndex(uint64(len(src))), words.Load(sum[:]))
}

// Open authenticates and decrypts ciphertext || tag and appends the
// plaintext to dst, as cipher.AEAD. On failure it returns an error and
// overwrites the bytes it had written with zeros. It panics if nonce is not
// NonceSize() bytes long, if the output would overlap ciphertext || tag other
// than exactly (from its start), or if it would overlap ad.
func (a *AEAD) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != a.nonceSize {
		panic("raocb: incorrect nonce length given to RAOCB")
	}
	if len(ciphertext) < a.tagSize {
		return nil, errOpen
	}
	n := len(ciphertext) - a.tagSize
	if !ocbmode.RangeFits(0, uint64(n)) || !ocbmode.ADFits(uint64(len(ad))) {
		return nil, errTooLong
	}
	ret, out := alias.SliceForAppend(dst, n)
	if alias.InexactOverlap(out, ciphertext) {
		panic("raocb: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("raocb: invalid buffer overlap of output and additional data")
	}
	t, ok := a.messageKernel(decrypt, out, nonce, ciphertext[:n]) // as in Seal
	if !ok {
		t = a.messageSteps(decrypt, out, nonce, ciphertext[:n])
	}
	if len(ad) > 0 {
		t = t.Xor(a.hash(ad))
	}
	if !t.Matches(ciphertext[n:]) {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// EncryptBlocks encrypts src and appends the result to dst. src holds part
// of a message under nonce, from block index firstBlock on (block 0 is the
// message's first 16 bytes): whole 16-byte blocks, optionally followed by
// fewer than 16 bytes, which are then the message's final partial block.
// The output is the same bytes Seal would write at offset 16*firstBlock,
// without the tag: nothing is authenticated. Callers who assemble a message
// from pieces still need the tag of the whole message, from Seal.
//
// It panics if nonce is not NonceSize() bytes long, if the output would
// overlap src other than exactly, or if the blocks reach past the longest
// message (2^30-4 blocks).
func (a *AEAD) EncryptBlocks(dst, nonce, src []byte, firstBlock uint64) []byte {
	return a.cryptBlocks(encrypt, dst, nonce, src, firstBlock)
}

// DecryptBlocks decrypts src and appends the result to dst. src holds part
// of a sealed message's ciphertext (without its tag), from block index
// firstBlock on: whole 16-byte blocks, optionally followed by fewer than 16
// bytes, which are then the message's final partial block. The result is
// the same bytes Open would return at offset 16*firstBlock.
//
// The result is NOT authenticated: no tag is checked, and a changed
// ciphertext block decrypts to changed plaintext without any error. Only
// the tag over the whole message proves integrity. Use DecryptBlocks on
// ciphertext whose tag was verified (by Open or NewReaderAt) and which
// cannot have changed since; NewReaderAt does exactly that.
//
// It panics under the same conditions as EncryptBlocks.
func (a *AEAD) DecryptBlocks(dst, nonce, src []byte, firstBlock uint64) []byte {
	return a.cryptBlocks(decrypt, dst, nonce, src, firstBlock)
}

func (a *AEAD) cryptBlocks(d direction, dst, nonce, src []byte, first uint64) []byte {
	if len(nonce) != a.nonceSize {
		panic("raocb: incorrect nonce length given to RAOCB")
	}
	if !ocbmode.RangeFits(first, uint64(len(src))) {
		panic("raocb: blocks past the longest message: RAOCB allows at most 2^30-4 blocks")
	}
	ret, out := alias.SliceForAppend(dst, len(src))
	if alias.InexactOverlap(out, src) {
		panic("raocb: invalid buffer overlap of output and input")
	}
	prefetchRange(src)
	b := a.base(nonce)
	a.crypt(d, out, src, &b, first)
	return ret
}

// prefetchSpan bounds the bytes that EncryptBlocks and DecryptBlocks ask the
// memory for ahead of the kernel: the range of a random access is likely
// far from any cache, and fetching its lines all at once costs one memory
// latency instead of several.
const prefetchSpan = 16 << 10

// crypt encrypts or decrypts src into out (as long as src, possibly src
// itself): whole blocks with indices first, first+1, ... of the message with
// base b, then a final partial block, if any, with its pad. It returns the
// checksum of the plaintext, the padded partial block included.
func (a *AEAD) crypt(d direction, out, src []byte, b *[blockSize]byte, first uint64) [blockSize]byte {
	var sum [blockSize]byte
	full := len(src) &^ (blockSize - 1)
	if full > 0 {
		x := addIndex(*b, first)
		a.run(d, out[:full], src[:full], &x, &sum)
	}
	if p := src[full:]; len(p) > 0 {
		// The pad of the partial block after f full ones is E(Δ(B, f+1)).
		pad := a.encryptMasked(b, first+ocbmode.PartialIndex(uint64(full)), words.Block{}).Bytes()
		if d == encrypt {
			sum = xor(sum, ocbmode.Padded(p).Bytes()) // before out, which may be p, is written
		}
		subtle.XORBytes(out[full:], p, pad[:])
		if d == decrypt {
			sum = xor(sum, ocbmode.Padded(out[full:]).Bytes())
		}
	}
	return sum
}

// tag returns E(Σ ^ Δ(B, m+3)) ^ HASH(A) at full length, for a message of
// n bytes in m blocks.
func (a *AEAD) tag(b *[blockSize]byte, sum [blockSize]byte, n uint64, ad []byte) words.Block {
	return a.encryptMasked(b, ocbmode.TagIndex(n), words.Load(sum[:])).Xor(a.hash(ad))
}

// hash is HASH(A): the XOR of E(A_i ^ Δ(LA, i)) over the full blocks, and
// of E((A_* || 1 || 0...) ^ Δ(LA, a+1)) for a final partial block.
func (a *AEAD) hash(ad []byte) words.Block {
	var sum [blockSize]byte
	full := len(ad) &^ (blockSize - 1)
	if full > 0 {
		a.run(hash, nil, ad[:full], &a.la, &sum)
	}
	h := words.Load(sum[:])
	if rest := ad[full:]; len(rest) > 0 {
		h = h.Xor(a.encryptMasked(&a.la, ocbmode.PartialIndex(uint64(full)), ocbmode.Padded(rest)))
	}
	return h
}

// kernelSpan bounds the bytes of one kernel call: an assembly function
// cannot be preempted, and a goroutine sealing gigabytes must still let the
// garbage collector stop it within microseconds.
const kernelSpan = 256 << 10

// run processes the whole blocks of src as blocks does: up to one kernel
// call's worth directly, which spares a short message three calls, more
// through blocksParallel.
func (a *AEAD) run(d direction, dst, src []byte, x, sum *[blockSize]byte) {
	if len(src) <= kernelSpan {
		a.kernel(d, dst, src, x, sum)
		return
	}
	a.blocksParallel(d, dst, src, *x, sum)
}

// blocks processes the whole blocks of src, block j with the mask Δ(x ⊞ j),
// and XORs the checksum (or AD sum) into sum: the kernel's work, in spans.
func (a *AEAD) blocks(d direction, dst, src []byte, x [blockSize]byte, sum *[blockSize]byte) {
	for len(src) > 0 {
		n := min(len(src), kernelSpan)
		if d == hash {
			a.kernel(d, nil, src[:n], &x, sum)
		} else {
			a.kernel(d, dst[:n], src[:n], &x, sum)
			dst = dst[n:]
		}
		x = addIndex(x, uint64(n/blockSize))
		src = src[n:]
	}
}

// encryptMasked returns E(in ^ Δ(base, i)).
func (a *AEAD) encryptMasked(base *[blockSize]byte, i uint64, in words.Block) words.Block {
	return a.maskedWords(ocbmode.Add(words.Load(base[:]), i), in)
}

// maskedWordsKernel is maskedWords on the kernel of whole blocks.
func (a *AEAD) maskedWordsKernel(x, in words.Block) words.Block {
	xb, ib := x.Bytes(), in.Bytes()
	var out [blockSize]byte
	a.kernel(hash, nil, ib[:], &xb, &out)
	return words.Load(out[:])
}

// addIndex returns X ⊞ i: i added to each big-endian 32-bit word of X,
// modulo 2^32. i is below 2^30.
func addIndex(x [blockSize]byte, i uint64) [blockSize]byte {
	return ocbmode.Add(words.Load(x[:]), i).Bytes()
}

func xor(x, y [blockSize]byte) [blockSize]byte {
	var z [blockSize]byte
	binary.LittleEndian.PutUint64(z[:8], binary.LittleEndian.Uint64(x[:8])^binary.LittleEndian.Uint64(y[:8]))
	binary.LittleEndian.PutUint64(z[8:], binary.LittleEndian.Uint64(x[8:])^binary.LittleEndian.Uint64(y[8:]))
	return z
}

type direction int

const (
	encrypt direction = iota // dst = E(src ^ Δ) ^ Δ, sum ^= src
	decrypt                  // dst = D(src ^ Δ) ^ Δ, sum ^= dst
	hash                     // sum ^= E(src ^ Δ); no output
)

var _ cipher.AEAD = (*AEAD)(nil)
