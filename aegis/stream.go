package aegis

import "github.com/faelabs/fae/internal/piecewise"

// Encrypter encrypts one message handed over in pieces of any size. The
// ciphertext and tag are those Seal (or SealDetached) produces for the
// whole message, however it is split. An Encrypter is not safe for
// concurrent use.
type Encrypter struct{ m message }

// Decrypter decrypts one message handed over in pieces of any size, for
// messages too large to hold at once.
//
// A streaming decrypter necessarily hands out plaintext before it can check
// the tag, which covers the whole message: everything XORKeyStream returns
// is unauthenticated until Verify returns nil, and must be neither used nor
// released before, or discarded when Verify fails. To stream large data
// with authentication along the way, use fae's chunked file format (package
// github.com/faelabs/fae/stream), which checks every chunk before
// releasing it. A Decrypter is not safe for concurrent use.
type Decrypter struct{ m message }

type message = piecewise.Message[pieceState, *pieceState]

// NewEncrypter starts the encryption of a message with nonce and
// additionalData. It panics if nonce is not NonceSize() bytes long. The
// Encrypter keeps no reference to nonce or additionalData.
func (a *AEAD) NewEncrypter(nonce, additionalData []byte) *Encrypter {
	e := new(Encrypter)
	a.start(&e.m, nonce, additionalData)
	return e
}

// NewDecrypter starts the decryption of a message with nonce and
// additionalData. It panics if nonce is not NonceSize() bytes long. The
// Decrypter keeps no reference to nonce or additionalData.
func (a *AEAD) NewDecrypter(nonce, additionalData []byte) *Decrypter {
	d := new(Decrypter)
	a.start(&d.m, nonce, additionalData)
	return d
}

func (a *AEAD) start(m *message, nonce, ad []byte) {
	a.check(nonce, ad, 0)
	var p pieceState
	p.st.init(a.v, a.key[:a.v.keySize], nonce)
	p.st.absorb(ad)
	p.tagSize = a.tagSize
	m.Start(p, "aegis", a.tagSize, uint64(len(ad)), maxLen)
}

// XORKeyStream encrypts the next len(src) bytes of the message into dst,
// which must be at least as long; dst and src may be the same slice but
// must not overlap otherwise. It panics after Tag, and past 2^61-1 bytes.
func (e *Encrypter) XORKeyStream(dst, src []byte) { e.m.XORKeyStream(dst, src, false) }

// Tag ends the message and returns its tag. Later calls return the same
// tag.
func (e *Encrypter) Tag() []byte { return e.m.Tag() }

// XORKeyStream decrypts the next len(src) bytes of the ciphertext (without
// the tag) into dst, with the rules of Encrypter.XORKeyStream. The output
// is not authenticated until Verify returns nil. It panics after Verify.
func (d *Decrypter) XORKeyStream(dst, src []byte) { d.m.XORKeyStream(dst, src, true) }

// Verify ends the message and checks tag, in constant time, against the
// tag of the ciphertext and additional data. On failure the caller must
// discard all the plaintext XORKeyStream returned. Later calls give the
// same answer for the same tag.
func (d *Decrypter) Verify(tag []byte) error {
	if !d.m.Verify(tag) {
		return errOpen
	}
	return nil
}

// pieceState is a message's state as package piecewise drives it.
type pieceState struct {
	st      state
	tagSize int
}

func (p *pieceState) BlockSize() int { return p.st.v.rate() }

func (p *pieceState) Encrypt(dst, src []byte) { p.blocks(opEnc, dst, src) }

func (p *pieceState) Decrypt(dst, src []byte) { p.blocks(opDec, dst, src) }

func (p *pieceState) Absorb(block []byte) { p.blocks(opAbsorb, nil, block) }

func (p *pieceState) blocks(op int, dst, src []byte) {
	r := p.st.v.rate()
	p.st.blocks(op, dst, src, len(src)/r, r)
}

func (p *pieceState) KeyStream(ks *[piecewise.MaxBlock]byte) { p.st.keystream(ks) }

func (p *pieceState) Finalize(adLen, msgLen uint64) [piecewise.MaxTag]byte {
	return p.st.finalize(adLen, msgLen, p.tagSize)
}
