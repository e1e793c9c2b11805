package main

import (
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"

	"github.com/faelabs/fae"
	"github.com/faelabs/fae/ccm"
	"github.com/faelabs/fae/gcm"
	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/lea"
	"github.com/faelabs/fae/ocb"
)

// out receives every result, so that no operation is optimized away.
var out [64]byte

var targets = []target{
	{
		name: "aes-generic-encrypt",
		doc:  "bitsliced AES-128 (the generic kernel) encrypting 4 blocks; secret: the plaintext",
		size: 64,
		setup: func() ([]byte, func([]byte)) {
			b := newAES(randBytes(16))
			return make([]byte, 64), func(in []byte) { b.EncryptBlocks(out[:], in) }
		},
	},
	{
		name: "aes-aesni-encrypt",
		doc:  "AES-128 with the AES-NI instructions encrypting 4 blocks, as a reference for the hardware (amd64 only); secret: the plaintext",
		size: 64,
		setup: func() ([]byte, func([]byte)) {
			if !impl.Select("aes", "aesni") {
				return nil, nil
			}
			b := must(aes.New(randBytes(16)))
			return make([]byte, 64), func(in []byte) { b.EncryptBlocks(out[:], in) }
		},
	},
	{
		name: "aes-generic-decrypt",
		doc:  "bitsliced AES-128 decrypting 4 blocks; secret: the ciphertext",
		size: 64,
		setup: func() ([]byte, func([]byte)) {
			b := newAES(randBytes(16))
			return make([]byte, 64), func(in []byte) { b.DecryptBlocks(out[:], in) }
		},
	},
	{
		name:  "aes-generic-key128",
		doc:   "bitsliced AES-128 key expansion and one block; secret: the key",
		size:  16,
		setup: aesKey(16),
	},
	{
		name:  "aes-generic-key256",
		doc:   "bitsliced AES-256 key expansion and one block; secret: the key",
		size:  32,
		setup: aesKey(32),
	},
	{
		name: "aes-round-generic",
		doc:  "four bitsliced AES rounds (aes.Round4, the portable core of AEGIS, ROCCA-S and RAOCB's masks); secret: the state",
		size: 64,
		setup: func() ([]byte, func([]byte)) {
			var rk [4][2]uint64
			for i := range rk {
				rk[i] = [2]uint64{binary.LittleEndian.Uint64(randBytes(8)), binary.LittleEndian.Uint64(randBytes(8))}
			}
			return make([]byte, 64), func(in []byte) {
				var b [4][2]uint64
				for i := range b {
					b[i] = [2]uint64{binary.LittleEndian.Uint64(in[16*i:]), binary.LittleEndian.Uint64(in[16*i+8:])}
				}
				aes.Round4(&b, &b, &rk)
				binary.LittleEndian.PutUint64(out[:], b[0][0]^b[1][1]^b[2][0]^b[3][1])
			}
		},
	},
	{
		name:  "ocb-open-tag",
		doc:   "OCB3 Open of 64 bytes with a wrong tag (default kernels); secret: which tag bytes match",
		size:  16,
		setup: func() ([]byte, func([]byte)) { return openTag(16, ocb.New) },
	},
	{
		name:  "ccm-open-tag",
		doc:   "CCM Open of 64 bytes with a wrong tag (default kernels); secret: which tag bytes match",
		size:  16,
		setup: func() ([]byte, func([]byte)) { return openTag(16, ccm.New) },
	},
	{
		name:  "raocb-open-tag",
		doc:   "RAOCB Open of 64 bytes with a wrong tag (default kernels); secret: which tag bytes match",
		size:  16,
		setup: func() ([]byte, func([]byte)) { return openTag(16, registered("raocb-aes-128")) },
	},
	{
		name:  "aegis-open-tag",
		doc:   "AEGIS-128L Open of 64 bytes with a wrong tag (default kernels); secret: which tag bytes match",
		size:  16,
		setup: func() ([]byte, func([]byte)) { return openTag(16, registered("aegis-128l")) },
	},
	{
		name:  "rocca-open-tag",
		doc:   "ROCCA-S Open of 64 bytes with a wrong 32-byte tag (default kernels); secret: which tag bytes match",
		size:  32,
		setup: func() ([]byte, func([]byte)) { return openTag(32, registered("rocca-s")) },
	},
	{
		name:  "gcm-open-tag",
		doc:   "AES-GCM Open of 64 bytes with a wrong tag (default kernels); secret: which tag bytes match",
		size:  16,
		setup: func() ([]byte, func([]byte)) { return openTag(16, gcm.New) },
	},
	{
		name: "gcm-ghash-generic",
		doc: "GCM's portable GHASH (gcm's generic kernel, AES on the default engine) in XAES-256-GCM's Seal of 64 bytes of " +
			"associated data, whose per-message key, and so H, follows from the nonce; secret: H and the data",
		size: 24 + 64,
		setup: func() ([]byte, func([]byte)) {
			impl.Select("gcm", "generic")
			impl.Reset("aes")
			a := must(gcm.NewXAES256(randBytes(32)))
			dst := make([]byte, 0, a.Overhead())
			return randBytes(24 + 64), func(in []byte) { copy(out[:], a.Seal(dst, in[:24], nil, in[24:])) }
		},
	},
	{
		name: "lea-generic-encrypt",
		doc:  "LEA-128, portable code, encrypting 4 blocks; secret: the plaintext",
		size: 64,
		setup: func() ([]byte, func([]byte)) {
			impl.Select("lea", "generic")
			b := must(lea.New(randBytes(16)))
			return make([]byte, 64), func(in []byte) { b.EncryptBlocks(out[:], in) }
		},
	},
	{
		name: "lea-generic-key128",
		doc:  "LEA-128, portable code, key expansion and one block; secret: the key",
		size: 16,
		setup: func() ([]byte, func([]byte)) {
			impl.Select("lea", "generic")
			var b lea.Block
			pt := randBytes(16)
			return make([]byte, 16), func(in []byte) {
				b.Init(in)
				b.Encrypt(out[:], pt)
			}
		},
	},
	{
		name: "control-null",
		doc:  "bitsliced AES-128 on a constant block, ignoring the input: an A/A test, whose |t| shows the harness's and machine's false-positive level",
		size: 64,
		setup: func() ([]byte, func([]byte)) {
			b := newAES(randBytes(16))
			pt := randBytes(64)
			return randBytes(64), func([]byte) { b.EncryptBlocks(out[:], pt) }
		},
	},
	{
		name: "control-early-exit",
		doc:  "a byte-wise comparison that stops at the first difference, which must show a leak; secret: which bytes match",
		size: 16,
		setup: func() ([]byte, func([]byte)) {
			secret := randBytes(16)
			fixed := append([]byte(nil), secret...)
			fixed[15] ^= 1
			return fixed, func(in []byte) {
				i := 0
				for i < len(in) && in[i] == secret[i] {
					i++
				}
				out[0] = byte(i)
			}
		},
	},
}

