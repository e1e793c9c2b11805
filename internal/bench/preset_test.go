package bench

import (
	"regexp"
	"strings"
	"testing"
)

func TestPresets(t *testing.T) {
	p, ok := LookupPreset("rocca")
	if !ok || len(p.Sizes) != 1 || p.Sizes[0] != 16384 {
		t.Fatalf("rocca preset = %+v, %v", p, ok)
	}
	if _, ok := LookupPreset("nope"); ok {
		t.Error("unknown preset found")
	}
	r := &Report{
		Machine: Machine{CPU: "test CPU", GHz: 3},
		Results: []Result{
			{Alg: "rocca-s", Impl: "fae", Op: "seal", Bytes: 16384, CPB: 0.15, GBps: 20},
			{Alg: "rocca-s", Impl: "fae", Op: "open", Bytes: 16384, CPB: 0.2, GBps: 15},
			{Alg: "rocca-s", Impl: "fae", Op: "seal", Bytes: 4096, CPB: 0.3, GBps: 10},
			{Alg: "aes-128-ocb3", Impl: "openssl", Op: "seal", Bytes: 16384, CPB: 0.4, GBps: 7.5},
			{Alg: "rocca-s", Impl: "fae", Op: "seal", Bytes: 16384, Batch: 64, CPB: 0.14, GBps: 21},
		},
	}
	var b strings.Builder
	if err := r.WritePreset(&b, p, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"rocca-s", "20000000000", "5.09", "aes-128-ocb3", "7.50", "8.93"} {
		if !strings.Contains(out, want) {
			t.Errorf("preset table lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\nrocca-s +fae x64 +21000000000 +21.00 +0.140 +-\n`).MatchString(out) {
		t.Errorf("preset table lacks the batched row, without a published figure:\n%s", out)
	}
	if strings.Count(out, "\nrocca-s ") != 2 {
		t.Errorf("preset table has other rows than seal at 16384:\n%s", out)
	}
}
