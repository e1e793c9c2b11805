package lea

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"math/bits"

	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/lea"
)

type ctrStream struct {
	b      lea.Block
	hi, lo uint64          // the next counter block, as big-endian halves
	ks     [BlockSize]byte // keystream of the block before it
	off    int             // bytes of ks already used; 16 when none is left
}

// NewCTR returns LEA in counter mode with a 16-, 24- or 32-byte key and a
// 16-byte initial counter block: its output is identical to
// crypto/cipher.NewCTR over NewCipher(key), with the counter block a 128-bit
// big-endian integer that wraps around, but whole blocks run on the
// word-sliced kernels. It keeps no reference to key or iv.
func NewCTR(key, iv []byte) (cipher.Stream, error) {
	s := &ctrStream{off: BlockSize}
	if err := s.b.Init(key); err != nil {
		return nil, err
	}
	if len(iv) != BlockSize {
		return nil, errors.New("lea: IV length must equal the block size (16 bytes)")
	}
	s.hi = binary.BigEndian.Uint64(iv[:8])
	s.lo = binary.BigEndian.Uint64(iv[8:])
	return s, nil
}

// XORKeyStream XORs src with the keystream, as cipher.Stream: dst must be at
// least as long as src, and the two may overlap only exactly.
func (s *ctrStream) XORKeyStream(dst, src []byte) {
	if len(dst) < len(src) {
		panic("lea: output smaller than input")
	}
	dst = dst[:len(src)]
	if alias.InexactOverlap(dst, src) {
		panic("lea: invalid buffer overlap")
	}
	if s.off < BlockSize {
		n := subtle.XORBytes(dst, src, s.ks[s.off:])
		s.off += n
		dst, src = dst[n:], src[n:]
	}
	for len(src) >= BlockSize {
		// The kernels carry nothing out of lo: stop where it wraps.
		n := uint64(len(src) / BlockSize)
		if s.lo != 0 {
			n = min(n, -s.lo)
		}
		k := int(n) * BlockSize
		s.b.CTRBlocks(dst[:k], src[:k], s.hi, s.lo)
		s.advance(n)
		dst, src = dst[k:], src[k:]
	}
	if len(src) > 0 {
		s.ks = [BlockSize]byte{}
		s.b.CTRBlocks(s.ks[:], s.ks[:], s.hi, s.lo)
		s.advance(1)
		s.off = subtle.XORBytes(dst, src, s.ks[:])
	}
}

func (s *ctrStream) advance(n uint64) {
	var carry uint64
	s.lo, carry = bits.Add64(s.lo, n, 0)
	s.hi += carry
}
