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

// CheckMessage checks a on one message against want, its sealed form from
// a reference implementation: Seal into a new buffer and in place, Open
// from a separate buffer and in place, and an in-place Open of want with one
// bit of the tag changed, which must fail and leave zeros where the
// plaintext went. name prefixes the errors.
func CheckMessage(t *testing.T, name string, a cipher.AEAD, nonce, ad, pt, want []byte) {
	t.Helper()
	if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
		t.Fatalf("%s: Seal differs from the reference", name)
	}
	n := len(pt)
	buf := append(make([]byte, 0, len(want)), pt...)
	if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, want) {
		t.Fatalf("%s: Seal in place differs from the reference", name)
	}
	if got, err := a.Open(buf[:0], nonce, buf[:len(want)], ad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s: Open in place failed: %v", name, err)
	}
	if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s: Open failed: %v", name, err)
	}
	forged := bytes.Clone(want)
	forged[len(forged)-1] ^= 1
	if _, err := a.Open(forged[:0], nonce, forged, ad); err == nil {
		t.Fatalf("%s: Open accepted a forged tag", name)
	}
	if !bytes.Equal(forged[:n], make([]byte, n)) {
		t.Fatalf("%s: Open left plaintext behind after a forged tag", name)
	}
}
