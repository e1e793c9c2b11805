package gpu

import (
	"math"
	"testing"

	"github.com/faelabs/fae/internal/ocbmode"
)

// TestModeLimits checks that the GPU's AEADs take exactly the lengths the
// CPU packages take, at the edges of RAOCB's limits (internal/ocbmode, which
// package raocb checks) and past the 2^32 blocks of OCB's kernels, where
// OCB3 has no limit and package ocb takes the input. It checks lengths, not
// 16 GiB buffers.
func TestModeLimits(t *testing.T) {
	if math.MaxInt == math.MaxInt32 {
		t.Skip("the limits lie past a 32-bit int")
	}
	key := make([]byte, 16)
	o, err := newOCB(nil, key, config{tables: true})
	if err != nil {
		t.Fatal(err)
	}
	ra, err := newRAOCB(nil, key, config{tables: true})
	if err != nil {
		t.Fatal(err)
	}
	const g = 16 << 30 // 2^30 blocks
	for _, n64 := range []uint64{0, 1, g - 65, g - 64, g - 63, g - 16, g - 15, g - 1, g, g + 1, 1 << 36, 1<<36 + 15, 1 << 40} {
		for _, ad64 := range []uint64{0, g - 17, g - 16, g - 15, g - 1, g, g + 1, 1 << 36, 1 << 40} {
			n, ad := int(n64), int(ad64)
			if got, want := ra.(*aead).fits(n, ad), ocbmode.Fits(n, ad); got != want {
				t.Errorf("RAOCB: message of %d bytes, AD of %d: takes %v, package raocb %v", n, ad, got, want)
			}
			if ra.(*aead).fits(n, ad) && !ra.(*aead).onDevice(n, ad) {
				t.Errorf("RAOCB: message of %d bytes, AD of %d: not on the device", n, ad)
			}
			if !o.(*aead).fits(n, ad) {
				t.Errorf("OCB: message of %d bytes, AD of %d: refused, package ocb takes it", n, ad)
			}
			// The kernels number blocks in 32 bits; longer input runs on
			// package ocb.
			if got, want := o.(*aead).onDevice(n, ad), n64 < 1<<36 && ad64 < 1<<36; got != want {
				t.Errorf("OCB: message of %d bytes, AD of %d: on the device %v, want %v", n, ad, got, want)
			}
		}
	}
}
