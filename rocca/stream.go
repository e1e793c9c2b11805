package rocca

import (
	"math"

	"github.com/faelabs/fae/internal/piecewise"
)

// An Encrypter encrypts one message in pieces of any size. The ciphertext
// and tag are byte for byte those of Seal with the same nonce, plaintext and
// additional data, however the plaintext is split. An Encrypter is not safe
// for concurrent use.
type Encrypter struct{ m message }

// A Decrypter decrypts one message in pieces of any size, as Open would, but
// it must hand out each piece's plaintext before it has seen the tag:
// XORKeyStream returns unauthenticated plaintext, which an attacker may have
// chosen, and only Verify, at the end, tells whether the message is genuine.
// Callers must not act on the plaintext, or release it, before Verify
// succeeds. For authenticated streaming of large data, where each piece is
// verified before it is released, use the chunked file format of package
// github.com/faelabs/fae/stream. A Decrypter is not safe for concurrent use.
type Decrypter struct{ m message }

type message = piecewise.Message[state, *state]

// NewEncrypter starts a message with nonce and additional data ad. It
// panics if nonce is not 16 bytes long. The Encrypter keeps no reference to
// nonce or ad.
func (a *AEAD) NewEncrypter(nonce, ad []byte) *Encrypter {
	e := new(Encrypter)
	a.startMessage(&e.m, nonce, ad)
	return e
}

// NewDecrypter starts the decryption of a message sealed with nonce and
// additional data ad. It panics if nonce is not 16 bytes long. The
// Decrypter keeps no reference to nonce or ad.
func (a *AEAD) NewDecrypter(nonce, ad []byte) *Decrypter {
	d := new(Decrypter)
	a.startMessage(&d.m, nonce, ad)
	return d
}

// startMessage starts m; ROCCA-S bounds no length that a uint64 count of
// bytes reaches.
func (a *AEAD) startMessage(m *message, nonce, ad []byte) {
	checkNonce(nonce)
	var s state
	a.start(&s, nonce, ad)
	m.Start(s, "rocca", TagSize, uint64(len(ad)), math.MaxUint64)
}

// XORKeyStream encrypts the next len(src) bytes of the message into dst.
// dst must be at least as long as src; the two may be the same slice but
// must not overlap otherwise. It panics after Tag.
func (e *Encrypter) XORKeyStream(dst, src []byte) { e.m.XORKeyStream(dst, src, false) }

// Tag ends the message and returns its 32-byte tag. Later calls return the
// same tag.
func (e *Encrypter) Tag() []byte { return e.m.Tag() }

// XORKeyStream decrypts the next len(src) bytes of the message into dst.
// The plaintext is not authenticated until Verify succeeds. dst must be at
// least as long as src; the two may be the same slice but must not overlap
// otherwise. It panics after Verify.
func (d *Decrypter) XORKeyStream(dst, src []byte) { d.m.XORKeyStream(dst, src, true) }

// Verify ends the message and reports, in constant time, whether tag is its
// tag. On failure every byte XORKeyStream returned must be discarded. Later
// calls give the same answer for the same tag.
func (d *Decrypter) Verify(tag []byte) error {
	if !d.m.Verify(tag) {
		return errOpen
	}
	return nil
}

// The methods piecewise.Message drives.

func (s *state) BlockSize() int { return blockSize }

func (s *state) Encrypt(dst, src []byte) { s.encrypt(dst, src) }

func (s *state) Decrypt(dst, src []byte) { s.decrypt(dst, src) }

func (s *state) Absorb(block []byte) { s.absorb(block) }

func (s *state) KeyStream(ks *[piecewise.MaxBlock]byte) {
	k := s.keyStream()
	copy(ks[:], k[:])
}

func (s *state) Finalize(adLen, msgLen uint64) [piecewise.MaxTag]byte {
	return s.finalize(adLen, msgLen)
}
