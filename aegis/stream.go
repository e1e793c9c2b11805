package aegis

import (
	"crypto/subtle"

	"github.com/faelabs/fae/internal/alias"
)

// Encrypter encrypts one message handed over in pieces of any size. The
// ciphertext and tag are those Seal (or SealDetached) produces for the
// whole message, however it is split. An Encrypter is not safe for
// concurrent use.
type Encrypter struct{ s stream }

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
type Decrypter struct{ s stream }

// NewEncrypter starts the encryption of a message with nonce and
// additionalData. It panics if nonce is not NonceSize() bytes long.
func (a *AEAD) NewEncrypter(nonce, additionalData []byte) *Encrypter {
	e := new(Encrypter)
	e.s.start(a, nonce, additionalData)
	return e
}

// NewDecrypter starts the decryption of a message with nonce and
// additionalData. It panics if nonce is not NonceSize() bytes long.
func (a *AEAD) NewDecrypter(nonce, additionalData []byte) *Decrypter {
	d := new(Decrypter)
	d.s.start(a, nonce, additionalData)
	return d
}

// XORKeyStream encrypts the next len(src) bytes of the message into dst,
// which must be at least as long; dst and src may be the same slice but
// must not overlap otherwise. It panics after Tag.
func (e *Encrypter) XORKeyStream(dst, src []byte) { e.s.xor(dst, src, false) }

// Tag ends the message and returns its tag. Later calls return the same
// tag.
func (e *Encrypter) Tag() []byte {
	t := e.s.finish()
	return append([]byte(nil), t[:e.s.tagSize]...)
}

// XORKeyStream decrypts the next len(src) bytes of the ciphertext (without
// the tag) into dst, with the rules of Encrypter.XORKeyStream. The output
// is not authenticated until Verify returns nil. It panics after Verify.
func (d *Decrypter) XORKeyStream(dst, src []byte) { d.s.xor(dst, src, true) }

// Verify ends the message and checks tag, in constant time, against the
// tag of the ciphertext and additional data. On failure the caller must
// discard all the plaintext XORKeyStream returned.
func (d *Decrypter) Verify(tag []byte) error {
	t := d.s.finish()
	if subtle.ConstantTimeCompare(t[:d.s.tagSize], tag) != 1 {
		return errOpen
	}
	return nil
}

// stream holds a message between pieces. A piece that ends inside an
// input block leaves the block's keystream in ks and its plaintext so far
// in pend; the block is absorbed when it is complete, or zero-padded at the
// end, as Enc and DecPartial do.
type stream struct {
	st      state
	tagSize int
	adLen   uint64
	msgLen  uint64
	pend    [maxRate]byte
	ks      [maxRate]byte
	n       int // bytes in pend
	done    bool
	tag     [32]byte
}

func (s *stream) start(a *AEAD, nonce, ad []byte) {
	a.check(nonce, ad, 0)
	s.st.init(a.v, a.key[:a.v.keySize], nonce)
	s.st.absorb(ad)
	s.tagSize, s.adLen = a.tagSize, uint64(len(ad))
}

func (s *stream) xor(dst, src []byte, decrypt bool) {
	if s.done {
		panic("aegis: XORKeyStream after the end of the message")
	}
	if len(dst) < len(src) {
		panic("aegis: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("aegis: invalid buffer overlap of output and input")
	}
	if uint64(len(src)) > maxLen-s.msgLen {
		panic("aegis: message too large")
	}
	s.msgLen += uint64(len(src))
	r := s.st.v.rate()
	if s.n > 0 {
		k := s.partial(dst, src, decrypt)
		dst, src = dst[k:], src[k:]
		if s.n < r {
			return
		}
		s.st.blocks(opAbsorb, nil, s.pend[:r], 1, r)
		s.n = 0
	}
	full := len(src) &^ (r - 1)
	if full > 0 {
		op := opEnc
		if decrypt {
			op = opDec
		}
		s.st.blocks(op, dst[:full], src[:full], full/r, r)
	}
	if full < len(src) {
		s.st.keystream(&s.ks)
		s.partial(dst[full:], src[full:], decrypt)
	}
}

// partial processes the start of src that falls in the pending block and
// returns its length.
func (s *stream) partial(dst, src []byte, decrypt bool) int {
	k := min(len(src), s.st.v.rate()-s.n)
	p, ks := s.pend[s.n:s.n+k], s.ks[s.n:s.n+k]
	if decrypt {
		subtle.XORBytes(p, src[:k], ks)
		copy(dst, p)
	} else {
		copy(p, src[:k])
		subtle.XORBytes(dst[:k], p, ks)
	}
	s.n += k
	return k
}

func (s *stream) finish() [32]byte {
	if !s.done {
		s.st.absorb(s.pend[:s.n])
		s.tag = s.st.finalize(s.adLen, s.msgLen, s.tagSize)
		s.done = true
	}
	return s.tag
}
