package lea

import (
	"strconv"
	"testing"
)

const benchSize = 16 << 10

// BenchmarkCTR measures NewCTR on 16 KiB with each key size on every path; the
// engine's benchmarks (internal/lea) measure ECB.
func BenchmarkCTR(b *testing.B) {
	for _, keySize := range []int{16, 32} {
		paths.Each(func(path string) {
			b.Run(path+"/"+strconv.Itoa(8*keySize), func(b *testing.B) {
				s, _ := NewCTR(make([]byte, keySize), make([]byte, BlockSize))
				buf := make([]byte, benchSize)
				b.SetBytes(benchSize)
				b.ReportAllocs()
				for b.Loop() {
					s.XORKeyStream(buf, buf)
				}
			})
		})
	}
}
