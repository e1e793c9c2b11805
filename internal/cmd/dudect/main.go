// Command dudect looks for execution time that depends on secret data in
// fae's constant-time code, by the method of dudect (O. Reparaz, J. Balasch
// and I. Verbauwhede, "Dude, is my code constant time?", IACR ePrint
// 2016/1123): it times an operation many times on two classes of secret
// input, one fixed value and fresh random values, interleaved at random,
// and applies Welch's t-test to the two timing distributions, whole,
// cropped at a series of percentiles and in the second order. A |t| above
// 4.5 is evidence of a difference; below it, none was found at this number
// of measurements, which is not proof of its absence.
//
// Usage:
//
//	go run ./internal/cmd/dudect [-time d] [target ...]
//
// With no targets it runs them all; -list lists them. The statistics need a
// quiet machine, so it is not part of CI; docs/security.md records a run.
package main

import (
	"crypto/rand"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// A target is one operation whose time must not depend on its input.
type target struct {
	name, doc string
	size      int // bytes of input
	// setup prepares the operation and returns the fixed input of the first
	// class and the operation, which reads its input and writes a result
	// that the harness keeps.
	setup func() (fixed []byte, op func(in []byte))
}

const (
	batchSize = 10000 // measurements per batch of inputs made in advance
	// perMeasurement is the time one measurement should take: long enough
	// that the clock's resolution and the cost of reading it do not hide a
	// difference, so quick operations are repeated on the same input.
	perMeasurement = 2 * time.Microsecond
	// threshold is dudect's bound on |t| for "no leak detected".
	threshold = 4.5
)

func main() {
	d := flag.Duration("time", 20*time.Second, "time to measure each `target`")
	list := flag.Bool("list", false, "list the targets and exit")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: dudect [-time d] [-list] [target ...]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *list {
		w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
		for _, t := range targets {
			fmt.Fprintf(w, "%s\t%s\n", t.name, t.doc)
		}
		w.Flush()
		return
	}
	run := targets
	if flag.NArg() > 0 {
		run = nil
		for _, name := range flag.Args() {
			i := slices.IndexFunc(targets, func(t target) bool { return t.name == name })
			if i < 0 {
				fmt.Fprintf(os.Stderr, "dudect: unknown target %q (see -list)\n", name)
				os.Exit(2)
			}
			run = append(run, targets[i])
		}
	}

	runtime.LockOSThread()
	fmt.Printf("dudect: %s/%s, %s, %v per target, |t| > %v means a leak\n\n", runtime.GOOS, runtime.GOARCH, runtime.Version(), *d, threshold)
	const row = "%-20s %12s %5s %8s %8s %10s  %-13s  %s\n"
	fmt.Printf(row, "target", "measurements", "reps", "ns/op*", "t", "Δ ns/op", "verdict", "test with the largest |t|")
	leaks := 0
	for _, t := range run {
		r := measure(t, *d)
		if r.skipped {
			fmt.Printf("%-20s skipped: not available here\n", t.name)
			continue
		}
		verdict := "no leak found"
		if math.Abs(r.t) > threshold {
			verdict = "LEAK"
			if !strings.HasPrefix(t.name, "control-") {
				leaks++
			}
		}
		diff := "-" // a difference of squares says little
		if r.test != secondOrder {
			diff = fmt.Sprintf("%+.4f", r.diff)
		}
		fmt.Printf(row, t.name, fmt.Sprint(r.n), fmt.Sprint(r.reps), fmt.Sprintf("%.1f", r.median),
			fmt.Sprintf("%+.2f", r.t), diff, verdict, r.test)
	}
	fmt.Println("\n* ns/op: mean of the measurements below the median, which leaves out most interruptions")
	fmt.Println("  t: Welch's t of the test with the largest |t|; Δ ns/op: its fixed class's mean less its random class's (first-order tests)")
	if leaks > 0 {
		os.Exit(1)
	}
}

type result struct {
	skipped bool // the target needs what this machine lacks
	n, reps int
	median  float64 // ns per operation: the mean of the measurements below the median
	t       float64 // the largest t in magnitude
	diff    float64 // ns per operation, the fixed class's mean less the random class's, in that test
	test    string  // the name of that test
}

// measure times t for about d (at least two batches) and returns its worst
// t statistic.
func measure(t target, d time.Duration) result {
	fixed, op := t.setup()
	if op == nil {
		return result{skipped: true}
	}
	if len(fixed) != t.size {
		panic("dudect: " + t.name + ": fixed input of the wrong size")
	}
	reps := calibrate(op, fixed)
	classes := make([]uint8, batchSize)
	inputs := make([]byte, batchSize*t.size)
	random := make([]byte, batchSize*t.size)
	times := make([]float64, batchSize)
	batch := func() {
		rand.Read(classes)
		rand.Read(random)
		for i, c := range classes {
			c &= 1
			classes[i] = c
			// Every input is written once and the same way, so that both
			// classes leave the caches in the same state.
			in := inputs[i*t.size : (i+1)*t.size]
			if c == 0 {
				copy(in, fixed)
			} else {
				copy(in, random[i*t.size:])
			}
		}
		// Nothing allocates while timing; a collection would only add noise.
		runtime.GC()
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
		for i := range times {
			in := inputs[i*t.size : (i+1)*t.size]
			start := time.Now()
			for range reps {
				op(in)
			}
			times[i] = float64(time.Since(start).Nanoseconds()) / float64(reps)
		}
	}
	// The first batch warms up and sets the cropping thresholds, as in
	// dudect, and is not counted.
	batch()
	a := newAnalysis(times)
	for start := time.Now(); ; {
		batch()
		for i, x := range times {
			a.push(x, int(classes[i]))
		}
		if time.Since(start) >= d {
			break
		}
	}
	w, test := a.worst()
	m := &a.cropped[medianCrop]
	return result{
		n:      int(a.all.n[0] + a.all.n[1]),
		reps:   reps,
		median: (m.mean[0]*m.n[0] + m.mean[1]*m.n[1]) / (m.n[0] + m.n[1]),
		t:      w.t(),
		diff:   w.mean[0] - w.mean[1],
		test:   test,
	}
}

// calibrate returns how many times to repeat op per measurement.
func calibrate(op func([]byte), in []byte) int {
	const tries = 1000
	start := time.Now()
	for range tries {
		op(in)
	}
	one := time.Since(start) / tries
	return max(1, int(perMeasurement/max(one, 1)))
}
