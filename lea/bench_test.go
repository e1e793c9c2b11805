package lea

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

const benchSize = 16 << 10

// BenchmarkCTR measures NewCTR on 16 KiB with each key size and kernel; the
// engine's benchmarks (internal/lea) measure ECB.
func BenchmarkCTR(b *testing.B) {
	for _, keySize := range []int{16, 32} {
		for _, kernel := range append(impl.List("lea"), "generic") {
			b.Run(kernel+"/"+strconv.Itoa(8*keySize), func(b *testing.B) {
				impl.Select("lea", kernel)
				defer impl.Reset("lea")
				s, _ := NewCTR(make([]byte, keySize), make([]byte, BlockSize))
				buf := make([]byte, benchSize)
				b.SetBytes(benchSize)
				b.ReportAllocs()
				for b.Loop() {
					s.XORKeyStream(buf, buf)
				}
			})
		}
	}
}
