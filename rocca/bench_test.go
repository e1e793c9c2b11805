package rocca

import (
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// BenchmarkSeal and BenchmarkOpen measure every path with room in dst: they
// must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	aeadtest.Benchmark(b, paths, open, func() (*AEAD, error) { return New(make([]byte, KeySize)) })
}

// BenchmarkEncrypter measures the incremental API over 16 KiB in pieces of
// 1000 bytes, most of which straddle blocks.
func BenchmarkEncrypter(b *testing.B) {
	a, _ := New(make([]byte, KeySize))
	nonce := make([]byte, NonceSize)
	buf := make([]byte, 16384)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		e := a.NewEncrypter(nonce, nil)
		for p := buf; len(p) > 0; p = p[min(len(p), 1000):] {
			e.XORKeyStream(p[:min(len(p), 1000)], p[:min(len(p), 1000)])
		}
		e.Tag()
	}
}

// BenchmarkSealBatch and BenchmarkOpenBatch measure batches of 64
// messages against 64 single calls, on the default kernels.
func BenchmarkSealBatch(b *testing.B) { benchmarkBatch(b, false) }
func BenchmarkOpenBatch(b *testing.B) { benchmarkBatch(b, true) }

func benchmarkBatch(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return New(make([]byte, KeySize)) })
}
