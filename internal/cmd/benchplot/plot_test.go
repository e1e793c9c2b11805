package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gonum.org/v1/plot"

	"github.com/faelabs/fae/internal/bench"
)

func entries(groups ...string) []legendEntry {
	es := make([]legendEntry, len(groups))
	for i, g := range groups {
		es[i] = legendEntry{label: g + string(rune('a'+i)), group: g}
	}
	return es
}

func groupsOf(cols [][]legendEntry) [][]string {
	var out [][]string
	for _, c := range cols {
		var gs []string
		for _, e := range c {
			gs = append(gs, e.group)
		}
		out = append(out, gs)
	}
	return out
}

func TestLegendColumns(t *testing.T) {
	for _, tc := range []struct {
		groups []string
		cols   int
		rows   int
		want   [][]string
	}{
		// CTR: two algorithms of three implementations each.
		{[]string{"128", "128", "128", "256", "256", "256"}, 2, 3, [][]string{{"128", "128", "128"}, {"256", "256", "256"}}},
		// CCM: a group that does not fit below another starts a column.
		{[]string{"128", "128", "256", "256", "lea"}, 2, 3, [][]string{{"128", "128"}, {"256", "256", "lea"}}},
		// OCB: three of OCB3, one of RAOCB.
		{[]string{"ocb", "ocb", "ocb", "raocb"}, 2, 3, [][]string{{"ocb", "ocb", "ocb"}, {"raocb"}}},
		// Groups are kept whole, at the cost of a row.
		{[]string{"a", "a", "a", "a", "b"}, 2, 4, [][]string{{"a", "a", "a", "a"}, {"b"}}},
		{[]string{"a", "b", "c", "d", "e"}, 5, 1, [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}},
		{[]string{"a", "b", "c"}, 1, 3, [][]string{{"a", "b", "c"}}},
		{nil, 2, 0, nil},
	} {
		es := entries(tc.groups...)
		if rows := legendRows(es, tc.cols); rows != tc.rows {
			t.Errorf("%v in %d columns: %d rows, want %d", tc.groups, tc.cols, rows, tc.rows)
		}
		cols, ok := legendColumns(es, tc.rows, tc.cols)
		if got := groupsOf(cols); !ok || !slices.EqualFunc(got, tc.want, slices.Equal) {
			t.Errorf("%v in %d columns of %d: %v (fits %v), want %v", tc.groups, tc.cols, tc.rows, got, ok, tc.want)
		}
		var flat []legendEntry
		for _, c := range cols {
			flat = append(flat, c...)
		}
		if !slices.Equal(flat, es) {
			t.Errorf("%v: columns %v do not keep the entries' order", tc.groups, cols)
		}
	}
	// Given too few rows, a group runs on into the next column.
	if cols, ok := legendColumns(entries("a", "a", "a", "a", "b"), 3, 2); !ok ||
		!slices.EqualFunc(groupsOf(cols), [][]string{{"a", "a", "a"}, {"a", "b"}}, slices.Equal) {
		t.Errorf("a group longer than a column: %v (fits %v)", groupsOf(cols), ok)
	}
	if _, ok := legendColumns(entries("a", "b", "c"), 1, 2); ok {
		t.Error("three entries fit two columns of one row")
	}
}

func TestImplStyles(t *testing.T) {
	seen := map[string]string{}
	for _, impl := range bench.Impls {
		st, ok := implStyles[impl]
		if !ok {
			t.Errorf("no style for %s", impl)
		}
		k := fmt.Sprint(st.dashes)
		if other, ok := seen[k]; ok {
			t.Errorf("%s and %s are drawn alike", impl, other)
		}
		seen[k] = impl
	}
}

func TestTicks(t *testing.T) {
	labels := func(m plot.Ticker, lo, hi float64) []string {
		var out []string
		for _, tk := range m.Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, tc := range []struct {
		m      plot.Ticker
		lo, hi float64
		want   []string
	}{
		{decadeTicks{}, 0.05, 95, []string{"0.05", "0.1", "0.2", "0.5", "1", "2", "5", "10", "20", "50"}},
		{decadeTicks{}, 2.5, 4.5, []string{"3", "4"}},
		{lengthTicks{}, 16, 65536, []string{"16", "64", "256", "1K", "4K", "16K", "64K"}},
		{lengthTicks{}, 1500, 4096, []string{"2K", "4K"}},
	} {
		if got := labels(tc.m, tc.lo, tc.hi); !slices.Equal(got, tc.want) {
			t.Errorf("%T from %v to %v: labels %q, want %q", tc.m, tc.lo, tc.hi, got, tc.want)
		}
	}
}

// report returns a small report, with the IPI's lengths when ipi is set.
func report(ipi bool) *bench.Report {
	r := &bench.Report{Machine: bench.Machine{CPU: "Test CPU", GHz: 3.5, Go: "go1.26.8", Cores: 2}}
	sizes := []int{16, 64, 1024, 16384}
	if ipi {
		sizes = []int{44, 552, 576, 1500, 16384}
	}
	for i, a := range []struct{ alg, impl string }{
		{"aes-128-ctr", "fae"}, {"aes-128-ocb3", "fae"}, {"aes-128-ocb3", "protonmail"}, {"aes-128-gcm", "go"},
	} {
		for _, n := range sizes {
			r.Results = append(r.Results, bench.Result{Alg: a.alg, Impl: a.impl, Op: "seal", Bytes: n, CPB: float64(i+1) * 100 / float64(n)})
		}
	}
	r.Results = append(r.Results, bench.Result{Alg: "aes-128-ocb3", Impl: "openssl", Op: "seal", Bytes: 16384, CPB: 0.5})
	for _, n := range sizes { // --batch 64: a panel of its own
		r.Results = append(r.Results, bench.Result{Alg: "aes-128-ocb3", Impl: "fae", Op: "seal", Bytes: n, Batch: 64, CPB: 50 / float64(n)})
	}
	if ipi {
		for _, s := range []struct {
			alg, impl string
			ipi       float64
		}{{"aes-128-ocb3", "fae", 0.6}, {"aes-128-gcm", "go", 1.4}, {"aes-128-ocb3", "openssl", 3.5}} {
			r.Summary = append(r.Summary, bench.Summary{Alg: s.alg, Impl: s.impl, IPI: &s.ipi})
		}
	}
	return r
}

func TestRun(t *testing.T) {
	cases := []bool{true, false}
	if testing.Short() { // drawing is slow under emulation; the first case draws both plots
		cases = cases[:1]
	}
	for _, ipi := range cases {
		dir := t.TempDir()
		b, err := json.Marshal(report(ipi))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "results.json"), b, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := run(dir); err != nil {
			t.Fatal(err)
		}
		names := []string{"cpb.svg", "cpb.png"}
		if ipi {
			names = append(names, "ipi.svg", "ipi.png")
		} else if _, err := os.Stat(filepath.Join(dir, "ipi.png")); err == nil {
			t.Error("ipi.png drawn without the IPI's lengths")
		}
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Error(err)
				continue
			}
			if filepath.Ext(name) == ".png" {
				if _, err := png.Decode(bytes.NewReader(b)); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			} else if !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("Test CPU")) {
				t.Errorf("%s is not an SVG of the report", name)
			}
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	if err := run(dir); err == nil {
		t.Error("no error without results.json")
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), []byte(`{"results": [`), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := run(dir); err == nil {
		t.Error("no error for a truncated results.json")
	}
	r := report(false)
	r.Results[0].CPB = 0
	if _, err := cpbFigure(r); err == nil {
		t.Error("no error for a figure of 0 cycles per byte")
	}
}
