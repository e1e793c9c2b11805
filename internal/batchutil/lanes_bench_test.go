package batchutil

import (
	"math/rand/v2"
	"testing"

	"github.com/faelabs/fae/batch"
)

// BenchmarkLanes measures the grouping alone of a ragged kernel's batch of
// 64 messages: of the IPI's lengths shuffled (34 of 44 bytes, 8 of 552, 10
// of 576, 12 of 1500, as aeadtest's "ipi"), of lengths drawn from 0 to
// 1500, and of one length, which take groups.
func BenchmarkLanes(b *testing.B) {
	r := rand.New(rand.NewPCG(16, 64))
	var ipi, random, like []int
	for _, c := range []struct{ n, size int }{{34, 44}, {8, 552}, {10, 576}, {12, 1500}} {
		for range c.n {
			ipi = append(ipi, c.size)
		}
	}
	r.Shuffle(len(ipi), func(i, j int) { ipi[i], ipi[j] = ipi[j], ipi[i] })
	for range 64 {
		random, like = append(random, r.IntN(1501)), append(like, 44)
	}
	for _, c := range []struct {
		name  string
		sizes []int
	}{{"ipi", ipi}, {"random", random}, {"44", like}} {
		b.Run(c.name, func(b *testing.B) {
			msgs := make([]batch.Message, len(c.sizes))
			for i, n := range c.sizes {
				msgs[i].In = make([]byte, n)
			}
			for b.Loop() {
				var q Lanes
				q.Init(msgs, 4, 5, 16, false)
				q.MaxRuns, q.Ragged = len(msgs), true
				for g := q.Next(); g != nil; g = q.Next() {
				}
			}
		})
	}
}
