// Package rocca implements ROCCA-S, the AES-round-based authenticated cipher
// of draft-nakano-rocca-s (Nakano, Isobe et al.), with a 32-byte key, a
// 16-byte nonce and a 32-byte tag.
//
// It follows the 256-bit-key algorithm of revisions -03 and -05 of the draft
// (the key is added to the state after the 16 initialisation rounds, and the
// finalisation adds no key) and passes -05's Appendix A.2 test vectors;
// revision -06 adds shorter keys and is reported to leave this algorithm and
// its vectors unchanged. ROCCA-S is an Internet-Draft, not a standard.
//
// A nonce must never repeat under one key: a repeat reveals the XOR of the
// plaintexts and lets an attacker recover the state and forge. Nonces are
// long enough to be chosen at random.
//
// Beyond cipher.AEAD the AEAD has detached tags (SealDetached, OpenDetached),
// DecryptUnverified for protocols that authenticate elsewhere, and
// incremental encryption and decryption (NewEncrypter, NewDecrypter) that
// produce the same bytes as Seal and Open however the message is split.
//
// On amd64 with AES-NI and AVX, and on arm64 with the ARMv8 Cryptography
// Extensions, the state lives in registers through assembly kernels (on
// amd64, a single call from key to tag for each Seal and Open);
// elsewhere, and with the purego build tag, a constant-time
// bitsliced AES round in pure Go (no table lookup indexed by secret data)
// does the work. Decryption is about a third slower than encryption on long
// messages: each block's plaintext takes an AES round of the state before
// the state can absorb it (_asm/rocca.go derives the bound).
// Batches (SealBatch, OpenBatch) run four messages at once in the lanes of
// zmm registers with AVX-512, each its own length, or two of one shape in
// ymm with VAES.
package rocca

import (
	"crypto/cipher"
	"crypto/subtle"
	"errors"
	"strconv"

	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/words"
)

const (
	KeySize   = 32
	NonceSize = 16
	TagSize   = 32

	blockSize = 32 // bytes absorbed per round
)

// state is S0..S6, each block in memory order (the layout the kernels load).
type state [7][16]byte

// AEAD is ROCCA-S with a fixed key. It is immutable and safe for concurrent
// use.
type AEAD struct {
	key [KeySize]byte
}

// New returns ROCCA-S with a 32-byte key.
func New(key []byte) (*AEAD, error) {
	if len(key) != KeySize {
		return nil, errors.New("rocca: invalid key size " + strconv.Itoa(len(key)) + " (want 32 bytes)")
	}
	a := new(AEAD)
	copy(a.key[:], key)
	return a, nil
}

// NonceSize returns 16.
func (a *AEAD) NonceSize() int { return NonceSize }

// Overhead returns 32, the tag size.
func (a *AEAD) Overhead() int { return TagSize }

var errOpen = errors.New("rocca: message authentication failed")

// Seal encrypts and authenticates plaintext, authenticates ad, and appends
// ciphertext || tag to dst, as cipher.AEAD. It panics if nonce is not 16
// bytes long, if the output would overlap plaintext other than exactly, or if
// it would overlap ad.
func (a *AEAD) Seal(dst, nonce, plaintext, ad []byte) []byte {
	checkNonce(nonce)
	ret, out := alias.SliceForAppend(dst, len(plaintext)+TagSize)
	if alias.InexactOverlap(out, plaintext) || alias.AnyOverlap(out, ad) {
		checkOverlap(out, plaintext, ad) // the tests inline, the panics do not
	}
	tag := a.seal(out[:len(plaintext)], nonce, plaintext, ad)
	copy(out[len(plaintext):], tag[:])
	return ret
}

// Open authenticates and decrypts ciphertext || tag and appends the
// plaintext to dst, as cipher.AEAD. On failure it returns an error and
// overwrites the bytes it had written with zeros. It panics if nonce is not
// 16 bytes long, if the output would overlap ciphertext || tag other than
// exactly (from its start), or if it would overlap ad.
func (a *AEAD) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	checkNonce(nonce)
	if len(ciphertext) < TagSize {
		return nil, errOpen
	}
	n := len(ciphertext) - TagSize
	return a.OpenDetached(dst, nonce, ciphertext[:n], ciphertext[n:], ad)
}

// SealDetached is Seal with the tag returned apart: it appends the
// ciphertext alone to dst and returns it, and returns the 32-byte tag in a
// new slice. It panics as Seal does.
func (a *AEAD) SealDetached(dst, nonce, plaintext, ad []byte) (ciphertext, tag []byte) {
	checkNonce(nonce)
	ret, out := alias.SliceForAppend(dst, len(plaintext))
	checkOverlap(out, plaintext, ad)
	t := a.seal(out, nonce, plaintext, ad)
	return ret, t[:]
}

