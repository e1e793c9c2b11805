package ocb

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// BenchmarkSeal and BenchmarkOpen measure AES-128-OCB3 on every path, with
// room in dst: they must not allocate.
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
// whose short messages go through the cipher in groups.
func BenchmarkSealBatchLEA(b *testing.B) { benchmarkBatchLEA(b, false) }
func BenchmarkOpenBatchLEA(b *testing.B) { benchmarkBatchLEA(b, true) }

func benchmarkBatchLEA(b *testing.B, open bool) {
	aeadtest.BenchmarkBatch(b, open, func() (*AEAD, error) { return newLEA(make([]byte, 16), 12, 16) })
}

// BenchmarkSealBatchKtop and BenchmarkOpenBatchKtop measure batches of 64
// messages whose nonces count up in their last byte (groups of 16 that
// share Ktop, which the lane kernels encipher once for all: "shared") or
// in their first (each its own Ktop, as BenchmarkSealBatch's: "distinct"),
// and as "ratio" the two in turns (distinct/shared, their times' ratio).
func BenchmarkSealBatchKtop(b *testing.B) { benchmarkBatchKtop(b, false) }
func BenchmarkOpenBatchKtop(b *testing.B) { benchmarkBatchKtop(b, true) }

func benchmarkBatchKtop(b *testing.B, open bool) {
	a, err := New(make([]byte, 16))
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{44, 64, 576} {
		// run returns a batch's call, its nonces counting up in byte at.
		run := func(at int) func() {
			msgs := make([]batch.Message, 64)
			for i := range msgs {
				nonce := make([]byte, NonceSize)
				nonce[at] = byte(i)
				in, out := make([]byte, size), make([]byte, size+TagSize)
				if open {
					in, out = a.Seal(nil, nonce, in, nil), in
				}
				msgs[i] = batch.Message{Nonce: nonce, In: in, Out: out}
			}
			return func() {
				if open && !a.OpenBatch(msgs) {
					b.Fatal("OpenBatch failed")
				} else if !open {
					a.SealBatch(msgs)
				}
			}
		}
		shared, distinct := run(NonceSize-1), run(0)
		for _, c := range []struct {
			name string
			f    func()
		}{{"shared", shared}, {"distinct", distinct}} {
			b.Run(c.name+"/"+strconv.Itoa(size), func(b *testing.B) {
				b.SetBytes(int64(64 * size))
				for b.Loop() {
					c.f()
				}
			})
		}
		b.Run("ratio/"+strconv.Itoa(size), func(b *testing.B) {
			b.ReportMetric(aeadtest.TurnRatio(b, shared, distinct), "distinct/shared")
		})
	}
}
