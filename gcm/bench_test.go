package gcm

import (
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// BenchmarkSeal and BenchmarkOpen measure AES-128-GCM on every path, with
// room in dst: they must not allocate. (fae bench sets them beside Go's and
// OpenSSL's GCM.)
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	aeadtest.Benchmark(b, paths, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkXAES measures XAES-256-GCM's Seal on every path: per message it
// derives a key, expands it and computes its hash key.
func BenchmarkXAES(b *testing.B) {
	aeadtest.Benchmark(b, paths, false, func() (cipher.AEAD, error) { return NewXAES256(make([]byte, 32)) })
}

// BenchmarkNew measures key setup: key expansion, H and its powers.
func BenchmarkNew(b *testing.B) { aeadtest.BenchmarkNew(b, []int{16, 32}, New) }

// BenchmarkSealBatch and BenchmarkOpenBatch measure batches of 64
// messages against 64 single calls, on the default kernels.
func BenchmarkSealBatch(b *testing.B) { benchmarkBatch(b, false) }
func BenchmarkOpenBatch(b *testing.B) { benchmarkBatch(b, true) }

func benchmarkBatch(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkSealBatchLEA and BenchmarkOpenBatchLEA are those over fae's LEA,
// whose short messages go in groups (leaBatch).
func BenchmarkSealBatchLEA(b *testing.B) { benchmarkBatchLEA(b, false) }
func BenchmarkOpenBatchLEA(b *testing.B) { benchmarkBatchLEA(b, true) }

func benchmarkBatchLEA(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (batch.AEAD, error) {
		a, err := newLEA(make([]byte, 16), 12, 16)
		return a.(batch.AEAD), err
	})
}
