package aegis

import (
	"bytes"
	"testing"
)

// fit truncates b or pads it with zeros to n bytes.
func fit(b []byte, n int) []byte {
	return append(b[:min(len(b), n):min(len(b), n)], make([]byte, max(n-len(b), 0))...)
}

// FuzzRoundTrip seals and opens fuzzed messages with every variant on
// every path: all paths must agree, Seal must match the Encrypter fed in two
// pieces split at split, Open and the Decrypter so fed must round-trip, and
// Open must reject a flipped bit anywhere in the ciphertext or tag. sizes picks the variant and tag size,
// and key and nonce are cut or padded to the variant's sizes.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte("key"), []byte("nonce"), []byte("plaintext"), []byte("ad"), uint8(0), uint16(3), uint16(5))
	f.Add([]byte{}, []byte{}, make([]byte, 1000), []byte{}, uint8(5), uint16(8000), uint16(300))
	f.Add([]byte{1}, []byte{2}, make([]byte, 129), make([]byte, 65), uint8(9), uint16(100), uint16(64))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, sizes uint8, flip, split uint16) {
		c := allVariants[int(sizes)%len(allVariants)]
		tagSize := 16 << (sizes / 6 % 2)
		key, nonce = fit(key, c.v.keySize), fit(nonce, c.v.keySize)
		var want []byte
		paths.Each(func(path string) {
			a, err := c.new(key, tagSize)
			if err != nil {
				t.Fatal(err)
			}
			ct := a.Seal(nil, nonce, pt, ad)
			if want == nil {
				want = bytes.Clone(ct)
			} else if !bytes.Equal(ct, want) {
				t.Fatalf("%s: path %s disagrees", c.v.name, path)
			}
			e := a.NewEncrypter(nonce, ad)
			s := min(int(split), len(pt))
			stream := make([]byte, len(pt))
			e.XORKeyStream(stream[:s], pt[:s])
			e.XORKeyStream(stream[s:], pt[s:])
			if !bytes.Equal(append(stream, e.Tag()...), ct) {
				t.Fatalf("%s: path %s: Encrypter differs from Seal", c.v.name, path)
			}
			if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s: path %s: round trip failed", c.v.name, path)
			}
			d := a.NewDecrypter(nonce, ad)
			d.XORKeyStream(stream[:s], ct[:s])
			d.XORKeyStream(stream[s:], ct[s:len(pt)])
			if err := d.Verify(ct[len(pt):]); err != nil || !bytes.Equal(stream, pt) {
				t.Fatalf("%s: path %s: Decrypter differs from Open", c.v.name, path)
			}
			bit := int(flip) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
			if _, err := a.Open(nil, nonce, ct, ad); err == nil {
				t.Fatalf("%s: path %s: flipped bit %d accepted", c.v.name, path, bit)
			}
		})
	})
}

// FuzzMAC checks that every path computes the same AEGISMAC tag, however
// the data is split.
func FuzzMAC(f *testing.F) {
	f.Add([]byte("key"), []byte("data"), uint8(0), uint16(2))
	f.Add([]byte{}, make([]byte, 300), uint8(11), uint16(129))
	f.Fuzz(func(t *testing.T, key, data []byte, sizes uint8, split uint16) {
		c := allVariants[int(sizes)%len(allVariants)]
		tagSize := 16 << (sizes / 6 % 2)
		key = fit(key, c.v.keySize)
		var want []byte
		paths.Each(func(path string) {
			h, err := newMAC(c.v, key, key, tagSize)
			if err != nil {
				t.Fatal(err)
			}
			s := min(int(split), len(data))
			h.Write(data[:s])
			h.Write(data[s:])
			got := h.Sum(nil)
			if want == nil {
				want = got
			} else if !bytes.Equal(got, want) {
				t.Fatalf("%s: path %s disagrees", c.v.name, path)
			}
		})
	})
}
