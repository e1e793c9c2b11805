package main

import (
	"fmt"
	"math"
	"slices"
)

// welch accumulates two classes of measurements for Welch's t-test, with
// Welford's running mean and variance.
type welch struct {
	n, mean, m2 [2]float64
}

func (w *welch) push(x float64, class int) {
	w.n[class]++
	d := x - w.mean[class]
	w.mean[class] += d / w.n[class]
	w.m2[class] += d * (x - w.mean[class])
}

// t returns Welch's t statistic of the two classes: the difference of their
// means over its standard error. It is 0 until each class has two values.
func (w *welch) t() float64 {
	if w.n[0] < 2 || w.n[1] < 2 {
		return 0
	}
	v0 := w.m2[0] / (w.n[0] - 1)
	v1 := w.m2[1] / (w.n[1] - 1)
	se := math.Sqrt(v0/w.n[0] + v1/w.n[1])
	if se == 0 {
		return 0
	}
	return (w.mean[0] - w.mean[1]) / se
}

const (
	numCrops   = 100 // the number of cropped tests, as in dudect
	medianCrop = 9   // the cropped test whose threshold is the median
)

// analysis is dudect's battery of t-tests over one target's measurements:
// one on all of them, numCrops on those below a rising series of
// percentiles (cropping the long tail that interrupts and other processes
// add, which would otherwise swamp a small difference), and a second-order
// test on the squared distance from the class mean, which catches a
// difference in spread rather than in location.
type analysis struct {
	thresholds []float64
	all        welch
	cropped    [numCrops]welch
	second     welch
}

// newAnalysis sets the cropping thresholds from a first batch of
// measurements, which it does not count: threshold i is the
// 1-0.5^(10(i+1)/numCrops) quantile, so most crops sit in the bulk of the
// distribution and a few reach into its tail.
func newAnalysis(first []float64) *analysis {
	s := slices.Clone(first)
	slices.Sort(s)
	a := &analysis{thresholds: make([]float64, numCrops)}
	for i := range a.thresholds {
		q := 1 - math.Pow(0.5, 10*float64(i+1)/numCrops)
		a.thresholds[i] = s[int(q*float64(len(s)-1))]
	}
	return a
}

const secondOrder = "second order"

// minSecondOrder is how many measurements dudect takes before it starts the
// second-order test, whose centring needs settled class means.
const minSecondOrder = 10000

func (a *analysis) push(x float64, class int) {
	if a.all.n[0]+a.all.n[1] >= minSecondOrder {
		d := x - a.all.mean[class]
		a.second.push(d*d, class)
	}
	a.all.push(x, class)
	for i, th := range a.thresholds {
		if x < th {
			a.cropped[i].push(x, class)
		}
	}
}

// minSamples is the fewest measurements a test needs before its t counts.
const minSamples = 10000

// worst returns the test with the t statistic of largest magnitude among
// those with enough measurements, and its name; nil if none has enough.
func (a *analysis) worst() (w *welch, name string) {
	consider := func(c *welch, cname string) {
		if c.n[0]+c.n[1] >= minSamples && (w == nil || math.Abs(c.t()) >= math.Abs(w.t())) {
			w, name = c, cname
		}
	}
	consider(&a.all, "all")
	for i := range a.cropped {
		consider(&a.cropped[i], cropName(i))
	}
	consider(&a.second, secondOrder)
	return w, name
}

func cropName(i int) string {
	q := 1 - math.Pow(0.5, 10*float64(i+1)/numCrops)
	return fmt.Sprintf("cropped at the %.4g%% quantile", 100*q)
}
