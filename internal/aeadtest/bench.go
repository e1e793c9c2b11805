package aeadtest

import (
	"crypto/cipher"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/faelabs/fae/batch"
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

// batchBenchSizes are the message sizes of BenchmarkBatch: short (44 is the
// IPI's smallest), IPI-like and long.
var batchBenchSizes = []int{44, 64, 576, 1500, 16384}

// batchMixes are BenchmarkBatch's batches of mixed sizes, 64 lengths each:
// "ipi", the IPI's lengths as many of each as split the batch's bytes as
// the IPI's weights (34 of 44 bytes, 8 of 552, 10 of 576 and 12 of 1500, as
// fae bench's ipi_mixed), shuffled; "random", lengths drawn uniformly from
// 0 to 1500. Both are the same on every run.
var batchMixes = func() map[string][]int {
	r := rand.New(rand.NewPCG(16, 64))
	var ipi, random []int
	for _, c := range []struct{ n, size int }{{34, 44}, {8, 552}, {10, 576}, {12, 1500}} {
		for range c.n {
			ipi = append(ipi, c.size)
		}
	}
	r.Shuffle(len(ipi), func(i, j int) { ipi[i], ipi[j] = ipi[j], ipi[i] })
	for range 64 {
		random = append(random, r.IntN(1501))
	}
	return map[string][]int{"ipi": ipi, "random": random}
}()

// BenchmarkBatch measures batches of 64 messages under a new AEAD, of one
// size each (batchBenchSizes) and of mixed sizes (batchMixes), with the
// kernels this CPU runs by default: SealBatch (or OpenBatch) as "batch64"
// and 64 single Seal (Open) calls as "single64", beside each other so that
// their ratio comes from one run, and both on the same messages in turns
// as "ratio", which reports the median over the turns of the time of the
// single calls over the batch's (single/batch), the steadier figure where
// the load varies. Bytes are the
// 64 messages' texts.
func BenchmarkBatch[A batch.AEAD](b *testing.B, open bool, newAEAD func() (A, error)) {
	const count = 64
	type shape struct {
		name  string
		sizes []int
	}
	var shapes []shape
	for _, size := range batchBenchSizes {
		sizes := make([]int, count)
		for i := range sizes {
			sizes[i] = size
		}
		shapes = append(shapes, shape{strconv.Itoa(size), sizes})
	}
	shapes = append(shapes, shape{"ipi", batchMixes["ipi"]}, shape{"random", batchMixes["random"]})
	for _, sh := range shapes {
		for _, name := range []string{"batch64", "single64", "ratio"} {
			b.Run(name+"/"+sh.name, func(b *testing.B) {
				a, err := newAEAD()
				if err != nil {
					b.Fatal(err)
				}
				msgs := make([]batch.Message, count)
				total := 0
				for i := range msgs {
					nonce := make([]byte, a.NonceSize())
					nonce[0] = byte(i)
					pt := make([]byte, sh.sizes[i])
					total += len(pt)
					in, out := pt, make([]byte, len(pt)+a.Overhead())
					if open {
						in, out = a.Seal(nil, nonce, pt, nil), pt
					}
					msgs[i] = batch.Message{Nonce: nonce, In: in, Out: out}
				}
				inBatch := func() {
					if open && !a.OpenBatch(msgs) {
						b.Fatal("OpenBatch failed")
					} else if !open {
						a.SealBatch(msgs)
					}
				}
				single := func() {
					for i := range msgs {
						m := &msgs[i]
						if !open {
							a.Seal(m.Out[:0], m.Nonce, m.In, m.AD)
						} else if _, err := a.Open(m.Out[:0], m.Nonce, m.In, m.AD); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.SetBytes(int64(total))
				b.ReportAllocs()
				switch name {
				case "batch64":
					for b.Loop() {
						inBatch()
					}
				case "single64":
					for b.Loop() {
						single()
					}
				default:
					b.ReportMetric(TurnRatio(b, inBatch, single), "single/batch")
				}
			})
		}
	}
}

// TurnRatio runs f and g in turns in b's loop, each turn the other first,
// so that neither always finds the caches as the other left them, and
// returns the median of the turns' ratios of g's time to f's, which a turn
// the scheduler or another process stretched cannot move far.
func TurnRatio(b *testing.B, f, g func()) float64 {
	ratios := make([]float64, 0, 1<<16)
	for turn := 0; b.Loop(); turn++ {
		first, second := f, g
		if turn%2 == 1 {
			first, second = g, f
		}
		t0 := time.Now()
		first()
		t1 := time.Now()
		second()
		t2 := time.Now()
		r := float64(t2.Sub(t1)) / float64(t1.Sub(t0))
		if turn%2 == 1 {
			r = 1 / r
		}
		if len(ratios) < cap(ratios) {
			ratios = append(ratios, r)
		}
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}
