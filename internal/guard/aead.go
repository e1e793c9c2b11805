package guard

import (
	"bytes"
	"crypto/cipher"
	"testing"
)

// TestAEAD seals and opens with every buffer against a guard page, on each
// side in turn: plaintext and associated data of every length Lengths
// gives (plaintexts of at most maxLen bytes, when maxLen > 0), the nonce,
// the output and the ciphertext, whose tag then touches the guard page when
// side is End. It covers separate and in-place output and a failing Open,
// and checks every result against a Seal on ordinary memory.
func TestAEAD(t testing.TB, a cipher.AEAD, maxLen int) {
	lengths := Lengths()
	longest := lengths[len(lengths)-1]
	most := longest
	if maxLen > 0 {
		most = min(most, maxLen)
	}
	size := most + a.Overhead()
	nonceR, adR, srcR, dstR := New(t, a.NonceSize()), New(t, longest), New(t, size), New(t, size)
	nonce := pattern(a.NonceSize(), 1)
	check := func(ptLen, adLen int) {
		pt, ad := pattern(ptLen, 2), pattern(adLen, 3)
		want := a.Seal(nil, nonce, pt, ad)
		for _, side := range Sides {
			gNonce, gAD := nonceR.Copy(nonce, side), adR.Copy(ad, side)
			err := Fault(func() {
				got := a.Seal(dstR.Slice(len(want), side)[:0], gNonce, srcR.Copy(pt, side), gAD)
				if !bytes.Equal(got, want) {
					t.Errorf("Seal: wrong ciphertext")
				}

				buf := srcR.Slice(len(want), side)
				copy(buf, pt)
				if got := a.Seal(buf[:0], gNonce, buf[:ptLen], gAD); !bytes.Equal(got, want) {
					t.Errorf("Seal in place: wrong ciphertext")
				}

				got, err := a.Open(dstR.Slice(ptLen, side)[:0], gNonce, srcR.Copy(want, side), gAD)
				if err != nil || !bytes.Equal(got, pt) {
					t.Errorf("Open: wrong plaintext or error %v", err)
				}

				ct := srcR.Copy(want, side)
				got, err = a.Open(ct[:0], gNonce, ct, gAD)
				if err != nil || !bytes.Equal(got, pt) {
					t.Errorf("Open in place: wrong plaintext or error %v", err)
				}

				ct = srcR.Copy(want, side)
				ct[len(ct)-1] ^= 1
				if _, err := a.Open(dstR.Slice(ptLen, side)[:0], gNonce, ct, gAD); err == nil {
					t.Errorf("Open accepted a changed tag")
				}
			})
			if err != nil {
				t.Errorf("%v", err)
			}
			if t.Failed() {
				t.Fatalf("guard page at the %v of each buffer: plaintext %d bytes, associated data %d bytes", side, ptLen, adLen)
			}
		}
	}
	for _, n := range lengths {
		if n <= most {
			check(n, n%19)
		}
		check(n%19, n)
	}
}

// pattern returns n bytes that differ between lengths and seeds.
func pattern(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7+n) ^ seed<<5
	}
	return b
}

// TestNewAEAD makes an AEAD with newAEAD from a keySize-byte key against a
// guard page, on each side in turn, and runs TestAEAD on it. With -short
// TestAEAD runs on the first (the key's end against the page) only: the
// other side still runs the constructor.
func TestNewAEAD[A cipher.AEAD](t testing.TB, keySize, maxLen int, newAEAD func(key []byte) (A, error)) {
	t.Helper()
	keyR := New(t, keySize)
	for i, side := range Sides {
		var a A
		err := Fault(func() {
			var err error
			if a, err = newAEAD(keyR.Slice(keySize, side)); err != nil {
				t.Fatal(err)
			}
		})
		if err != nil {
			t.Fatalf("key against a guard page at its %v: %v", side, err)
		}
		if i == 0 || !testing.Short() {
			TestAEAD(t, a, maxLen)
		}
	}
}
