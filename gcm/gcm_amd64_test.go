//go:build !purego

package gcm

import (
	"encoding/binary"
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

// TestKernelKey checks the powers of H, and their Karatsuba operands, that
// each family's init leaves in kernelKey, as many as the family takes (all,
// on VAES512, from its own init), against the portable multiplication.
func TestKernelKey(t *testing.T) {
	r := newRand(6)
	paths.Run(t, func(t *testing.T) {
		for range 5 {
			a, _ := New(randBytes(r, 16))
			if a.kern == genericKernel {
				return
			}
			h := a.h.block()
			p := h
			for k := 1; k <= powers[a.kern]; k++ {
				lo, hi := kernelH(p)
				var want [16]byte
				binary.LittleEndian.PutUint64(want[:], lo)
				binary.LittleEndian.PutUint64(want[8:], hi)
				if a.key[numPowers-k] != want {
					t.Fatalf("H^%d is %x, want %x", k, a.key[numPowers-k], want)
				}
				binary.LittleEndian.PutUint64(want[:], lo^hi)
				binary.LittleEndian.PutUint64(want[8:], lo^hi)
				if k <= karaPowers && a.key[numPowers+karaPowers-k] != want {
					t.Fatalf("H^%d's Karatsuba operand is %x, want %x", k, a.key[numPowers+karaPowers-k], want)
				}
				p = mulBlocks(p, h)
			}
		}
	})
}
