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
	for _, k := range impl.List(p.pkg) {
		p.reset()
		impl.Select(p.pkg, k)
		f(k)
	}
	var fastest, generic []string
	for _, e := range p.engines {
		if l := impl.List(e); len(l) > 0 {
			fastest = append(fastest, e+"="+l[0])
		}
		generic = append(generic, e+"=generic")
	}
	if len(fastest) > 0 {
		p.reset()
		impl.Select(p.pkg, "generic")
		f("generic/" + strings.Join(fastest, ","))
	}
	p.reset()
	impl.Select(p.pkg, "generic")
	for _, e := range p.engines {
		impl.Select(e, "generic")
	}
	if len(generic) > 0 {
		f("generic/" + strings.Join(generic, ","))
	} else {
		f("generic")
	}
}

// Crossed calls f once with each kernel of the package over its engines'
// portable code, named as "vaes512/aes=generic": pairs no CPU has, which
// kernels that take only what every engine kernel provides (a mode's fused
// kernels, AES round keys) must run all the same. Differential tests take
// them; Run does not. Without engines there are none.
func (p Paths) Crossed(f func(name string)) {
	if len(p.engines) == 0 {
		return
	}
	defer impl.Save()()
	var generic []string
	for _, e := range p.engines {
		generic = append(generic, e+"=generic")
	}
	for _, k := range impl.List(p.pkg) {
		impl.Select(p.pkg, k)
		for _, e := range p.engines {
			impl.Select(e, "generic")
		}
		f(k + "/" + strings.Join(generic, ","))
	}
}

// reset enables every kernel of the package and its engines.
func (p Paths) reset() {
	impl.Reset(p.pkg)
	for _, e := range p.engines {
		impl.Reset(e)
	}
}

// RunAll runs f as two subtests, for tests of many packages at once, whose
// own tests take the paths between: "default", with every kernel enabled as
// in production, and "generic", with every package on its portable code.
func RunAll(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	t.Run("default", f)
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
