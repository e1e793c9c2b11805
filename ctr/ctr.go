// Package ctr implements AES in counter mode as a cipher.Stream, on fae's AES
// engine. Its output is identical to crypto/cipher.NewCTR over crypto/aes:
// the counter block is a 128-bit big-endian integer that wraps around.
package ctr

import (
	"crypto/cipher"
	"crypto/subtle"
	"errors"
	"fmt"

	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/alias"
)

type stream struct {
	b   *aes.Block
	ctr [16]byte // next counter block
	ks  [16]byte // keystream of the block before ctr
	off int      // bytes of ks already used; 16 when none is left
}

// New returns AES-CTR with a 16-, 24- or 32-byte key and a 16-byte initial
// counter block. It never holds a reference to key or iv.
func New(key, iv []byte) (cipher.Stream, error) {
	b, err := aes.New(key)
	if err != nil {
		return nil, fmt.Errorf("ctr: %w", err)
	}
	if len(iv) != aes.BlockSize {
		return nil, errors.New("ctr: IV length must equal the block size (16 bytes)")
	}
	s := &stream{b: b, off: aes.BlockSize}
	copy(s.ctr[:], iv)
	return s, nil
}

// XORKeyStream XORs src with the keystream, as cipher.Stream: dst must be at
// least as long as src, and the two may overlap only exactly.
func (s *stream) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("ctr: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("ctr: invalid buffer overlap")
	}
	if s.off < aes.BlockSize {
		n := subtle.XORBytes(dst, src, s.ks[s.off:])
		s.off += n
		dst, src = dst[n:], src[n:]
	}
	if full := len(src) &^ (aes.BlockSize - 1); full > 0 {
		s.b.XORKeyStreamAt(dst[:full], src[:full], &s.ctr)
		dst, src = dst[full:], src[full:]
	}
	if len(src) > 0 {
		s.ks = [16]byte{}
		s.b.XORKeyStreamAt(s.ks[:], s.ks[:], &s.ctr)
		s.off = subtle.XORBytes(dst, src, s.ks[:])
	}
}
