package ocb

import (
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// BenchmarkSeal and BenchmarkOpen measure AES-128-OCB3 on every path, with
// room in dst: they must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	aeadtest.Benchmark(b, paths, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkNew measures key setup.
func BenchmarkNew(b *testing.B) { aeadtest.BenchmarkNew(b, []int{16, 32}, New) }

// BenchmarkSealBatch and BenchmarkOpenBatch measure batches of 64
// messages against 64 single calls, on the default kernels.
func BenchmarkSealBatch(b *testing.B) { benchmarkBatch(b, false) }
func BenchmarkOpenBatch(b *testing.B) { benchmarkBatch(b, true) }

func benchmarkBatch(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkSealBatchLEA and BenchmarkOpenBatchLEA are those over fae's LEA,
// whose short messages go through the cipher in groups.
func BenchmarkSealBatchLEA(b *testing.B) { benchmarkBatchLEA(b, false) }
func BenchmarkOpenBatchLEA(b *testing.B) { benchmarkBatchLEA(b, true) }

func benchmarkBatchLEA(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return newLEA(make([]byte, 16), 12, 16) })
}
