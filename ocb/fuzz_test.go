package ocb

import (
	"bytes"
	"testing"

	"github.com/faelabs/fae/internal/impl/impltest"
)

// FuzzRoundTrip seals and opens fuzzed messages on every path: all must
// agree, round-trip, and reject a flipped bit anywhere in ciphertext or tag.
// It does so over AES, and over fae's LEA, on each path of LEA's kernels (the
// fused OCB ones included) against OCB3 over LEA as a plain cipher.Block.
func FuzzRoundTrip(f *testing.F) {
	f.Add(make([]byte, 16), []byte("nonce"), []byte("plaintext"), []byte("ad"), uint8(16), uint16(3))
	f.Add(make([]byte, 32), make([]byte, 15), make([]byte, 1000), []byte{}, uint8(8), uint16(8000))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, tagSize uint8, flip uint16) {
		if k := len(key); k != 16 && k != 24 && k != 32 {
			return
		}
		if len(nonce) < MinNonceSize || len(nonce) > MaxNonceSize || tagSize < MinTagSize || tagSize > MaxTagSize {
			return
		}
		// check seals and opens with newAEAD and the kernels selected now,
		// and compares the result with *want, which it sets if nil.
		check := func(path string, newAEAD newFunc, want *[]byte) {
			a, err := newAEAD(key, len(nonce), int(tagSize))
			if err != nil {
				t.Fatal(err)
			}
			ct := a.Seal(nil, nonce, pt, ad)
			if *want == nil {
				*want = bytes.Clone(ct)
			} else if !bytes.Equal(ct, *want) {
				t.Fatalf("path %s disagrees", path)
			}
			if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("path %s: round trip failed", path)
			}
			bit := int(flip) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
			if _, err := a.Open(nil, nonce, ct, ad); err == nil {
				t.Fatalf("path %s: flipped bit %d accepted", path, bit)
			}
		}
		var want []byte
		paths.Each(func(path string) { check("aes/"+path, NewWithSizes, &want) })
		want = nil
		impltest.Generic(func() { check("lea/plain", newPlainLEA, &want) })
		leaPaths.Each(func(path string) { check("lea/"+path, newLEA, &want) })
	})
}
