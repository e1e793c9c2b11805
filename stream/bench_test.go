package stream

import (
	"bytes"
	"io"
	"testing"
)

// BenchmarkEncrypt and BenchmarkDecrypt measure a 64 MiB stream with
// default chunks, from and to memory.
func BenchmarkEncrypt(b *testing.B) {
	for _, alg := range fileAlgorithms() {
		b.Run(alg, func(b *testing.B) {
			pt := make([]byte, 64<<20)
			b.SetBytes(int64(len(pt)))
			for b.Loop() {
				w, _ := NewWriter(io.Discard, Header{Algorithm: alg}, testKey)
				w.(io.ReaderFrom).ReadFrom(bytes.NewReader(pt))
				w.Close()
			}
		})
	}
}

func BenchmarkDecrypt(b *testing.B) {
	for _, alg := range fileAlgorithms() {
		b.Run(alg, func(b *testing.B) {
			ct := encrypt(b, Header{Algorithm: alg}, testKey, make([]byte, 64<<20), 1)
			b.SetBytes(int64(len(ct)))
			for b.Loop() {
				r, _ := NewReader(bytes.NewReader(ct), testKey)
				r.(io.WriterTo).WriteTo(io.Discard)
			}
		})
	}
}

// BenchmarkReadAt reads 4 KiB at an offset inside a 256 MiB file.
func BenchmarkReadAt(b *testing.B) {
	ct := encrypt(b, Header{Algorithm: "aes-256-ocb3"}, testKey, make([]byte, 256<<20), 1)
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			NewReaderAt(bytes.NewReader(ct), int64(len(ct)), testKey)
		}
	})
	ra, _ := NewReaderAt(bytes.NewReader(ct), int64(len(ct)), testKey)
	buf := make([]byte, 4096)
	b.Run("4KiB", func(b *testing.B) {
		b.SetBytes(int64(len(buf)))
		for b.Loop() {
			ra.ReadAt(buf, 100<<20+12345)
		}
	})
}
