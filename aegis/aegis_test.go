package aegis

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
)

// TestConformance runs the shared suite on every variant, with both tag
// sizes, on every path.
func TestConformance(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			for _, tagSize := range []int{16, 32} {
				t.Run(fmt.Sprintf("%s-tag%d", c.v.name, tagSize), func(t *testing.T) {
					key := make([]byte, c.v.keySize)
					key[0] = byte(tagSize)
					aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return c.new(key, tagSize) })
				})
			}
		}
	})
}

// TestSizes checks the constructors' errors and the sizes the AEAD and
// MAC report.
func TestSizes(t *testing.T) {
	for _, c := range allVariants {
		ks := c.v.keySize
		for _, bad := range []struct{ key, tag int }{{ks - 1, 16}, {ks + 1, 16}, {0, 16}, {48 - ks, 16}, {ks, 8}, {ks, 24}, {ks, 0}, {ks, 64}} {
			if _, err := c.new(make([]byte, bad.key), bad.tag); err == nil {
				t.Errorf("%s: key %d, tag %d accepted", c.v.name, bad.key, bad.tag)
			}
			if _, err := newMAC(c.v, make([]byte, bad.key), make([]byte, ks), bad.tag); err == nil {
				t.Errorf("%s MAC: key %d, tag %d accepted", c.v.name, bad.key, bad.tag)
			}
		}
		if _, err := newMAC(c.v, make([]byte, ks), make([]byte, ks-1), 16); err == nil {
			t.Errorf("%s MAC: short nonce accepted", c.v.name)
		}
		for _, tagSize := range []int{16, 32} {
			a, err := c.new(make([]byte, ks), tagSize)
			if err != nil {
				t.Fatal(err)
			}
			if a.NonceSize() != ks || a.Overhead() != tagSize {
				t.Errorf("%s: NonceSize %d, Overhead %d", c.v.name, a.NonceSize(), a.Overhead())
			}
			h, _ := newMAC(c.v, make([]byte, ks), make([]byte, ks), tagSize)
			if h.Size() != tagSize || h.BlockSize() != c.v.rate() {
				t.Errorf("%s MAC: Size %d, BlockSize %d", c.v.name, h.Size(), h.BlockSize())
			}
		}
	}
}

// shortLengths are every length up to three blocks of the widest variant
// and a few larger ones.
func shortLengths() []int {
	var l []int
	for n := 0; n <= 3*maxRate+1; n++ {
		l = append(l, n)
	}
	return append(l, 1000, 4096+33)
}

