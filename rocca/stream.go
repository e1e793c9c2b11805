package rocca

import (
	"crypto/subtle"

	"github.com/faelabs/fae/internal/alias"
)

// An Encrypter encrypts one message in pieces of any size. The ciphertext
// and tag are byte for byte those of Seal with the same nonce, plaintext and
// additional data, however the plaintext is split.
type Encrypter struct {
	p piecewise
}

// A Decrypter decrypts one message in pieces of any size, as Open would, but
// it must hand out each piece's plaintext before it has seen the tag:
// XORKeyStream returns unauthenticated plaintext, which an attacker may have
// chosen, and only Verify, at the end, tells whether the message is genuine.
// Callers must not act on the plaintext, or release it, before Verify
// succeeds. For authenticated streaming of large data, where each piece is
// verified before it is released, use the chunked file format of package
// github.com/faelabs/fae/stream.
type Decrypter struct {
	p piecewise
}

// NewEncrypter starts a message with nonce and additional data ad. It
// panics if nonce is not 16 bytes long. The Encrypter keeps no reference to
// nonce or ad.
func (a *AEAD) NewEncrypter(nonce, ad []byte) *Encrypter {
	e := new(Encrypter)
	e.p.start(a, nonce, ad)
	return e
}

// NewDecrypter starts the decryption of a message sealed with nonce and
// additional data ad. It panics if nonce is not 16 bytes long. The
// Decrypter keeps no reference to nonce or ad.
func (a *AEAD) NewDecrypter(nonce, ad []byte) *Decrypter {
	d := new(Decrypter)
	d.p.start(a, nonce, ad)
	return d
}

// XORKeyStream encrypts the next len(src) bytes of the message into dst.
// dst must be at least as long as src; the two may be the same slice but
// must not overlap otherwise. It panics after Tag.
func (e *Encrypter) XORKeyStream(dst, src []byte) { e.p.xor(dst, src, false) }

// Tag ends the message and returns its 32-byte tag. The Encrypter cannot be
// used after it.
func (e *Encrypter) Tag() []byte {
	t := e.p.finish()
	return t[:]
}

// XORKeyStream decrypts the next len(src) bytes of the message into dst.
// The plaintext is not authenticated until Verify succeeds. dst must be at
// least as long as src; the two may be the same slice but must not overlap
// otherwise. It panics after Verify.
func (d *Decrypter) XORKeyStream(dst, src []byte) { d.p.xor(dst, src, true) }

// Verify ends the message and reports, in constant time, whether tag is its
// tag. On failure every byte XORKeyStream returned must be discarded. The
// Decrypter cannot be used after it.
func (d *Decrypter) Verify(tag []byte) error {
	t := d.p.finish()
	if !tagsEqual(&t, tag) {
		return errOpen
	}
	return nil
}

// piecewise is the state of an Encrypter or Decrypter. A round can absorb a
// block only once all of its plaintext is known, so the bytes of a block
// that is not complete yet wait in buf, encrypted with the keystream that
// block's round will use.
type piecewise struct {
	s     state
	ks    [blockSize]byte // keystream of the current block
	buf   [blockSize]byte // plaintext of the current block so far
	n     int             // bytes of the current block in buf
	adLen uint64
	mLen  uint64
	done  bool
}

func (p *piecewise) start(a *AEAD, nonce, ad []byte) {
	checkNonce(nonce)
	a.start(&p.s, nonce, ad)
	p.adLen = uint64(len(ad))
}

func (p *piecewise) xor(dst, src []byte, decrypt bool) {
	if p.done {
		panic("rocca: XORKeyStream after the end of the message")
	}
	if len(dst) < len(src) {
		panic("rocca: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("rocca: invalid buffer overlap")
	}
	p.mLen += uint64(len(src))

	// Finish the pending block.
	if p.n > 0 {
		k := min(blockSize-p.n, len(src))
		if decrypt {
			subtle.XORBytes(dst[:k], src[:k], p.ks[p.n:])
			copy(p.buf[p.n:], dst[:k])
		} else {
			copy(p.buf[p.n:], src[:k])
			subtle.XORBytes(dst[:k], src[:k], p.ks[p.n:])
		}
		p.n += k
		dst, src = dst[k:], src[k:]
		if p.n < blockSize {
			return
		}
		p.s.absorb(p.buf[:])
		p.n = 0
	}

	full := len(src) &^ (blockSize - 1)
	if decrypt {
		p.s.decrypt(dst[:full], src[:full])
	} else {
		p.s.encrypt(dst[:full], src[:full])
	}

	// Start a block that this piece does not complete.
	if rest := src[full:]; len(rest) > 0 {
		p.ks = p.s.keyStream()
		if decrypt {
			subtle.XORBytes(dst[full:], rest, p.ks[:])
			copy(p.buf[:], dst[full:])
		} else {
			copy(p.buf[:], rest)
			subtle.XORBytes(dst[full:], rest, p.ks[:])
		}
		p.n = len(rest)
	}
}

// finish absorbs the pending block, zero-padded, and returns the tag.
func (p *piecewise) finish() [TagSize]byte {
	if p.done {
		panic("rocca: message already ended")
	}
	p.done = true
	if p.n > 0 {
		clear(p.buf[p.n:])
		p.s.absorb(p.buf[:])
	}
	t := p.s.finalize(p.adLen, p.mLen)
	*p = piecewise{done: true}
	return t
}