// OpenDetached is Open with the tag given apart: it authenticates and
// decrypts ciphertext with tag and appends the plaintext to dst. On failure it
// returns an error and overwrites the bytes it had written with zeros. It
// panics as Open does, and if the output would overlap tag.
func (a *AEAD) OpenDetached(dst, nonce, ciphertext, tag, ad []byte) ([]byte, error) {
	checkNonce(nonce)
	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	if alias.InexactOverlap(out, ciphertext) || alias.AnyOverlap(out, ad) {
		checkOverlap(out, ciphertext, ad) // as in Seal
	}
	if alias.AnyOverlap(out, tag) {
		panic("rocca: invalid buffer overlap of output and tag")
	}
	want := a.open(out, nonce, ciphertext, ad)
	if !words.Equal(want[:], tag) {
		clear(out)
		return nil, errOpen
	}
	return ret, nil
}

// DecryptUnverified decrypts ciphertext (without a tag), appends the
// plaintext to dst and returns it, with the tag that sealing that plaintext
// with nonce and ad would have produced, in a new slice. It panics as
// OpenDetached does.
//
// The plaintext is NOT authenticated. DecryptUnverified is for
// protocols that authenticate the message by other means, or that compare
// computedTag themselves (in constant time, with crypto/subtle) before they
// act on the plaintext. Everyone else should use Open or OpenDetached.
func (a *AEAD) DecryptUnverified(dst, nonce, ciphertext, ad []byte) (plaintext, computedTag []byte) {
	checkNonce(nonce)
	ret, out := alias.SliceForAppend(dst, len(ciphertext))
	checkOverlap(out, ciphertext, ad)
	t := a.open(out, nonce, ciphertext, ad)
	return ret, t[:]
}

func checkNonce(nonce []byte) {
	if len(nonce) != NonceSize {
		panic("rocca: incorrect nonce length given to ROCCA-S")
	}
}

func checkOverlap(out, in, ad []byte) {
	if alias.InexactOverlap(out, in) {
		panic("rocca: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("rocca: invalid buffer overlap of output and additional data")
	}
}

// seal encrypts plaintext into out (as long, or the same slice) and returns
// the tag.
func (a *AEAD) seal(out, nonce, plaintext, ad []byte) (tag [TagSize]byte) {
	if a.message(out, nonce, plaintext, ad, false, &tag) {
		return tag
	}
	var s state
	a.start(&s, nonce, ad)
	full := len(plaintext) &^ (blockSize - 1)
	s.encrypt(out[:full], plaintext[:full])
	if p := plaintext[full:]; len(p) > 0 {
		// The round absorbs the zero-padded plaintext.
		var b [blockSize]byte
		copy(b[:], p)
		s.encrypt(b[:], b[:])
		copy(out[full:], b[:])
	}
	return s.finalize(uint64(len(ad)), uint64(len(plaintext)))
}

// open decrypts ciphertext into out (as long, or the same slice) and returns
// the tag the plaintext should have.
func (a *AEAD) open(out, nonce, ciphertext, ad []byte) (tag [TagSize]byte) {
	if a.message(out, nonce, ciphertext, ad, true, &tag) {
		return tag
	}
	var s state
	a.start(&s, nonce, ad)
	full := len(ciphertext) &^ (blockSize - 1)
	s.decrypt(out[:full], ciphertext[:full])
	if c := ciphertext[full:]; len(c) > 0 {
		var m [blockSize]byte
		ks := s.keyStream()
		subtle.XORBytes(m[:], c, ks[:len(c)])
		s.absorb(m[:])
		copy(out[full:], m[:len(c)])
	}
	return s.finalize(uint64(len(ad)), uint64(len(ciphertext)))
}

// start initialises s from the key and nonce and absorbs ad.
func (a *AEAD) start(s *state, nonce, ad []byte) {
	s.init(&a.key, nonce)
	full := len(ad) &^ (blockSize - 1)
	s.absorb(ad[:full])
	if rest := ad[full:]; len(rest) > 0 {
		var b [blockSize]byte
		copy(b[:], rest)
		s.absorb(b[:])
	}
}

// keyStream returns the 32 bytes the next round would XOR with its input,
// without running the round.
func (s *state) keyStream() [blockSize]byte {
	var ks [blockSize]byte
	t := *s
	t.encrypt(ks[:], ks[:])
	return ks
}

var _ cipher.AEAD = (*AEAD)(nil)