// TestAPIsAgree checks that Seal, SealDetached, the Encrypter (random
// pieces, empty ones included), Open, OpenDetached, DecryptUnverified and the
// Decrypter agree byte for byte, in place and not, for short and ragged
// messages, on every path. In place, each decrypting API must leave the
// plaintext in the buffer, a partial final block included.
func TestAPIsAgree(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		r := mrand.NewChaCha8([32]byte{1})
		splits := mrand.New(mrand.NewPCG(1, 2))
		for _, c := range allVariants {
			for _, n := range shortLengths() {
				tagSize := 16 << (n % 2)
				a, _ := c.new(randBytes(r, c.v.keySize), tagSize)
				nonce, pt, ad := randBytes(r, c.v.keySize), randBytes(r, n), randBytes(r, int(r.Uint64()%70))
				name := fmt.Sprintf("%s, %d bytes, ad %d", c.v.name, n, len(ad))
				sealed := a.Seal(nil, nonce, pt, ad)
				ct, tag := sealed[:n], sealed[n:]

				// Encryption.
				buf := bytes.Clone(pt)
				if got := a.Seal(buf[:0], nonce, buf, ad); !bytes.Equal(got, sealed) {
					t.Fatalf("%s: in-place Seal differs", name)
				}
				dc, dt := a.SealDetached(nil, nonce, pt, ad)
				buf = bytes.Clone(pt)
				ic, it := a.SealDetached(buf[:0], nonce, buf, ad)
				if !bytes.Equal(dc, ct) || !bytes.Equal(dt, tag) || !bytes.Equal(ic, ct) || !bytes.Equal(it, tag) {
					t.Fatalf("%s: SealDetached differs from Seal", name)
				}
				for _, inPlace := range []bool{false, true} {
					e := a.NewEncrypter(nonce, ad)
					out := make([]byte, n)
					if inPlace {
						out = bytes.Clone(pt)
					}
					for i := 0; i <= n; {
						k := min(n-i, splits.IntN(2*c.v.rate()+2))
						if inPlace {
							e.XORKeyStream(out[i:i+k], out[i:i+k])
						} else {
							e.XORKeyStream(out[i:i+k], pt[i:i+k])
						}
						if i += k; i == n && splits.IntN(2) == 0 {
							break
						}
					}
					if tg := e.Tag(); !bytes.Equal(out, ct) || !bytes.Equal(tg, tag) {
						t.Fatalf("%s: Encrypter (in place %v) differs from Seal", name, inPlace)
					}
				}

				// Decryption.
				buf = bytes.Clone(sealed)
				if got, err := a.Open(buf[:0], nonce, buf, ad); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("%s: in-place Open: %v", name, err)
				}
				buf = bytes.Clone(ct)
				if got, err := a.OpenDetached(buf[:0], nonce, buf, tag, ad); err != nil || !bytes.Equal(got, pt) || !bytes.Equal(buf, pt) {
					t.Fatalf("%s: in-place OpenDetached: %v", name, err)
				}
				if got, err := a.OpenDetached(nil, nonce, ct, tag, ad); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("%s: OpenDetached: %v", name, err)
				}
				buf = bytes.Clone(ct)
				if got, tg := a.DecryptUnverified(buf[:0], nonce, buf, ad); !bytes.Equal(got, pt) || !bytes.Equal(buf, pt) || !bytes.Equal(tg, tag) {
					t.Fatalf("%s: in-place DecryptUnverified differs", name)
				}
				if got, tg := a.DecryptUnverified([]byte("x"), nonce, ct, ad); !bytes.Equal(got[1:], pt) || got[0] != 'x' || !bytes.Equal(tg, tag) {
					t.Fatalf("%s: DecryptUnverified differs", name)
				}
				for _, inPlace := range []bool{false, true} {
					d := a.NewDecrypter(nonce, ad)
					out := make([]byte, n)
					if inPlace {
						out = bytes.Clone(ct)
					}
					for i := 0; i < n; {
						k := min(n-i, splits.IntN(2*c.v.rate()+2))
						if inPlace {
							d.XORKeyStream(out[i:i+k], out[i:i+k])
						} else {
							d.XORKeyStream(out[i:i+k], ct[i:i+k])
						}
						i += k
					}
					if err := d.Verify(tag); err != nil || !bytes.Equal(out, pt) {
						t.Fatalf("%s: Decrypter (in place %v): %v", name, inPlace, err)
					}
				}
			}
		}
	})
}

// TestTamper checks that a change to the tag, ciphertext, associated data
// or nonce fails every decrypting API, that a failed Open or OpenDetached
// leaves zeros where it wrote, and that a tag of the wrong length fails.
func TestTamper(t *testing.T) {
	r := mrand.NewChaCha8([32]byte{2})
	for _, c := range allVariants {
		for _, tagSize := range []int{16, 32} {
			a, _ := c.new(randBytes(r, c.v.keySize), tagSize)
			lengths := []int{0, 1, 15, 16, 17, c.v.rate() - 1, c.v.rate(), c.v.rate() + 1, 200}
			if testing.Short() {
				lengths = []int{0, 17, c.v.rate() + 1}
			}
			for _, n := range lengths {
				nonce, pt, ad := randBytes(r, c.v.keySize), randBytes(r, n), randBytes(r, 9)
				ct, tag := a.SealDetached(nil, nonce, pt, ad)
				name := fmt.Sprintf("%s tag %d, %d bytes", c.v.name, tagSize, n)
				reject := func(what string, nonce, ct, tag, ad []byte) {
					t.Helper()
					if got, err := a.Open(nil, nonce, append(bytes.Clone(ct), tag...), ad); err == nil || got != nil {
						t.Fatalf("%s: Open accepted %s", name, what)
					}
					out := bytes.Clone(ct)
					if got, err := a.OpenDetached(out[:0], nonce, out, tag, ad); err == nil || got != nil {
						t.Fatalf("%s: OpenDetached accepted %s", name, what)
					}
					if !bytes.Equal(out, make([]byte, len(ct))) {
						t.Fatalf("%s: failed OpenDetached left %x", name, out)
					}
					d := a.NewDecrypter(nonce, ad)
					d.XORKeyStream(make([]byte, len(ct)), ct)
					if d.Verify(tag) == nil {
						t.Fatalf("%s: Decrypter accepted %s", name, what)
					}
				}
				flip := func(b []byte, bit int) []byte {
					b = bytes.Clone(b)
					b[bit/8] ^= 1 << (bit % 8)
					return b
				}
				for bit := range 8 * len(tag) {
					reject(fmt.Sprintf("tag bit %d", bit), nonce, ct, flip(tag, bit), ad)
				}
				for bit := 0; bit < 8*n; bit += 1 + 8*n/64 {
					reject(fmt.Sprintf("ciphertext bit %d", bit), nonce, flip(ct, bit), tag, ad)
				}
				for bit := range 8 * len(ad) {
					reject(fmt.Sprintf("ad bit %d", bit), nonce, ct, tag, flip(ad, bit))
				}
				for bit := 0; bit < 8*len(nonce); bit += 3 {
					reject(fmt.Sprintf("nonce bit %d", bit), flip(nonce, bit), ct, tag, ad)
				}
				reject("a shorter tag", nonce, ct, tag[:len(tag)-1], ad)
				reject("a longer tag", nonce, ct, append(bytes.Clone(tag), 0), ad)
				reject("no tag", nonce, ct, nil, ad)
				if n > 0 {
					reject("a shorter ciphertext", nonce, ct[:n-1], tag, ad)
				}
			}
		}
	}
}

