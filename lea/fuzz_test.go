package lea

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"testing"
)

// FuzzCTR runs NewCTR on fuzzed keys, counters and data, split in two calls,
// with every kernel: all must equal crypto/cipher.NewCTR over the block.
// wrap&3 moves the counter block to wrap>>2 blocks below a carry into its
// high half (1) or below the wrap to zero at 2^128 (2).
func FuzzCTR(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 16), make([]byte, 48), 0, uint8(0))
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 16), make([]byte, 1000), 17, uint8(0))
	f.Add(make([]byte, 24), []byte("0123456789abcdef"), []byte("LEA"), 1, uint8(0))
	f.Add(make([]byte, 16), make([]byte, 16), make([]byte, 1100), 33, uint8(1|20<<2))
	f.Add(make([]byte, 32), make([]byte, 16), make([]byte, 1100), 500, uint8(2|40<<2))
	f.Fuzz(func(t *testing.T, key, iv, data []byte, split int, wrap uint8) {
		b, err := NewCipher(key)
		if err != nil || len(iv) != BlockSize {
			return
		}
		iv = bytes.Clone(iv)
		switch wrap & 3 {
		case 1:
			binary.BigEndian.PutUint64(iv[8:], ^uint64(wrap>>2))
		case 2:
			binary.BigEndian.PutUint64(iv[:8], ^uint64(0))
			binary.BigEndian.PutUint64(iv[8:], ^uint64(wrap>>2))
		}
		split = min(max(split, 0), len(data))
		want := make([]byte, len(data))
		cipher.NewCTR(b, iv).XORKeyStream(want, data)
		paths.Each(func(path string) {
			s, err := NewCTR(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(data))
			s.XORKeyStream(got[:split], data[:split])
			s.XORKeyStream(got[split:], data[split:])
			if !bytes.Equal(got, want) {
				t.Fatalf("path %s: NewCTR differs from crypto/cipher.NewCTR", path)
			}
		})
	})
}
