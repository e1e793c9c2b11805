package rocca

import (
	"bytes"
	"testing"
)

// FuzzRoundTrip seals fuzzed messages on every path, in one piece and in
// the pieces cut says, and opens them: all must agree, round-trip, and
// reject a flipped bit anywhere in ciphertext or tag.
func FuzzRoundTrip(f *testing.F) {
	f.Add(make([]byte, KeySize), make([]byte, NonceSize), []byte("plaintext"), []byte("ad"), []byte{3, 1}, uint16(3))
	f.Add(make([]byte, KeySize), make([]byte, NonceSize), make([]byte, 1000), []byte{}, []byte{200, 31, 33}, uint16(8000))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad, cut []byte, flip uint16) {
		if len(key) != KeySize || len(nonce) != NonceSize {
			return
		}
		var split []int
		left := len(pt)
		for _, c := range cut {
			k := min(int(c), left)
			split = append(split, k)
			left -= k
		}
		split = append(split, left)
		var want []byte
		paths.Each(func(path string) {
			a, err := New(key)
			if err != nil {
				t.Fatal(err)
			}
			ct := a.Seal(nil, nonce, pt, ad)
			if want == nil {
				want = bytes.Clone(ct)
			} else if !bytes.Equal(ct, want) {
				t.Fatalf("path %s disagrees", path)
			}
			out := make([]byte, len(pt))
			if tag := encryptPieces(a, nonce, ad, out, pt, split); !bytes.Equal(append(out, tag...), ct) {
				t.Fatalf("path %s: Encrypter disagrees with Seal", path)
			}
			if err := decryptPieces(a, nonce, ad, out, ct[:len(pt)], ct[len(pt):], split); err != nil || !bytes.Equal(out, pt) {
				t.Fatalf("path %s: Decrypter failed", path)
			}
			if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("path %s: round trip failed", path)
			}
			bit := int(flip) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
			if _, err := a.Open(nil, nonce, ct, ad); err == nil {
				t.Fatalf("path %s: flipped bit %d accepted", path, bit)
			}
		})
	})
}
