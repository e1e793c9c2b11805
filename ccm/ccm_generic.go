package ccm

import (
	"crypto/cipher"
	"crypto/subtle"
)

// The portable kernels hand the cipher each MAC step together with a
// keystream block: the bitsliced AES encrypts four blocks in the time of
// one, so the keystream comes for free. LEA takes its own path (lea.go).

// macGeneric absorbs the whole blocks of src into the CBC-MAC.
func (a *AEAD) macGeneric(s *state, src []byte) {
	if a.lea != nil {
		a.macLEA(s, src)
		return
	}
	for ; len(src) >= blockSize; src = src[blockSize:] {
		subtle.XORBytes(s.buf[:blockSize], s.x[:], src[:blockSize])
		a.encrypt(s, 0, 1)
		copy(s.x[:], s.buf[:blockSize])
	}
}

// sealGeneric MACs and encrypts whole blocks.
func (a *AEAD) sealGeneric(s *state, dst, src []byte) {
	if a.lea != nil {
		a.sealLEA(s, dst, src)
		return
	}
	for ; len(src) >= blockSize; src, dst = src[blockSize:], dst[blockSize:] {
		subtle.XORBytes(s.buf[:blockSize], s.x[:], src[:blockSize])
		copy(s.buf[blockSize:], s.ctr[:])
		incCounter(&s.ctr)
		a.encrypt(s, 0, 2)
		copy(s.x[:], s.buf[:blockSize])
		subtle.XORBytes(dst[:blockSize], src[:blockSize], s.buf[blockSize:2*blockSize])
	}
}

// openGeneric decrypts and MACs whole blocks; the MAC step of each block
// goes with the keystream of the next.
func (a *AEAD) openGeneric(s *state, dst, src []byte) {
	if a.lea != nil {
		a.openLEA(s, dst, src)
		return
	}
	copy(s.buf[blockSize:], s.ctr[:])
	incCounter(&s.ctr)
	a.encrypt(s, 1, 2)
	for ; len(src) >= blockSize; src, dst = src[blockSize:], dst[blockSize:] {
		subtle.XORBytes(dst[:blockSize], src[:blockSize], s.buf[blockSize:2*blockSize])
		subtle.XORBytes(s.buf[:blockSize], s.x[:], dst[:blockSize])
		n := 1
		if len(src) >= 2*blockSize {
			copy(s.buf[blockSize:], s.ctr[:])
			incCounter(&s.ctr)
			n = 2
		}
		a.encrypt(s, 0, n)
		copy(s.x[:], s.buf[:blockSize])
	}
}

// oneByOne gives a plain cipher.Block the multi-block method.
type oneByOne struct{ cipher.Block }

func (b oneByOne) EncryptBlocks(dst, src []byte) {
	for i := 0; i < len(src); i += blockSize {
		b.Encrypt(dst[i:], src[i:])
	}
}
