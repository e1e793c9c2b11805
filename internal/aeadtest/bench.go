package aeadtest

import (
	"crypto/cipher"
	"strconv"
	"testing"

	"github.com/faelabs/fae/internal/impl/impltest"
)

// benchSizes are the message lengths of Benchmark: from a block to packets
// (576 and 1500 bytes) to 16 KiB.
var benchSizes = []int{16, 64, 256, 576, 1500, 4096, 16384}

// Benchmark measures Seal, or Open with open, of messages without
// associated data on each of paths, as sub-benchmarks PATH/SIZE. dst has
// room for the output, so a call must not allocate. newAEAD is called once
// per sub-benchmark, with the path's kernels selected.
func Benchmark[A cipher.AEAD](b *testing.B, paths impltest.Paths, open bool, newAEAD func() (A, error)) {
	paths.Each(func(path string) {
		for _, size := range benchSizes {
			b.Run(path+"/"+strconv.Itoa(size), func(b *testing.B) {
				a, err := newAEAD()
				if err != nil {
					b.Fatal(err)
				}
				nonce := make([]byte, a.NonceSize())
				pt := make([]byte, size)
				ct := a.Seal(nil, nonce, pt, nil)
				dst := make([]byte, 0, len(ct))
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

// BenchmarkNew measures key setup for each key size, as sub-benchmarks
// named by the key's bits.
func BenchmarkNew[A any](b *testing.B, keySizes []int, newAEAD func(key []byte) (A, error)) {
	for _, size := range keySizes {
		b.Run(strconv.Itoa(size*8), func(b *testing.B) {
			key := make([]byte, size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := newAEAD(key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
