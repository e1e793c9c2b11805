// Package ctr implements AES in counter mode as a cipher.Stream, on fae's AES
// engine. Its output is identical to crypto/cipher.NewCTR over crypto/aes:
// the counter block is a 128-bit big-endian integer that wraps around.
package ctr

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/alias"
)

type stream struct {
	b    *aes.Block
	ctr  [16]byte // next counter block
	ks   [16]byte // keystream of the block before ctr, where made
	off  int      // bytes of that block already used; 16 when none is left
	made bool     // ks is made (see XORKeyStream)
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
	if s.off < aes.BlockSize && len(src) > 0 {
		if !s.made {
			s.makeKeystream()
		}
		n := subtle.XORBytes(dst, src, s.ks[s.off:])
		s.off += n
		dst, src = dst[n:], src[n:]
	}
	if len(src) > 0 {
		// Whole blocks and a partial last one in one kernel call; the rest
		// of the last one's keystream is made only if a later call takes
		// it (a message's last call, most often, does not).
		s.b.XORKeyStreamAt(dst, src, &s.ctr)
		if r := len(src) % aes.BlockSize; r != 0 {
			s.off, s.made = r, false
		}
	}
}

// makeKeystream makes ks, the keystream of the block before ctr.
func (s *stream) makeKeystream() {
	hi, lo := binary.BigEndian.Uint64(s.ctr[:8]), binary.BigEndian.Uint64(s.ctr[8:])
	if lo == 0 {
		hi--
	}
	lo--
	// EncryptWords takes the block as little-endian words.
	w0, w1 := s.b.EncryptWords(bits.ReverseBytes64(hi), bits.ReverseBytes64(lo))
	binary.LittleEndian.PutUint64(s.ks[:8], w0)
	binary.LittleEndian.PutUint64(s.ks[8:], w1)
	s.made = true
}
