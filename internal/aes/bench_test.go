package aes

import (
	"strconv"
	"testing"
)

var benchSizes = []int{16, 64, 256, 1500, 16384}

// benchKernels runs f as a sub-benchmark for each kernel, with a fresh
// AES-128 key expanded while the kernel is selected.
func benchKernels(b *testing.B, f func(b *testing.B, blk *Block)) {
	paths.Each(func(path string) {
		b.Run(path, func(b *testing.B) {
			f(b, mustNew(b, make([]byte, 16)))
		})
	})
}

// benchOp runs op on buffers of each of benchSizes bytes, less a partial
// block when whole is set (ECB takes whole blocks only).
func benchOp(b *testing.B, blk *Block, whole bool, op func(blk *Block, buf []byte)) {
	for _, n := range benchSizes {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			if whole {
				n &^= BlockSize - 1
			}
			buf := make([]byte, n)
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				op(blk, buf)
			}
		})
	}
}

func BenchmarkEncrypt(b *testing.B) {
	benchKernels(b, func(b *testing.B, blk *Block) {
		benchOp(b, blk, true, func(blk *Block, buf []byte) { blk.EncryptBlocks(buf, buf) })
	})
}

func BenchmarkDecrypt(b *testing.B) {
	benchKernels(b, func(b *testing.B, blk *Block) {
		benchOp(b, blk, true, func(blk *Block, buf []byte) { blk.DecryptBlocks(buf, buf) })
	})
}

func BenchmarkCTR(b *testing.B) {
	benchKernels(b, func(b *testing.B, blk *Block) {
		var iv [16]byte
		benchOp(b, blk, false, func(blk *Block, buf []byte) { blk.XORKeyStreamAt(buf, buf, &iv) })
	})
}

func benchExpandKey(b *testing.B, size int) {
	benchKernels(b, func(b *testing.B, _ *Block) {
		key := make([]byte, size)
		var blk Block
		b.ReportAllocs()
		for b.Loop() {
			if err := blk.Init(key); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkExpandKey128(b *testing.B) { benchExpandKey(b, 16) }
func BenchmarkExpandKey256(b *testing.B) { benchExpandKey(b, 32) }
