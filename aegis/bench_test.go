package aegis

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
)

var benchSizes = []int{64, 256, 1024, 4096, 16384}

// benchVariants lists the variants in the order of the draft.
var benchVariants = []struct {
	name string
	new  func(key []byte, tagSize int) (*AEAD, error)
	key  int
}{
	{"128L", New128L, 16}, {"128X2", New128X2, 16}, {"128X4", New128X4, 16},
	{"256", New256, 32}, {"256X2", New256X2, 32}, {"256X4", New256X4, 32},
}

// BenchmarkSeal and BenchmarkOpen measure each variant (16-byte tag, no
// associated data) on every path, with room in dst: they must not allocate.
func BenchmarkSeal(b *testing.B) { benchmark(b, false) }
func BenchmarkOpen(b *testing.B) { benchmark(b, true) }

func benchmark(b *testing.B, open bool) {
	for _, v := range benchVariants {
		b.Run(v.name, func(b *testing.B) {
			aeadtest.Benchmark(b, paths, open, func() (*AEAD, error) { return v.new(make([]byte, v.key), 16) })
		})
	}
}

// BenchmarkMAC measures AEGISMAC per variant with the kernels in use.
func BenchmarkMAC(b *testing.B) {
	for _, v := range []struct {
		name string
		v    *variant
	}{{"128L", v128L}, {"128X2", v128X2}, {"128X4", v128X4}, {"256", v256}, {"256X2", v256X2}, {"256X4", v256X4}} {
		for _, size := range benchSizes {
			b.Run(v.name+"/"+strconv.Itoa(size), func(b *testing.B) {
				h, _ := newMAC(v.v, make([]byte, v.v.keySize), make([]byte, v.v.keySize), 16)
				data := make([]byte, size)
				tag := make([]byte, 0, 16)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					h.Reset()
					h.Write(data)
					h.Sum(tag)
				}
			})
		}
	}
}

// BenchmarkSealBatch and BenchmarkOpenBatch measure batches of 64 messages
// against 64 single calls, on the default kernels, for the variants whose
// batches run in lanes.
func BenchmarkSealBatch(b *testing.B) { benchmarkBatch(b, false) }
func BenchmarkOpenBatch(b *testing.B) { benchmarkBatch(b, true) }

func benchmarkBatch(b *testing.B, open bool) {
	for _, v := range []int{0, 3} {
		v := benchVariants[v]
		b.Run(v.name, func(b *testing.B) {
			aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return v.new(make([]byte, v.key), 16) })
		})
	}
}