// TestStreamRules checks the Encrypter's and Decrypter's misuse panics and
// that Tag and Verify can be repeated (package piecewise tests the length
// limit).
func TestStreamRules(t *testing.T) {
	a, _ := New128X2(make([]byte, 16), 16)
	nonce := make([]byte, 16)
	testkit.MustPanic(t, "NewEncrypter with a short nonce", func() { a.NewEncrypter(nonce[:15], nil) })
	testkit.MustPanic(t, "NewDecrypter with a long nonce", func() { a.NewDecrypter(make([]byte, 17), nil) })

	e := a.NewEncrypter(nonce, nil)
	buf := make([]byte, 100)
	testkit.MustPanic(t, "XORKeyStream into a short dst", func() { e.XORKeyStream(buf[:9], buf[:10]) })
	testkit.MustPanic(t, "XORKeyStream with overlap", func() { e.XORKeyStream(buf[1:11], buf[:10]) })
	e.XORKeyStream(buf[:10], buf[:10])
	t1, t2 := e.Tag(), e.Tag()
	if !bytes.Equal(t1, t2) || !bytes.Equal(t1, a.Seal(nil, nonce, make([]byte, 10), nil)[10:]) {
		t.Error("Tag is not repeatable or not Seal's")
	}
	testkit.MustPanic(t, "XORKeyStream after Tag", func() { e.XORKeyStream(buf[:1], buf[:1]) })

	d := a.NewDecrypter(nonce, nil)
	empty := a.Seal(nil, nonce, nil, nil)
	if err1, err2 := d.Verify(empty), d.Verify(empty); err1 != nil || err2 != nil || d.Verify(t1) == nil {
		t.Error("Verify of an empty message failed, or Verify is not repeatable")
	}
	testkit.MustPanic(t, "XORKeyStream after Verify", func() { d.XORKeyStream(buf[:1], buf[:1]) })

	h, _ := NewMAC128L(make([]byte, 16), nonce, 16)
	h.(*mac).total = maxLen
	testkit.MustPanic(t, "MAC Write past 2^61-1 bytes", func() { h.Write(buf[:1]) })
}

// TestMACHash checks the hash.Hash behaviour of the MACs: Sum appends
// without changing the state, Reset starts over, writes may be split
// anywhere, and the MAC is not the AEAD's tag.
func TestMACHash(t *testing.T) {
	r := mrand.NewChaCha8([32]byte{3})
	for _, c := range allVariants {
		key, nonce := randBytes(r, c.v.keySize), randBytes(r, c.v.keySize)
		data := randBytes(r, 3*maxRate+5)
		h, _ := newMAC(c.v, key, nonce, 32)
		h.Write(data)
		want := h.Sum(nil)
		if got := h.Sum([]byte{7}); !bytes.Equal(got[1:], want) || got[0] != 7 {
			t.Errorf("%s: Sum changed the state or does not append", c.v.name)
		}
		for i := range 40 {
			h.Reset()
			for rest := data; len(rest) > 0; {
				k := min(len(rest), int(r.Uint64()%uint64(2*c.v.rate()+1)))
				h.Write(rest[:k])
				rest = rest[k:]
			}
			if got := h.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("%s: split writes (%d) give another tag", c.v.name, i)
			}
		}
		a, _ := c.new(key, 32)
		if bytes.Equal(a.Seal(nil, nonce, nil, data)[:32], want) {
			t.Errorf("%s: the MAC is the AEAD's tag of the same associated data", c.v.name)
		}
		h16, _ := newMAC(c.v, key, nonce, 16)
		h16.Write(data)
		if bytes.Equal(h16.Sum(nil), want[:16]) {
			t.Errorf("%s: the 16-byte MAC is a truncation of the 32-byte one", c.v.name)
		}
	}
}
