package gcm

import (
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// paths are the paths through the package: each gcm kernel over the AES
// engine's fastest kernel, then the portable code over the engine's fastest
// kernel and over its portable code. (What issue 14's impltest.Of("gcm",
// "aes") gives; this stands in for it until then.)
var paths gcmPaths

type gcmPaths struct{}

// Run runs f as a subtest on each path.
func (gcmPaths) Run(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	gcmPaths{}.Each(func(name string) { t.Run(name, f) })
}

// Each calls f on each path, with the path's name; afterwards every kernel
// is enabled again.
func (gcmPaths) Each(f func(name string)) {
	defer impl.Reset("aes")
	defer impl.Reset("gcm")
	for _, k := range impl.List("gcm") {
		impl.Select("gcm", k)
		f(k)
	}
	impl.Select("gcm", "generic")
	if l := impl.List("aes"); len(l) > 0 {
		f("generic/aes=" + l[0])
	}
	impl.Select("aes", "generic")
	f("generic/aes=generic")
}
