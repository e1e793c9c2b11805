// Package impltest runs a test once per kernel of a package.
package impltest

import (
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// Run runs f as a subtest once with each available kernel of pkg selected,
// and once with the portable code ("generic"). Subtests of one Run must not
// be parallel with other tests that use pkg.
func Run(t *testing.T, pkg string, f func(t *testing.T)) {
	t.Helper()
	defer impl.Reset(pkg)
	for _, name := range append(impl.List(pkg), "generic") {
		impl.Select(pkg, name)
		t.Run(name, f)
	}
}
