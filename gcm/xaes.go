package gcm

import (
	"crypto/cipher"
	"encoding/binary"
	"errors"
	"math/bits"
	"strconv"

	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/words"
)

// xaes is XAES-256-GCM with a fixed key. It is immutable and safe for
// concurrent use.
type xaes struct {
	block aes.Block   // AES-256 under the input key
	k1    words.Block // CMAC's first subkey of that key
}

const xaesNonceSize = 24

// NewXAES256 returns XAES-256-GCM (c2sp.org/XAES-256-GCM) with a 32-byte key:
// AES-256-GCM with 16-byte tags under a key derived from the input key and
// the first 12 bytes of each 24-byte nonce, and the last 12 bytes as its
// nonce. The derivation is the counter KDF of NIST SP 800-108r1 with
// CMAC-AES-256, two AES encryptions per message. Nonces may be drawn at
// random: 2^80 messages under one key collide with probability under 2^-32.
// Each message also expands its derived key and computes its hash key, which
// Seal and Open do on the stack. It is as constant time as New. The AEAD
// also implements batch.AEAD.
func NewXAES256(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, errors.New("gcm: XAES-256-GCM key is " + strconv.Itoa(len(key)) + " bytes, not 32")
	}
	x := new(xaes)
	_ = x.block.Init(key) // a 32-byte key cannot fail
	// K1 = L·x, L = AES-256(K, 0^128), as CMAC doubles: the block read as a
	// big-endian number, shifted left, 0x87 added when a bit leaves.
	l0, l1 := x.block.EncryptWords(0, 0)
	hi, lo := bits.ReverseBytes64(l0), bits.ReverseBytes64(l1)
	carry := -(hi >> 63)
	hi = hi<<1 | lo>>63
	lo = lo<<1 ^ carry&0x87
	x.k1 = words.Block{W0: bits.ReverseBytes64(hi), W1: bits.ReverseBytes64(lo)}
	return x, nil
}

func (x *xaes) NonceSize() int { return xaesNonceSize }

func (x *xaes) Overhead() int { return TagSize }

// derive sets g to AES-256-GCM under the key derived from n, the nonce's
// first 12 bytes: AES-256(K, M_i ^ K1) for M_i = 0x00 || i || "X" || 0x00 ||
// n, i = 1, 2; g takes one message, whose blocks and associated data's are
// most in all.
func (x *xaes) derive(g *AEAD, n []byte, most int) {
	m0 := uint64('X')<<16 | uint64(binary.LittleEndian.Uint32(n))<<32
	m1 := binary.LittleEndian.Uint64(n[4:12])
	var k [32]byte
	for i := range 2 {
		w0, w1 := x.block.EncryptWords((m0|uint64(i+1)<<8)^x.k1.W0, m1^x.k1.W1)
		words.Block{W0: w0, W1: w1}.Store(k[16*i:])
	}
	// Neither fails: the sizes are fixed.
	_ = g.block.Init(k[:])
	_ = g.init(aesCipher, NonceSize, TagSize, most)
}

// Seal is as AEAD.Seal, with a 24-byte nonce.
func (x *xaes) Seal(dst, nonce, plaintext, ad []byte) []byte {
	if len(nonce) != xaesNonceSize {
		panic("gcm: incorrect nonce length given to XAES-256-GCM")
	}
	var g AEAD
	x.derive(&g, nonce[:12], blocks(plaintext, ad))
	return g.Seal(dst, nonce[12:], plaintext, ad)
}

// Open is as AEAD.Open, with a 24-byte nonce.
func (x *xaes) Open(dst, nonce, ciphertext, ad []byte) ([]byte, error) {
	if len(nonce) != xaesNonceSize {
		panic("gcm: incorrect nonce length given to XAES-256-GCM")
	}
	var g AEAD
	x.derive(&g, nonce[:12], blocks(ciphertext, ad))
	return g.Open(dst, nonce[12:], ciphertext, ad)
}

// blocks returns how many blocks msg and ad fill together: the message
// kernels may hash both under one reduction.
func blocks(msg, ad []byte) int {
	return (len(msg)+blockSize-1)/blockSize + (len(ad)+blockSize-1)/blockSize
}
