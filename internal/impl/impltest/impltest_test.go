package impltest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// TestPaths checks the paths of a mode with two kernels, one of which this
// "CPU" lacks, over an engine with two kernels: which kernels each path
// enables, and that everything is as before afterwards.
func TestPaths(t *testing.T) {
	var m1, m2, m3, e1, e2 = true, false, true, true, true
	impl.Register("impltest-mode", "wide", &m1)
	impl.Register("impltest-mode", "absent", &m2)
	impl.Register("impltest-mode", "narrow", &m3)
	impl.Register("impltest-engine", "fast", &e1)
	impl.Register("impltest-engine", "slow", &e2)
	impl.Select("impltest-engine", "slow")

	var got []string
	state := func() string { return fmt.Sprint(m1, m2, m3, e1, e2) }
	Of("impltest-mode", "impltest-engine").Each(func(name string) { got = append(got, name+" "+state()) })
	want := []string{
		"wide true false false true true",
		"narrow false false true true true",
		"generic/impltest-engine=fast false false false true true",
		"generic/impltest-engine=generic false false false false false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("paths:\n%q\nwant\n%q", got, want)
	}
	if s := state(); s != "true false true false true" {
		t.Errorf("after Each: %s", s)
	}

	got = nil
	Of("impltest-engine").Each(func(name string) { got = append(got, name) })
	if !slices.Equal(got, []string{"fast", "slow", "generic"}) {
		t.Errorf("paths without engines: %q", got)
	}

	Generic(func() {
		if s := state(); s != "false false false false false" {
			t.Errorf("in Generic: %s", s)
		}
	})
	got = nil
	var ref string
	Of("impltest-mode", "impltest-engine").Compare(t, func() { ref = state() }, func(t *testing.T) {
		got = append(got, t.Name()+" "+state())
	})
	want = []string{
		"TestPaths/wide true false false true true",
		"TestPaths/narrow false false true true true",
		"TestPaths/generic/impltest-engine=fast false false false true true",
		"TestPaths/wide/impltest-engine=generic true false false false false",
		"TestPaths/narrow/impltest-engine=generic false false true false false",
	}
	if ref != "false false false false false" || !slices.Equal(got, want) {
		t.Errorf("Compare: reference on %s, paths\n%q\nwant\n%q", ref, got, want)
	}
	if s := state(); s != "true false true false true" {
		t.Errorf("after Compare: %s", s)
	}

	got = nil
	RunAll(t, func(t *testing.T) { got = append(got, t.Name()+" "+state()) })
	want = []string{
		"TestPaths/default true false true false true",
		"TestPaths/generic false false false false false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("RunAll:\n%q\nwant\n%q", got, want)
	}
	if s := state(); s != "true false true false true" {
		t.Errorf("after Generic: %s", s)
	}
}
