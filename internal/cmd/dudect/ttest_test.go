package main

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestWelch(t *testing.T) {
	// Class 0: 1, 2, 3, 4 (mean 2.5, variance 5/3); class 1: 2, 4, 6
	// (mean 4, variance 4): t = -1.5/sqrt(5/12 + 4/3).
	var w welch
	for _, x := range []float64{1, 2, 3, 4} {
		w.push(x, 0)
	}
	for _, x := range []float64{2, 4, 6} {
		w.push(x, 1)
	}
	if got, want := w.t(), -1.5/math.Sqrt(5.0/12+4.0/3); math.Abs(got-want) > 1e-12 {
		t.Errorf("t = %v, want %v", got, want)
	}
}

// TestAnalysis checks that the battery finds a shift of a tenth of the
// noise in a heavy-tailed distribution, and nothing without it.
func TestAnalysis(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sample := func(shift float64) float64 {
		x := 100 + r.NormFloat64()
		if r.IntN(50) == 0 { // interruptions
			x += 1000 * r.ExpFloat64()
		}
		return x + shift
	}
	first := make([]float64, 10000)
	for i := range first {
		first[i] = sample(0)
	}
	for _, shift := range []float64{0, 0.1} {
		a := newAnalysis(first)
		for range 100000 {
			c := r.IntN(2)
			a.push(sample(shift*float64(c)), c)
		}
		w, test := a.worst()
		if leak := math.Abs(w.t()) > threshold; leak != (shift != 0) {
			t.Errorf("shift %v: max |t| %.2f (%s)", shift, math.Abs(w.t()), test)
		}
	}
}
