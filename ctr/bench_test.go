package ctr

import (
	"crypto/aes"
	"crypto/cipher"
	"strconv"
	"testing"
)

func BenchmarkCTR(b *testing.B) {
	key, iv := make([]byte, 16), make([]byte, 16)
	for _, size := range []int{16, 64, 256, 576, 1500, 4096, 16384} {
		buf := make([]byte, size)
		paths.Each(func(path string) {
			b.Run(path+"/"+strconv.Itoa(size), func(b *testing.B) {
				s, _ := New(key, iv)
				b.SetBytes(int64(size))
				for b.Loop() {
					s.XORKeyStream(buf, buf)
				}
			})
		})
		b.Run("stdlib/"+strconv.Itoa(size), func(b *testing.B) {
			blk, _ := aes.NewCipher(key)
			s := cipher.NewCTR(blk, iv)
			b.SetBytes(int64(size))
			for b.Loop() {
				s.XORKeyStream(buf, buf)
			}
		})
	}
}
