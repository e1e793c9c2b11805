package aeadtest

import (
	"bytes"
	"crypto/cipher"
	"testing"
)

// CheckOpen checks that a opens sealed (ciphertext || tag, a known answer)
// to pt, and that it rejects sealed with one bit changed in the tag, in the
// ciphertext or in the associated data. name prefixes the errors.
func CheckOpen(t *testing.T, name string, a cipher.AEAD, nonce, ad, pt, sealed []byte) {
	t.Helper()
	got, err := a.Open(nil, nonce, sealed, ad)
	if err != nil || !bytes.Equal(got, pt) {
		t.Errorf("%s: Open = %x, %v; want %x", name, got, err, pt)
	}
	bad := bytes.Clone(sealed)
	bad[len(bad)-1] ^= 0x80
	if _, err := a.Open(nil, nonce, bad, ad); err == nil {
		t.Errorf("%s: Open accepted a tampered tag", name)
	}
	if ctLen := len(sealed) - a.Overhead(); ctLen > 0 {
		bad := bytes.Clone(sealed)
		bad[ctLen/2] ^= 1
		if _, err := a.Open(nil, nonce, bad, ad); err == nil {
			t.Errorf("%s: Open accepted a tampered ciphertext", name)
		}
	}
	if len(ad) > 0 {
		badAD := bytes.Clone(ad)
		badAD[len(badAD)-1] ^= 1
		if _, err := a.Open(nil, nonce, sealed, badAD); err == nil {
			t.Errorf("%s: Open accepted tampered associated data", name)
		}
	}
}
