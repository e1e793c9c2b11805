//go:build !purego

package aegis

import (
	"bytes"
	mrand "math/rand/v2"
	"testing"
	"unsafe"

	"github.com/faelabs/fae/internal/impl"
)

// TestJobLayout checks the job's field offsets against those the
// generator (_gen_arm64) writes into the assembly.
func TestJobLayout(t *testing.T) {
	var j job
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"s", unsafe.Offsetof(j.s), 0}, {"ws", unsafe.Offsetof(j.ws), 8}, {"off", unsafe.Offsetof(j.off), 16},
		{"ctx", unsafe.Offsetof(j.ctx), 24}, {"key", unsafe.Offsetof(j.key), 32}, {"nonce", unsafe.Offsetof(j.nonce), 40},
		{"src", unsafe.Offsetof(j.src), 48}, {"dst", unsafe.Offsetof(j.dst), 56}, {"n", unsafe.Offsetof(j.n), 64},
		{"step", unsafe.Offsetof(j.step), 72}, {"ad", unsafe.Offsetof(j.ad), 80}, {"adN", unsafe.Offsetof(j.adN), 88},
		{"adLast", unsafe.Offsetof(j.adLast), 96}, {"last", unsafe.Offsetof(j.last), 104}, {"mask", unsafe.Offsetof(j.mask), 112},
		{"tags", unsafe.Offsetof(j.tags), 120}, {"tagSize", unsafe.Offsetof(j.tagSize), 128}, {"u", unsafe.Offsetof(j.u), 136},
	} {
		if f.got != f.want {
			t.Errorf("job.%s at offset %d, the kernels read it at %d", f.name, f.got, f.want)
		}
	}
}

// TestBlockOpsAgree runs the block operations of the kernels on every block
// count up to three turns of their loops (six blocks a turn), so that a loop
// ends after each block of a turn, against the portable code: absorb, enc
// and dec, apart and in place, and the same block repeated (step 0).
func TestBlockOpsAgree(t *testing.T) {
	if !impl.Select("aes", "armv8") {
		t.Skip("no ARMv8 AES")
	}
	impl.Reset("aes")
	r := mrand.NewChaCha8([32]byte{8})
	for _, c := range allVariants {
		rate := c.v.rate()
		for _, op := range []int{opAbsorb, opEnc, opDec} {
			for n := 1; n <= 19; n++ {
				for _, mode := range []string{"apart", "in place", "step 0"} {
					var want, got state
					want.v = c.v
					copy(want.s[:], randBytes(r, maxState))
					got = want
					src := randBytes(r, n*rate)
					step := rate
					if mode == "step 0" {
						step = 0
					}
					wantDst, gotDst := make([]byte, len(src)), bytes.Clone(src)
					if op == opAbsorb {
						wantDst, gotDst = nil, nil
					}
					gotSrc := src
					if mode == "in place" && op != opAbsorb {
						gotSrc = gotDst
					}
					withKernel("generic", func() { want.blocks(op, wantDst, src, n, step) })
					withKernel("armv8", func() { got.blocks(op, gotDst, gotSrc, n, step) })
					if mode == "step 0" && op != opAbsorb {
						// Every block writes its output at the same place.
						wantDst, gotDst = wantDst[:rate], gotDst[:rate]
					}
					if got.s != want.s || !bytes.Equal(gotDst, wantDst) {
						t.Errorf("%s: op %d, %d blocks, %s: kernel differs from generic", c.v.name, op, n, mode)
					}
				}
			}
		}
	}
}
