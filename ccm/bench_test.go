package ccm

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

var benchSizes = []int{16, 64, 256, 576, 1500, 4096, 16384}

// BenchmarkSeal and BenchmarkOpen measure AES-128-CCM (12-byte nonce,
// 16-byte tag) per kernel, with room in dst: they must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	for _, kernel := range append(impl.List("aes"), "generic") {
		for _, size := range benchSizes {
			b.Run(kernel+"/"+strconv.Itoa(size), func(b *testing.B) {
				impl.Select("aes", kernel)
				defer impl.Reset("aes")
				a, _ := New(make([]byte, 16))
				nonce := make([]byte, 12)
				pt := make([]byte, size)
				ct := a.Seal(nil, nonce, pt, nil)
				dst := make([]byte, 0, size+16)
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
	}
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
