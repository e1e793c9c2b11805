package ccm

import (
	"bytes"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
)

// fit truncates b or pads it with zeros to n bytes.
func fit(b []byte, n int) []byte {
	return append(b[:min(len(b), n):min(len(b), n)], make([]byte, max(n-len(b), 0))...)
}

// FuzzRoundTrip seals and opens fuzzed messages on every path: all must
// agree, round-trip, in place too, and reject a flipped bit anywhere in
// ciphertext or tag. It does so over AES, and over fae's LEA, on each path
// of LEA's kernels against CCM over LEA as a plain cipher.Block. sizes picks
// the key, nonce and tag sizes, and key and nonce are cut or padded to them,
// so that every input is used.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("key"), []byte("nonce"), []byte("plaintext"), []byte("ad"), uint8(0), uint16(3))
	f.Add([]byte{}, []byte{}, make([]byte, 1000), []byte{}, uint8(146), uint16(8000))
	f.Add([]byte{1}, []byte{2}, make([]byte, 33), make([]byte, 40), uint8(77), uint16(100))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, sizes uint8, flip uint16) {
		key = fit(key, []int{16, 24, 32}[sizes%3])
		nonce = fit(nonce, MinNonceSize+int(sizes/3%7))
		tagSize := MinTagSize + 2*int(sizes/21%7)
		if l := 15 - len(nonce); l < 8 && uint64(len(pt)) >= 1<<(8*l) {
			return // too long for the nonce size; TestLengthLimit covers it
		}
		// check seals and opens with a and compares the result with *want,
		// which it sets if nil.
		check := func(path string, a *AEAD, err error, want *[]byte) {
			if err != nil {
				t.Fatal(err)
			}
			ct := a.Seal(nil, nonce, pt, ad)
			if *want == nil {
				*want = bytes.Clone(ct)
			} else if !bytes.Equal(ct, *want) {
				t.Fatalf("path %s disagrees", path)
			}
			buf := append(make([]byte, 0, len(ct)), pt...)
			if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, ct) {
				t.Fatalf("path %s: Seal in place differs", path)
			}
			if got, err := a.Open(buf[:0], nonce, buf[:len(ct)], ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("path %s: round trip in place failed", path)
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
		paths.Each(func(path string) {
			a, err := NewWithSizes(key, len(nonce), tagSize)
			check("aes/"+path, a, err, &want)
		})
		want = nil
		impltest.Generic(func() {
			a, err := newLEA(key, true, len(nonce), tagSize)
			check("lea/plain", a, err, &want)
		})
		leaPaths.Each(func(path string) {
			a, err := newLEA(key, false, len(nonce), tagSize)
			check("lea/"+path, a, err, &want)
		})
	})
}

// FuzzBatch compares SealBatch and OpenBatch with single calls on every
// path (aeadtest.FuzzBatch); sizes picks the key, nonce and tag sizes.
func FuzzBatch(f *testing.F) {
	aeadtest.FuzzBatch(f, paths.Each, func(sizes uint8) (*AEAD, error) {
		key := make([]byte, []int{16, 24, 32}[sizes%3])
		return NewWithSizes(key, MinNonceSize+int(sizes/3%7), MinTagSize+2*int(sizes/21%7))
	})
}
