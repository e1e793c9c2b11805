package ccm

import (
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// BenchmarkSeal and BenchmarkOpen measure AES-128-CCM (12-byte nonce,
// 16-byte tag) on every path, with room in dst: they must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	aeadtest.Benchmark(b, paths, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkNew measures key setup.
func BenchmarkNew(b *testing.B) { aeadtest.BenchmarkNew(b, []int{16, 32}, New) }

// BenchmarkSealBatch and BenchmarkOpenBatch measure batches of 64
// messages against 64 single calls, on the default kernels.
func BenchmarkSealBatch(b *testing.B) { benchmarkBatch(b, false) }
func BenchmarkOpenBatch(b *testing.B) { benchmarkBatch(b, true) }

func benchmarkBatch(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return New(make([]byte, 16)) })
}

// BenchmarkSealBatchLEA and BenchmarkOpenBatchLEA are those over fae's LEA,
// whose CBC-MACs run side by side in Go (batch_lanes.go).
func BenchmarkSealBatchLEA(b *testing.B) { benchmarkBatchLEA(b, false) }
func BenchmarkOpenBatchLEA(b *testing.B) { benchmarkBatchLEA(b, true) }

func benchmarkBatchLEA(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return newLEA(make([]byte, 16), false, 12, 16) })
}

// BenchmarkBatchAligned measures batches of 64 messages of 16 KiB whose
// inputs and outputs all start at the same offset in a 4 KiB page, as
// separately allocated large buffers do: the lanes' stores of a step then
// fall in one cache set unless the lanes are staggered.
func BenchmarkBatchAligned(b *testing.B) {
	const count, size, page = 64, 16384, 4096
	a, err := New(make([]byte, 16))
	if err != nil {
		b.Fatal(err)
	}
	// aligned returns count buffers of n bytes, each at the start of a page.
	aligned := func(n int) [][]byte {
		stride := (n + page - 1) / page * page
		mem := make([]byte, count*stride+page)
		base := page - int(uintptr(unsafe.Pointer(&mem[0]))%page)
		bufs := make([][]byte, count)
		for i := range bufs {
			bufs[i] = mem[base+i*stride:][:n:n]
		}
		return bufs
	}
	pts, cts := aligned(size), aligned(size+TagSize)
	seal, open := make([]batch.Message, count), make([]batch.Message, count)
	for i := range seal {
		nonce := make([]byte, NonceSize)
		nonce[0] = byte(i)
		a.Seal(cts[i][:0], nonce, pts[i], nil)
		seal[i] = batch.Message{Nonce: nonce, In: pts[i], Out: cts[i]}
		open[i] = batch.Message{Nonce: nonce, In: cts[i], Out: pts[i]}
	}
	b.Run("seal", func(b *testing.B) {
		b.SetBytes(count * size)
		for b.Loop() {
			a.SealBatch(seal)
		}
	})
	b.Run("open", func(b *testing.B) {
		b.SetBytes(count * size)
		for b.Loop() {
			if !a.OpenBatch(open) {
				b.Fatal("OpenBatch failed")
			}
		}
	})
}
