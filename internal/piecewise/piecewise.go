// Package piecewise is the incremental encryption and decryption behind the
// Encrypter and Decrypter of packages aegis and rocca: one message handed
// over in pieces of any length gives, byte for byte, what a one-shot Seal or
// Open of the whole message gives.
package piecewise

import (
	"crypto/subtle"

	"github.com/faelabs/fae/internal/alias"
)

// MaxBlock is the largest block a State may have (AEGIS-128X4's).
const MaxBlock = 128

// MaxTag is the largest tag a State may have.
const MaxTag = 32

// A State is the state of one message of a cipher that works block by
// block as AEGIS and ROCCA-S do, keyed and with the associated data
// absorbed: each block of ciphertext is its plaintext XOR a keystream that
// the state sets before the block, after which the state absorbs the
// plaintext. A final partial block takes the start of its keystream and is
// absorbed zero-padded.
type State interface {
	// BlockSize returns the block size in bytes, at most MaxBlock.
	BlockSize() int
	// Encrypt and Decrypt process whole blocks from src into dst, which is
	// as long, and absorb their plaintext. dst and src are the same slice
	// or do not overlap.
	Encrypt(dst, src []byte)
	Decrypt(dst, src []byte)
	// Absorb absorbs one block of plaintext.
	Absorb(block []byte)
	// KeyStream sets the first BlockSize() bytes of ks to the next block's
	// keystream and leaves the state as it is.
	KeyStream(ks *[MaxBlock]byte)
	// Finalize returns the tag of a message of msgLen bytes with adLen
	// bytes of associated data, in its first bytes.
	Finalize(adLen, msgLen uint64) [MaxTag]byte
}

// Message is one message in progress; S is the cipher's state type and P
// its pointer type, which implements State. A Message is not safe for
// concurrent use.
type Message[S any, P interface {
	*S
	State
}] struct {
	s       S
	bs      int    // the block size
	name    string // the package, for panics
	tagSize int
	adLen   uint64
	msgLen  uint64
	maxLen  uint64
	// A piece that ends inside a block leaves that block's keystream in ks
	// and its plaintext so far in pend: the state can absorb the block only
	// once it is complete, or zero-padded at the end.
	ks   [MaxBlock]byte
	pend [MaxBlock]byte
	n    int // bytes in pend
	done bool
	tag  [MaxTag]byte
}

// Start begins a message with s, a state ready for the first block after
// adLen bytes of associated data. The tag has tagSize bytes; the message may
// have maxLen. name prefixes the panics.
func (m *Message[S, P]) Start(s S, name string, tagSize int, adLen, maxLen uint64) {
	*m = Message[S, P]{s: s, name: name, tagSize: tagSize, adLen: adLen, maxLen: maxLen}
	m.bs = P(&m.s).BlockSize()
}

// XORKeyStream encrypts, or with decrypt decrypts, the next len(src) bytes
// of the message into dst. It panics if dst is shorter than src, if the two
// overlap other than exactly, past maxLen bytes, or after the message ended.
func (m *Message[S, P]) XORKeyStream(dst, src []byte, decrypt bool) {
	if m.done {
		panic(m.name + ": XORKeyStream after the end of the message")
	}
	if len(dst) < len(src) {
		panic(m.name + ": output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic(m.name + ": invalid buffer overlap of output and input")
	}
	if uint64(len(src)) > m.maxLen-m.msgLen {
		panic(m.name + ": message too large")
	}
	m.msgLen += uint64(len(src))
	s, r := P(&m.s), m.bs
	if m.n > 0 {
		k := m.partial(dst, src, decrypt)
		dst, src = dst[k:], src[k:]
		if m.n < r {
			return
		}
		s.Absorb(m.pend[:r])
		m.n = 0
	}
	full := len(src) &^ (r - 1)
	if full > 0 {
		if decrypt {
			s.Decrypt(dst[:full], src[:full])
		} else {
			s.Encrypt(dst[:full], src[:full])
		}
	}
	if full < len(src) {
		s.KeyStream(&m.ks)
		m.partial(dst[full:], src[full:], decrypt)
	}
}

// partial processes the start of src that falls in the pending block and
// returns its length.
func (m *Message[S, P]) partial(dst, src []byte, decrypt bool) int {
	k := min(len(src), m.bs-m.n)
	p, ks := m.pend[m.n:m.n+k], m.ks[m.n:m.n+k]
	if decrypt {
		subtle.XORBytes(p, src[:k], ks)
		copy(dst, p)
	} else {
		copy(p, src[:k])
		subtle.XORBytes(dst[:k], p, ks)
	}
	m.n += k
	return k
}

// finish ends the message once: it absorbs the pending block, computes the
// tag and wipes the state and the buffers.
func (m *Message[S, P]) finish() {
	if m.done {
		return
	}
	s := P(&m.s)
	if m.n > 0 {
		clear(m.pend[m.n:m.bs])
		s.Absorb(m.pend[:m.bs])
	}
	m.tag = s.Finalize(m.adLen, m.msgLen)
	m.done = true
	var zero S
	m.s = zero
	clear(m.pend[:])
	clear(m.ks[:])
}

// Tag ends the message and returns its tag in a new slice. Later calls
// return the same tag.
func (m *Message[S, P]) Tag() []byte {
	m.finish()
	return append([]byte(nil), m.tag[:m.tagSize]...)
}

// Verify ends the message and reports, in constant time, whether tag is its
// tag. Later calls give the same answer for the same tag.
func (m *Message[S, P]) Verify(tag []byte) bool {
	m.finish()
	return subtle.ConstantTimeCompare(m.tag[:m.tagSize], tag) == 1
}
