// Package impltest runs tests on every path through fae's kernels
// (internal/impl): each kernel of a package, and the portable code it falls
// back to.
//
// A package's tests say once which package's kernels they exercise and, where
// that package's portable code calls another package's kernels (a mode over
// the AES engine), that engine:
//
//	var paths = impltest.Of("ocb", "aes")
//
// and run each test on every path:
//
//	paths.Run(t, func(t *testing.T) { ... })
//
// and each differential test on every path but the portable code itself,
// which computes the reference:
//
//	paths.Compare(t, func() { want = ... }, func(t *testing.T) { ... })
package impltest

import (
	"strings"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// Paths are the paths through one package: each of its kernels alone, with
// its engines on all their kernels (the fastest runs, as in production); then
// its portable code, "generic", over the engines' fastest kernels (a CPU
// without the package's kernels, such as AES-NI without AVX for OCB3) and over
// their portable code (a CPU without any). The engines' other kernels are
// their own tests' business.
type Paths struct {
	pkg     string
	engines []string
}

// Of returns the paths of pkg, whose portable code runs on the kernels of
// engines.
func Of(pkg string, engines ...string) Paths { return Paths{pkg, engines} }

// A path is a name and the selection of kernels it stands for.
type path struct {
	name string
	sel  map[string]string // package to kernel, "" for all of its kernels
}

// apply selects p's kernels in the package and its engines.
func (p path) apply() {
	for pkg, k := range p.sel {
		if k == "" {
			impl.Reset(pkg)
		} else {
			impl.Select(pkg, k)
		}
	}
}

// paths returns the paths Run takes, and with crossed set the pairs of each
// kernel with the engines' portable code ("vaes512/aes=generic"), which no
// CPU has but which kernels that take only what every engine kernel provides
// (a mode's fused kernels, AES round keys) must run all the same.
func (p Paths) paths(crossed bool) []path {
	sel := func(k, engines string) map[string]string {
		m := map[string]string{p.pkg: k}
		for _, e := range p.engines {
			m[e] = engines
		}
		return m
	}
	var fastest, generic []string
	for _, e := range p.engines {
		if l := impl.List(e); len(l) > 0 {
			fastest = append(fastest, e+"="+l[0])
		}
		generic = append(generic, e+"=generic")
	}
	var ps []path
	for _, k := range impl.List(p.pkg) {
		ps = append(ps, path{k, sel(k, "")})
	}
	if len(fastest) > 0 {
		ps = append(ps, path{"generic/" + strings.Join(fastest, ","), sel("generic", "")})
	}
	if crossed && len(generic) > 0 {
		for _, k := range impl.List(p.pkg) {
			ps = append(ps, path{k + "/" + strings.Join(generic, ","), sel(k, "generic")})
		}
	}
	if generic == nil {
		return append(ps, path{"generic", sel("generic", "")})
	}
	return append(ps, path{"generic/" + strings.Join(generic, ","), sel("generic", "generic")})
}

// Run runs f as a subtest on each path. The subtests are named after pkg's
// kernels, and "generic/aes=vaes512" and "generic/aes=generic" for pkg's
// portable code over engine "aes" (plain "generic" without engines). They
// must not run in parallel with other tests that select kernels.
func (p Paths) Run(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	p.Each(func(name string) { t.Run(name, f) })
}

// Each calls f once on each path, with the path's name as in Run; it serves
// fuzz targets and benchmarks. Afterwards every kernel is as it was.
func (p Paths) Each(f func(name string)) {
	defer impl.Save()()
	for _, q := range p.paths(false) {
		q.apply()
		f(q.name)
	}
}

// Compare runs a differential test: ref, with every package on its portable
// code, computes what f compares with (nil where f computes it itself); f
// runs as a subtest on each path but the last, the portable code itself,
// and on each kernel over the engines' portable code ("vaes512/aes=generic").
// Where only the portable code runs (the purego tag, or a CPU without
// kernels), neither does.
func (p Paths) Compare(t *testing.T, ref func(), f func(t *testing.T)) {
	t.Helper()
	ps := p.paths(true)
	ps = ps[:len(ps)-1]
	if len(ps) == 0 {
		t.Skip("no kernels to compare with the portable code")
	}
	if ref != nil {
		Generic(ref)
	}
	defer impl.Save()()
	for _, q := range ps {
		q.apply()
		t.Run(q.name, f)
	}
}

// RunAll runs f as two subtests, for tests of many packages at once, whose
// own tests take the paths between: "default", with every kernel enabled as
// in production, and "generic", with every package on its portable code;
// only the latter where this CPU (or the purego tag) leaves no kernel.
func RunAll(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	for _, pkg := range impl.Packages() {
		if len(impl.List(pkg)) > 0 {
			t.Run("default", f)
			break
		}
	}
	Generic(func() { t.Run("generic", f) })
}

// Generic runs f with every package on its portable code, the reference of
// differential tests, and then gives every kernel back its state.
func Generic(f func()) {
	defer impl.Save()()
	for _, pkg := range impl.Packages() {
		impl.Select(pkg, "generic")
	}
	f()
}
