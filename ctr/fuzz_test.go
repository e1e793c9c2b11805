package ctr

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"testing"
)

// FuzzCTR runs New on fuzzed keys, counter blocks and data with every AES
// kernel and the generic code: all must equal crypto/cipher.NewCTR over
// crypto/aes. The data goes in the pieces cuts says, then the rest at once,
// in place if inPlace, and bytes of dst past the input must stay untouched.
// wrap&3 moves the counter block to wrap>>2 blocks below a carry into the
// high half (1) or below the wrap to zero at 2^128 (2).
func FuzzCTR(f *testing.F) {
	f.Add(uint8(0), []byte("key"), []byte("iv"), []byte("a short message"), []byte{}, uint8(0), false)
	f.Add(uint8(1), []byte{}, []byte{}, make([]byte, 1000), []byte{5, 11, 16, 200}, uint8(1|3<<2), true)
	f.Add(uint8(2), []byte{1}, []byte{2}, make([]byte, 4099), []byte{0, 17}, uint8(2|60<<2), false)
	f.Fuzz(func(t *testing.T, size uint8, key, iv, data, cuts []byte, wrap uint8, inPlace bool) {
		k := make([]byte, 16+8*int(size%3))
		copy(k, key)
		var ctr [16]byte
		copy(ctr[:], iv)
		switch wrap & 3 {
		case 1:
			binary.BigEndian.PutUint64(ctr[8:], ^uint64(wrap>>2))
		case 2:
			binary.BigEndian.PutUint64(ctr[:8], ^uint64(0))
			binary.BigEndian.PutUint64(ctr[8:], ^uint64(wrap>>2))
		}
		ref, err := aes.NewCipher(k)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]byte, len(data))
		cipher.NewCTR(ref, ctr[:]).XORKeyStream(want, data)

		paths.Each(func(path string) {
			s, err := New(k, ctr[:])
			if err != nil {
				t.Fatal(err)
			}
			out := bytes.Repeat([]byte{0xa5}, len(data)+16)
			src := data
			if inPlace {
				copy(out, data)
				src = out[:len(data)]
			}
			done := 0
			for _, c := range cuts {
				n := min(int(c), len(data)-done)
				s.XORKeyStream(out[done:done+n], src[done:done+n])
				done += n
			}
			s.XORKeyStream(out[done:len(data)], src[done:])
			if !bytes.Equal(out[:len(data)], want) {
				t.Fatalf("path %s: output differs from crypto/cipher.NewCTR", path)
			}
			if !bytes.Equal(out[len(data):], bytes.Repeat([]byte{0xa5}, 16)) {
				t.Fatalf("path %s: wrote past the output", path)
			}
		})
	})
}
