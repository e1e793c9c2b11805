// Command benchplot draws the plots of a `fae bench --out DIR` run from
// DIR/results.json, into DIR:
//
//	go run ./internal/cmd/benchplot DIR
//
// cpb.svg and cpb.png are small multiples of Seal's cycles per byte against
// message length, both axes logarithmic and shared by every panel:
// Krovetz and Rogaway's four modes together, then one panel per mode or
// family with fae against its peers (the panels are bench.Report.Panels).
// ipi.svg and ipi.png are the Internet Performance Index of every row. A
// plot with nothing to show, such as ipi without the IPI's lengths, is
// left out.
//
// The plots are a command of their own, not part of fae: gonum/plot, with
// its fonts, LaTeX renderer and PDF, SVG and image writers, doubled the fae
// binary (16.4 MB with it, 8.5 MB without; a bare Go program is 2.1 MB) and
// cost every fae command about 0.7 ms of start-up ('fae list' 3.4 ms with
// it, 2.7 ms without, a bare Go program 1.3 ms; medians of 5 × 200 runs
// under hyperfine), of which 0.73 ms is package inits (GODEBUG=inittrace=1:
// gonum/plot's font parsing 0.33 ms, encoding/gob 0.17 ms, go-latex
// 0.15 ms). A tool that seals and opens files should not pay for drawing,
// nor link a LaTeX renderer beside its keys.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/faelabs/fae/internal/bench"
)

func main() {
	if len(os.Args) != 2 || os.Args[1] == "" || os.Args[1][0] == '-' {
		fmt.Fprintln(os.Stderr, "usage: benchplot DIR (reads DIR/results.json, which fae bench --out DIR wrote, and draws the plots into DIR)")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "benchplot: %v\n", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		return err
	}
	var r bench.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return fmt.Errorf("%s: %v", filepath.Join(dir, "results.json"), err)
	}
	return writePlots(&r, dir)
}
