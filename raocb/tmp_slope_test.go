package raocb

import (
	"strconv"
	"testing"
)

func BenchmarkTmpSlope(b *testing.B) {
	for _, size := range []int{0, 16, 64, 512, 1024, 2048, 4096, 8192, 16384, 32768} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			a, _ := New(make([]byte, 16))
			nonce := make([]byte, NonceSize)
			pt := make([]byte, size)
			dst := make([]byte, 0, size+TagSize)
			for b.Loop() {
				a.Seal(dst, nonce, pt, nil)
			}
		})
	}
}

func BenchmarkTmpParts(b *testing.B) {
	a, _ := New(make([]byte, 16))
	nonce := make([]byte, NonceSize)
	b.Run("base", func(b *testing.B) {
		for b.Loop() {
			x := a.base(nonce)
			nonce[0] = x[0]
		}
	})
	b.Run("masked", func(b *testing.B) {
		var bb [16]byte
		for b.Loop() {
			w := a.encryptMasked(&bb, 3, words{})
			bb[0] = byte(w.w0)
		}
	})
	b.Run("tag", func(b *testing.B) {
		var bb, sum [16]byte
		for b.Loop() {
			t := a.tag(&bb, sum, 5, nil)
			bb[0] = byte(t.w0)
		}
	})
}

func BenchmarkTmpInPlace(b *testing.B) {
	for _, size := range []int{8192, 16384} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			a, _ := New(make([]byte, 16))
			nonce := make([]byte, NonceSize)
			pt := make([]byte, size, size+TagSize)
			for b.Loop() {
				a.Seal(pt[:0], nonce, pt, nil)
			}
		})
	}
}

func BenchmarkTmpKernel(b *testing.B) {
	for _, size := range []int{16, 512, 1024} {
		b.Run(strconv.Itoa(size), func(b *testing.B) {
			a, _ := New(make([]byte, 16))
			src := make([]byte, size)
			dst := make([]byte, size)
			var x, sum [16]byte
			for b.Loop() {
				a.kernel(encrypt, dst, src, &x, &sum)
			}
		})
	}
}
