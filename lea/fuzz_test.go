package lea

import (
	"bytes"
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// FuzzCTR runs NewCTR on fuzzed keys, counters and data, split in two calls,
// with every kernel: all must equal crypto/cipher.NewCTR over the block.
func FuzzCTR(f *testing.F) {
	f.Add(make([]byte, 16), make([]byte, 16), make([]byte, 48), 0)
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 16), make([]byte, 1000), 17)
	f.Add(make([]byte, 24), []byte("0123456789abcdef"), []byte("LEA"), 1)
	f.Fuzz(func(t *testing.T, key, iv, data []byte, split int) {
		b, err := NewCipher(key)
		if err != nil || len(iv) != BlockSize {
			return
		}
		split = min(max(split, 0), len(data))
		want := make([]byte, len(data))
		cipher.NewCTR(b, iv).XORKeyStream(want, data)
		for _, kernel := range append(impl.List("lea"), "generic") {
			impl.Select("lea", kernel)
			s, err := NewCTR(key, iv)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(data))
			s.XORKeyStream(got[:split], data[:split])
			s.XORKeyStream(got[split:], data[split:])
			impl.Reset("lea")
			if !bytes.Equal(got, want) {
				t.Fatalf("kernel %s: NewCTR differs from crypto/cipher.NewCTR", kernel)
			}
		}
	})
}
