package lea

import (
	"strconv"
	"testing"
)

const benchSize = 16 << 10

// BenchmarkEncrypt, BenchmarkDecrypt (ECB) and BenchmarkCTR measure 16 KiB
// with each key size and kernel.
func BenchmarkEncrypt(b *testing.B) {
	benchBlocks(b, func(c *Block, buf []byte) { c.EncryptBlocks(buf, buf) })
}

func BenchmarkDecrypt(b *testing.B) {
	benchBlocks(b, func(c *Block, buf []byte) { c.DecryptBlocks(buf, buf) })
}

func BenchmarkCTR(b *testing.B) {
	benchBlocks(b, func(c *Block, buf []byte) { c.CTRBlocks(buf, buf, 0, 0) })
}

// benchBlocks runs f on 16 KiB in place, with every kernel and the generic
// code.
func benchBlocks(b *testing.B, f func(c *Block, buf []byte)) {
	for _, keySize := range []int{16, 32} {
		paths.Each(func(path string) {
			b.Run(path+"/"+strconv.Itoa(8*keySize), func(b *testing.B) {
				c, _ := New(make([]byte, keySize))
				buf := make([]byte, benchSize)
				b.SetBytes(benchSize)
				b.ReportAllocs()
				for b.Loop() {
					f(c, buf)
				}
			})
		})
	}
}
