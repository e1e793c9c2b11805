package ccm

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
)

func BenchmarkZZLayout(b *testing.B) {
	const size = 16384
	for _, open := range []bool{false, true} {
		for _, stagger := range []int{0, 1} {
			b.Run(strconv.FormatBool(open)+"/"+strconv.Itoa(stagger), func(b *testing.B) {
				a, _ := New(make([]byte, 16))
				msgs := make([]batch.Message, 64)
				for i := range msgs {
					nonce := make([]byte, 12)
					pt := make([]byte, size+64*16)[64*(i%16)*stagger:][:size]
					ct := make([]byte, size+16+64*16)[64*(i%16)*stagger:][:size+16]
					if open {
						a.Seal(ct[:0], nonce, pt, nil)
						msgs[i] = batch.Message{Nonce: nonce, In: ct, Out: pt}
					} else {
						msgs[i] = batch.Message{Nonce: nonce, In: pt, Out: ct}
					}
				}
				b.SetBytes(64 * size)
				for b.Loop() {
					if open {
						a.OpenBatch(msgs)
					} else {
						a.SealBatch(msgs)
					}
				}
			})
		}
	}
}
