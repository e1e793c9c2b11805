package lea

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzKernels encrypts, decrypts and runs CTR on fuzzed keys, counters and
// blocks with every kernel: all must agree with the generic code, and
// decryption must undo encryption.
func FuzzKernels(f *testing.F) {
	f.Add(make([]byte, 16), uint64(0), uint64(0), make([]byte, 48))
	f.Add(bytes.Repeat([]byte{0xff}, 32), ^uint64(0), ^uint64(0)-70, make([]byte, 1000))
	f.Add(make([]byte, 24), uint64(1), uint64(2), []byte("0123456789abcdef"))
	f.Fuzz(func(t *testing.T, key []byte, hi, lo uint64, data []byte) {
		if k := len(key); k != 16 && k != 24 && k != 32 {
			return
		}
		blocks := data[:len(data)&^(BlockSize-1)]
		if n := uint64(len(blocks) / BlockSize); n > 0 && lo+n-1 < lo {
			lo = binary.BigEndian.Uint64(key) >> 1 // keep the counter from wrapping
		}
		var want [3][]byte
		paths.Each(func(path string) {
			b, err := New(key)
			if err != nil {
				t.Fatal(err)
			}
			var got [3][]byte
			for i := range got {
				got[i] = make([]byte, len(blocks))
			}
			b.EncryptBlocks(got[0], blocks)
			b.DecryptBlocks(got[1], blocks)
			back := make([]byte, len(blocks))
			b.DecryptBlocks(back, got[0])
			if !bytes.Equal(back, blocks) {
				t.Fatalf("path %s: decryption does not undo encryption", path)
			}
			b.CTRBlocks(got[2], blocks, hi, lo)
			if want[0] == nil {
				want = got
				return
			}
			for i, what := range []string{"EncryptBlocks", "DecryptBlocks", "CTRBlocks"} {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("path %s: %s disagrees", path, what)
				}
			}
		})
	})
}
