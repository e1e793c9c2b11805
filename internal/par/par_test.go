package par

import (
	"sync"
	"testing"
)

// TestClaims checks that concurrent claimants cover every byte exactly
// once, in ranges of the claim size but for the last.
func TestClaims(t *testing.T) {
	for _, total := range []int{0, 16, 512, 32<<10 + 16, 1<<20 + 48, 4 << 20, 64<<20 + 512} {
		for _, n := range []int{1, 2, 3, 8} {
			c := NewClaims(total, 256<<10)
			var mu sync.Mutex
			seen := make(map[int]int) // lo -> hi
			got := Run(n, func(count *int) {
				for lo, hi, ok := c.Next(); ok; lo, hi, ok = c.Next() {
					*count += hi - lo
					mu.Lock()
					seen[lo] = hi
					mu.Unlock()
				}
			})
			sum := 0
			for _, g := range got {
				sum += g
			}
			if sum != total {
				t.Fatalf("total %d, n %d: claimed %d bytes", total, n, sum)
			}
			for at := 0; at < total; {
				hi, ok := seen[at]
				if !ok {
					t.Fatalf("total %d, n %d: no claim starts at %d", total, n, at)
				}
				if hi-at > 256<<10 || (hi < total && hi-at != 256<<10) {
					t.Fatalf("total %d, n %d: bad claim [%d, %d)", total, n, at, hi)
				}
				at = hi
			}
		}
	}
}

func TestGoroutines(t *testing.T) {
	for _, c := range []struct{ most, n, want int }{
		{8, Threshold - 1, 1}, {8, Threshold, 4}, {2, Threshold, 2}, {0, Threshold, 1},
		{8, 1 << 20, 8}, {3, 1 << 30, 3},
	} {
		if got := Goroutines(c.most, c.n); got != c.want {
			t.Errorf("Goroutines(%d, %d) = %d, want %d", c.most, c.n, got, c.want)
		}
	}
}
