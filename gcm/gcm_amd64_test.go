//go:build !purego

package gcm

import (
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// TestDispatch checks that dispatch prefers the kernels in their order of
// registration, fastest first: with the kernels from the i-th on enabled,
// the i-th runs; so aesni-sse runs only where aesni cannot (no AVX).
func TestDispatch(t *testing.T) {
	families := map[string]struct {
		k       kernel
		enabled *bool
	}{
		"vaes512":   {vaes512Kernel, &useVAES512},
		"vaes256":   {vaes256Kernel, &useVAES256},
		"aesni":     {aesniKernel, &useAESNI},
		"aesni-sse": {sseKernel, &useSSE},
	}
	defer impl.Save()()
	names := impl.List("gcm")
	for i, name := range names {
		impl.Reset("gcm")
		for _, faster := range names[:i] {
			*families[faster].enabled = false
		}
		if got, want := chooseKernel(), families[name].k; got != want {
			t.Errorf("kernels %v enabled: family %d runs, want %s's, %d", names[i:], got, name, want)
		}
	}
}
