package gcm

import (
	"crypto/cipher"
	"strconv"
	"testing"

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

// BenchmarkParallelSeal measures one 4 MiB message (in cache) on one and two
// goroutines, into an output buffer faulted in before either runs.
func BenchmarkParallelSeal(b *testing.B) {
	const size = 4 << 20
	pt := make([]byte, size)
	dst := make([]byte, size+TagSize)
	a, _ := New(make([]byte, 16))
	nonce := make([]byte, NonceSize)
	a.Seal(dst[:0], nonce, pt, nil)
	for _, p := range []int{1, 2} {
		b.Run("4MiB/p"+strconv.Itoa(p), func(b *testing.B) {
			a := a.WithParallelism(p)
			b.SetBytes(size)
			for b.Loop() {
				a.Seal(dst[:0], nonce, pt, nil)
			}
		})
	}
}

// BenchmarkNew measures key setup: key expansion, H and its powers.
func BenchmarkNew(b *testing.B) { aeadtest.BenchmarkNew(b, []int{16, 32}, New) }
