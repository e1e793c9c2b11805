package gcm

import (
	stdaes "crypto/aes"
	"crypto/cipher"
	"strconv"
	"testing"
)

var benchSizes = []int{64, 1500, 16384}

// BenchmarkSeal and BenchmarkOpen measure fae's AES-GCM on every path beside
// crypto/cipher's ("go"), for 128- and 256-bit keys, with room in dst: fae's
// must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	for _, keySize := range []int{16, 32} {
		key := make([]byte, keySize)
		prefix := "aes" + strconv.Itoa(8*keySize) + "/"
		paths.Each(func(path string) {
			a, _ := New(key)
			for _, size := range benchSizes {
				b.Run(prefix+"fae-"+path+"/"+strconv.Itoa(size), func(b *testing.B) { benchAEAD(b, a, size, open) })
			}
		})
		blk, _ := stdaes.NewCipher(key)
		g, _ := cipher.NewGCM(blk)
		for _, size := range benchSizes {
			b.Run(prefix+"go/"+strconv.Itoa(size), func(b *testing.B) { benchAEAD(b, g, size, open) })
		}
	}
}

func benchAEAD(b *testing.B, a cipher.AEAD, size int, open bool) {
	nonce := make([]byte, a.NonceSize())
	pt := make([]byte, size)
	ct := a.Seal(nil, nonce, pt, nil)
	dst := make([]byte, 0, size+a.Overhead())
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
}

// BenchmarkXAES measures XAES-256-GCM's Seal beside AES-256-GCM's (both
// fae's), with room in dst: per message it derives a key, expands it and
// computes its hash key.
func BenchmarkXAES(b *testing.B) {
	x, _ := NewXAES256(make([]byte, 32))
	a, _ := New(make([]byte, 32))
	for _, size := range benchSizes {
		b.Run("xaes256/"+strconv.Itoa(size), func(b *testing.B) { benchAEAD(b, x, size, false) })
		b.Run("aes256/"+strconv.Itoa(size), func(b *testing.B) { benchAEAD(b, a, size, false) })
	}
}

// BenchmarkParallelSeal measures one 4 MiB message (in cache) on one and two
// goroutines, beside crypto/cipher's GCM, into an output buffer faulted in
// before either runs.
func BenchmarkParallelSeal(b *testing.B) {
	const size = 4 << 20
	pt := make([]byte, size)
	dst := make([]byte, size+TagSize)
	key := make([]byte, 16)
	a, _ := New(key)
	nonce := make([]byte, NonceSize)
	a.Seal(dst[:0], nonce, pt, nil)
	for _, p := range []int{1, 2} {
		b.Run("fae/4MiB/p"+strconv.Itoa(p), func(b *testing.B) {
			a := a.WithParallelism(p)
			b.SetBytes(size)
			for b.Loop() {
				a.Seal(dst[:0], nonce, pt, nil)
			}
		})
	}
	blk, _ := stdaes.NewCipher(key)
	g, _ := cipher.NewGCM(blk)
	b.Run("go/4MiB", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			g.Seal(dst[:0], nonce, pt, nil)
		}
	})
}

// BenchmarkNew measures key setup (key expansion, H and its powers), beside
// crypto/cipher's.
func BenchmarkNew(b *testing.B) {
	for _, keySize := range []int{16, 32} {
		key := make([]byte, keySize)
		b.Run("fae/aes"+strconv.Itoa(8*keySize), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				New(key)
			}
		})
		b.Run("go/aes"+strconv.Itoa(8*keySize), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				blk, _ := stdaes.NewCipher(key)
				cipher.NewGCM(blk)
			}
		})
	}
}
