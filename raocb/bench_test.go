package raocb

import (
	"bytes"
	mrand "math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

// BenchmarkSeal and BenchmarkOpen measure AES-128 RAOCB on every path, with
// room in dst: they must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	aeadtest.Benchmark(b, paths, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkSealBatch and BenchmarkOpenBatch measure batches of 64
// messages against 64 single calls, on the default kernels.
func BenchmarkSealBatch(b *testing.B) { benchmarkBatch(b, false) }
func BenchmarkOpenBatch(b *testing.B) { benchmarkBatch(b, true) }

func benchmarkBatch(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkRandomAccess compares decrypting one 4 KiB range at a random
// offset of a 1 GiB message in memory (DecryptBlocks, and ReadAt of a
// verified NewReaderAt) with opening a whole 4 KiB message, on the active
// kernel, and shows the memory system's share: copying the same ranges. The
// message lives in 4 KiB pages, and then, where the system offers them, in
// transparent huge pages, which spare each random access its TLB misses.
// Only this benchmark allocates the 1 GiB.
func BenchmarkRandomAccess(b *testing.B) {
	const size, chunk = 1 << 30, 4096
	a, _ := New(make([]byte, 16))
	nonce := make([]byte, NonceSize)
	b.Run("Open-4KiB-message", func(b *testing.B) {
		ct := a.Seal(nil, nonce, make([]byte, chunk), nil)
		dst := make([]byte, 0, chunk)
		b.SetBytes(chunk)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Open(dst, nonce, ct, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	r := mrand.New(mrand.NewPCG(1, 1))
	offsets := make([]int, 1<<16)
	for i := range offsets {
		offsets[i] = r.IntN(size/blockSize-chunk/blockSize) * blockSize
	}
	for _, huge := range []bool{false, true} {
		msg := make([]byte, size, size+TagSize)
		suffix := ""
		if huge {
			if !adviseHugePages(msg) {
				continue
			}
			suffix = "-hugepages"
		}
		// Sealing in place writes every page, so no range reads shared
		// zero pages.
		msg = a.Seal(msg[:0], nonce, msg, nil)
		ct := msg[:size]
		// The same work on a memory's worth of 4 KiB messages: Open of one
		// at a random place, which waits for memory as the range does.
		b.Run("Open-4KiB-message-of-1GiB"+suffix, func(b *testing.B) {
			one := a.Seal(nil, nonce, make([]byte, chunk), nil)
			msgs := make([]byte, size)
			if huge {
				adviseHugePages(msgs)
			}
			count := size / len(one)
			for k := range count {
				copy(msgs[k*len(one):], one)
			}
			dst := make([]byte, 0, chunk)
			b.SetBytes(chunk)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				off := offsets[i%len(offsets)] % count * len(one)
				if _, err := a.Open(dst, nonce, msgs[off:off+len(one)], nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		// The floor: reading the same ranges, decrypting nothing.
		b.Run("Copy-4KiB-of-1GiB"+suffix, func(b *testing.B) {
			dst := make([]byte, chunk)
			b.SetBytes(chunk)
			i := 0
			for b.Loop() {
				off := offsets[i%len(offsets)]
				copy(dst, ct[off:off+chunk])
				i++
			}
		})
		b.Run("DecryptBlocks-4KiB-of-1GiB"+suffix, func(b *testing.B) {
			dst := make([]byte, 0, chunk)
			b.SetBytes(chunk)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				off := offsets[i%len(offsets)]
				a.DecryptBlocks(dst, nonce, ct[off:off+chunk], uint64(off/blockSize))
				i++
			}
		})
		b.Run("ReadAt-4KiB-of-1GiB"+suffix, func(b *testing.B) {
			ra, err := NewReaderAt(a, nonce, bytes.NewReader(msg), int64(len(msg)), nil)
			if err != nil {
				b.Fatal(err)
			}
			p := make([]byte, chunk)
			b.SetBytes(chunk)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				// Not block-aligned: ReadAt decrypts one block more.
				if _, err := ra.ReadAt(p, int64(offsets[i%len(offsets)]+7)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		msg, ct = nil, nil
		debug.FreeOSMemory() // the next message gets fresh pages
	}
}

// BenchmarkNew measures key setup.
func BenchmarkNew(b *testing.B) { aeadtest.BenchmarkNew(b, []int{16, 32}, New) }
