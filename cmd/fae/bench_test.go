package main

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
)

func TestParseDecimal(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "7": 7, "100": 100, "0100": 100, "16384": 16384} {
		if got, err := parseDecimal(in); err != nil || got != want {
			t.Errorf("parseDecimal(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	// Go's flag package reads the first two as 16 and 1000.
	for _, in := range []string{"0x10", "1_000", "0o7", "0b1", "", "-1", "+1", " 1", "1 ", "1e3", "١", "99999999999999999999"} {
		if got, err := parseDecimal(in); err == nil {
			t.Errorf("parseDecimal(%q) = %d, want an error", in, got)
		}
	}
}

func TestParseSizes(t *testing.T) {
	for in, want := range map[string][]int{
		"16":        {16},
		"4K,1500":   {4096, 1500},
		"4k":        {4096},
		"1..4, 64":  {1, 2, 3, 4, 64},
		"16K..16K":  {16384},
		"10..10,10": {10, 10},
		"0100,010K": {100, 10240},
	} {
		if got, err := parseSizes(in); err != nil || !slices.Equal(got, want) {
			t.Errorf("parseSizes(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0", "0x10", "1_000", "0x1K", "16,", "..4", "4..", "64..16", "-4", "16M", "16385K", "1..100000"} {
		if got, err := parseSizes(in); err == nil {
			t.Errorf("parseSizes(%q) = %v, want an error", in, got)
		}
	}
}

// TestBenchUsage checks that bench's synopsis and help name every flag it
// has, and that the usage in the package doc is what 'fae help' prints.
func TestBenchUsage(t *testing.T) {
	new(benchArgs).flags().VisitAll(func(f *flag.Flag) {
		if !strings.Contains(benchSynopsis, "[--"+f.Name) {
			t.Errorf("the synopsis of bench lacks --%s", f.Name)
		}
		if !strings.Contains(benchHelp, "\n  --"+f.Name+" ") {
			t.Errorf("the help of bench lacks --%s", f.Name)
		}
	})
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	for i := range commands {
		if line := "//\t" + synopsis(&commands[i]) + "\n"; !strings.Contains(string(src), line) {
			t.Errorf("the package doc lacks the usage line %q", line)
		}
	}
}
