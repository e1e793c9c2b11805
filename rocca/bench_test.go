package rocca

import (
	"strconv"
	"testing"
)

var benchSizes = []int{64, 256, 1024, 4096, 16384}

// BenchmarkSeal and BenchmarkOpen measure every path with room in dst: they
// must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	paths.Each(func(path string) {
		for _, size := range benchSizes {
			b.Run(path+"/"+strconv.Itoa(size), func(b *testing.B) {
				a, _ := New(make([]byte, KeySize))
				nonce := make([]byte, NonceSize)
				pt := make([]byte, size)
				ct := a.Seal(nil, nonce, pt, nil)
				dst := make([]byte, 0, size+TagSize)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if open {
						if _, err := a.Open(dst, nonce, ct, nil); err != nil {
							b.Fatal(err)
						}
					} else {
						a.Seal(dst, nonce, pt, nil)
					}
				}
			})
		}
	})
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