// newAES returns key's AES block on the generic kernel.
func newAES(key []byte) *aes.Block {
	impl.Select("aes", "generic")
	return must(aes.New(key))
}

// aesKey returns the setup of a target that times the generic kernel's
// expansion of a key of size bytes and one block; the fixed key is zero.
func aesKey(size int) func() ([]byte, func([]byte)) {
	return func() ([]byte, func([]byte)) {
		impl.Select("aes", "generic")
		var b aes.Block
		pt := randBytes(16)
		return make([]byte, size), func(in []byte) {
			b.Init(in)
			b.Encrypt(out[:], pt)
		}
	}
}

// openTag makes an AEAD with newAEAD, a random key of keySize bytes and the
// default kernels, and returns a ciphertext's correct tag with its last byte
// changed, and an operation that opens the ciphertext with the tag it is
// given. Every tag fails, the fixed one in its last byte only, a random one
// almost surely in its first: a comparison that stops early shows the
// difference, while the rest of Open, on the same failure, is the same for
// both.
func openTag[A cipher.AEAD](keySize int, newAEAD func(key []byte) (A, error)) ([]byte, func([]byte)) {
	for _, pkg := range impl.Packages() {
		impl.Reset(pkg) // before newAEAD: some packages choose their kernel then
	}
	a := must(newAEAD(randBytes(keySize)))
	nonce, pt := randBytes(a.NonceSize()), randBytes(64)
	ct := a.Seal(nil, nonce, pt, nil)
	fixed := append([]byte(nil), ct[len(pt):]...)
	fixed[len(fixed)-1] ^= 1
	dst := make([]byte, 0, len(pt))
	return fixed, func(in []byte) {
		copy(ct[len(pt):], in)
		if _, err := a.Open(dst, nonce, ct, nil); err == nil {
			panic("dudect: Open accepted a wrong tag")
		}
	}
}

// registered returns the constructor of the registry's algorithm name.
func registered(name string) func(key []byte) (cipher.AEAD, error) {
	return func(key []byte) (cipher.AEAD, error) { return fae.New(name, key) }
}

func randBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
