package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/lea"
)

// FuzzAgainstStdlib seals fuzzed messages on every path and compares them
// with crypto/cipher's GCM (the prefix of its tag for short tags), then
// checks the round trip and the rejection of a flipped bit; over AES, and
// over fae's LEA on every path of gcm's and LEA's kernels against
// crypto/cipher's GCM over the same LEA block.
func FuzzAgainstStdlib(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 12), []byte("plaintext"), []byte("ad"), uint8(16), uint16(3))
	f.Add(make([]byte, 32), make([]byte, 60), make([]byte, 1000), []byte{}, uint8(12), uint16(8000))
	f.Add(make([]byte, 24), make([]byte, 1), make([]byte, 129), make([]byte, 17), uint8(13), uint16(77))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, tagSize uint8, flip uint16) {
		if k := len(key); k != 16 && k != 24 && k != 32 {
			return
		}
		ts := int(tagSize)
		if len(nonce) < MinNonceSize || len(nonce) > MaxNonceSize || ts < MinTagSize || ts > MaxTagSize {
			return
		}
		// check seals and opens with newAEAD and the kernels selected now,
		// and compares the result with want.
		check := func(path string, newAEAD func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error), want []byte) {
			a, err := newAEAD(key, len(nonce), ts)
			if err != nil {
				t.Fatal(err)
			}
			ct := a.Seal(nil, nonce, pt, ad)
			if !bytes.Equal(ct, want) {
				t.Fatalf("%s: Seal differs from crypto/cipher", path)
			}
			if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s: round trip failed", path)
			}
			bit := int(flip) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
			if _, err := a.Open(nil, nonce, ct, ad); err == nil {
				t.Fatalf("%s: flipped bit %d accepted", path, bit)
			}
		}
		b, _ := stdaes.NewCipher(key)
		want := stdSeal(t, b, nonce, pt, ad, ts)
		paths.Each(func(path string) { check("aes/"+path, newAES, want) })
		l, _ := lea.NewCipher(key)
		want = stdSeal(t, l, nonce, pt, ad, ts)
		leaPaths.Each(func(path string) { check("lea/"+path, newLEA, want) })
	})
}

// FuzzBatch compares SealBatch and OpenBatch with single calls on every
// path (aeadtest.FuzzBatch); sizes picks the key, nonce and tag sizes.
func FuzzBatch(f *testing.F) {
	aeadtest.FuzzBatch(f, paths.Each, func(sizes uint8) (*AEAD, error) {
		key := make([]byte, []int{16, 24, 32}[sizes%3])
		return NewWithSizes(key, []int{NonceSize, 1, 8, 16, 60}[sizes/3%5], MinTagSize+int(sizes/15%5))
	})
}
