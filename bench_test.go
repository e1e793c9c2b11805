package fae

import (
	"strconv"
	"testing"
)

// BenchmarkParallel measures one large message sealed serially and on two
// goroutines (WithParallelism), in cache (4 MiB) and out of it (64 MiB),
// beside a plain copy of the same size: out of cache, sealing is bound by
// memory bandwidth.
func BenchmarkParallel(b *testing.B) {
	for _, size := range []int{4 << 20, 64 << 20} {
		pt := make([]byte, size)
		dst := make([]byte, 0, size+16)
		for _, name := range []string{"aes-128-ocb3", "raocb-aes-128", "aes-128-gcm"} {
			for _, p := range []int{1, 2} {
				b.Run(name+"/"+strconv.Itoa(size>>20)+"MiB/p"+strconv.Itoa(p), func(b *testing.B) {
					a, err := New(name, make([]byte, 16), WithParallelism(p))
					if err != nil {
						b.Fatal(err)
					}
					nonce := make([]byte, a.NonceSize())
					b.SetBytes(int64(size))
					for b.Loop() {
						a.Seal(dst, nonce, pt, nil)
					}
				})
			}
		}
		b.Run("copy/"+strconv.Itoa(size>>20)+"MiB", func(b *testing.B) {
			out := make([]byte, size)
			b.SetBytes(int64(size))
			for b.Loop() {
				copy(out, pt)
			}
		})
	}
}
