// Package par spreads the blocks of one large message over goroutines for
// the parallel modes (OCB3, RAOCB and GCM): every goroutine claims ranges from a
// shared counter, so one that starts late (a sleeping core takes tens of
// microseconds to wake in some virtual machines) takes less work instead of
// delaying the result. (Claims that shrink toward the end, guided
// self-scheduling, measured slower on 4 MiB messages than fixed ones.)
package par

import (
	"sync"
	"sync/atomic"
)

// Threshold is the smallest message (or associated data) that the modes
// split: below it, starting goroutines costs more than it saves.
const Threshold = 256 << 10

// minShare is the fewest bytes per goroutine worth starting one for.
const minShare = 64 << 10

// Goroutines returns how many goroutines, at most most, n bytes are worth: 1
// below Threshold.
func Goroutines(most, n int) int {
	if n < Threshold {
		return 1
	}
	return max(1, min(most, n/minShare))
}

// Claims hands out consecutive ranges [lo, hi) of total bytes, size bytes
// each but for the last.
type Claims struct {
	next        atomic.Int64
	total, size int
}

// NewClaims returns Claims over total bytes in ranges of size bytes.
func NewClaims(total, size int) *Claims {
	return &Claims{total: total, size: size}
}

// Next returns the next unclaimed range, and false when none is left.
func (c *Claims) Next() (lo, hi int, ok bool) {
	lo = int(c.next.Add(1)-1) * c.size
	if lo >= c.total {
		return 0, 0, false
	}
	return lo, min(lo+c.size, c.total), true
}

// Run calls work on n goroutines, each with its own S, and returns the n
// values once all have returned.
//
// Every call runs on a goroutine of its own, the caller waiting: the one
// started last takes the caller's P at once, and the others wait in its
// run queue, where an idle P steals them as soon as it looks. A goroutine
// started by a caller that keeps running would sit in the P's runnext slot
// instead, which other Ps leave alone for several microseconds of back-off;
// in a VM that often meant the whole of a 4 MiB message ran on one core.
func Run[S any](n int, work func(*S)) []S {
	out := make([]S, n)
	var wg sync.WaitGroup
	for k := range n {
		wg.Go(func() { work(&out[k]) })
	}
	wg.Wait()
	return out
}
