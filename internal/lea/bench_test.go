package lea

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/internal/impl"
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
		for _, kernel := range append(impl.List("lea"), "generic") {
			b.Run(kernel+"/"+strconv.Itoa(8*keySize), func(b *testing.B) {
				impl.Select("lea", kernel)
				defer impl.Reset("lea")
				c, _ := New(make([]byte, keySize))
				buf := make([]byte, benchSize)
				b.SetBytes(benchSize)
				b.ReportAllocs()
				for b.Loop() {
					f(c, buf)
				}
			})
		}
	}
}
