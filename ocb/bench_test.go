package ocb

import (
	"strconv"
	"testing"
)

var benchSizes = []int{16, 64, 256, 576, 1500, 4096, 16384}

// BenchmarkSeal and BenchmarkOpen measure AES-128-OCB3 on every path, with
// room in dst: they must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	paths.Each(func(path string) {
		for _, size := range benchSizes {
			b.Run(path+"/"+strconv.Itoa(size), func(b *testing.B) {
				a, _ := New(make([]byte, 16))
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

// BenchmarkNew measures key setup.
func BenchmarkNew(b *testing.B) {
	for _, size := range []int{16, 32} {
		b.Run(strconv.Itoa(size*8), func(b *testing.B) {
			key := make([]byte, size)
			b.ReportAllocs()
			for b.Loop() {
				New(key)
			}
		})
	}
}

// BenchmarkParallelSeal measures one 4 MiB (in cache) and one 64 MiB message
// serially and on 2 goroutines, into an output buffer faulted in once
// before either runs.
func BenchmarkParallelSeal(b *testing.B) {
	for _, size := range []int{4 << 20, 64 << 20} {
		pt := make([]byte, size)
		dst := make([]byte, size+TagSize)
		a, _ := New(make([]byte, 16))
		nonce := make([]byte, NonceSize)
		a.Seal(dst[:0], nonce, pt, nil)
		for _, p := range []int{1, 2} {
			b.Run(strconv.Itoa(size>>20)+"MiB/p"+strconv.Itoa(p), func(b *testing.B) {
				a := a.WithParallelism(p)
				b.SetBytes(int64(size))
				for b.Loop() {
					a.Seal(dst[:0], nonce, pt, nil)
				}
			})
		}
	}
}
