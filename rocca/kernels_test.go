package rocca

import (
	"bytes"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// withKernel runs f with one AES kernel selected, which selects the ROCCA-S
// kernels that go with it.
func withKernel(name string, f func()) {
	impl.Select("aes", name)
	defer impl.Reset("aes")
	f()
}

// TestKernelsAgree compares every kernel with the portable code through
// Seal and Open: message and AD lengths 0..300 byte by byte, large and
// ragged sizes, unaligned buffers.
func TestKernelsAgree(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	buf := make([]byte, 1<<17)
	rand.Read(buf)
	var lengths []int
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 511, 512, 513, 32*7*9, 32*7*9+31, 4096+7, 16384, 65536+13, 1<<17-9)
	if testing.Short() {
		lengths = lengths[:80]
	}
	key, nonce := make([]byte, KeySize), make([]byte, NonceSize)
	for _, kernel := range impl.List("aes") {
		t.Run(kernel, func(t *testing.T) {
			for _, n := range lengths {
				rand.Read(key)
				rand.Read(nonce)
				s := r.IntN(7)
				pt := buf[s : s+n]
				ad := buf[len(buf)-n:]
				if r.IntN(2) == 0 {
					ad = ad[:r.IntN(n+1)]
				}
				a, _ := New(key)
				var want, got []byte
				withKernel("generic", func() { want = a.Seal(nil, nonce, pt, ad) })
				withKernel(kernel, func() { got = a.Seal(nil, nonce, pt, ad) })
				if !bytes.Equal(got, want) {
					t.Fatalf("msg %d, ad %d: Seal differs from generic", n, len(ad))
				}
				withKernel(kernel, func() {
					if p, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(p, pt) {
						t.Fatalf("msg %d, ad %d: Open of the generic output failed: %v", n, len(ad), err)
					}
				})
			}
		})
	}
}

// TestKernelsState runs the state-level kernels from random states over 1
// to 30 blocks, which takes every exit of the assembly's seven-round loop,
// and compares state and output with the portable code's; and the
// initialisation and finalisation.
func TestKernelsState(t *testing.T) {
	src := make([]byte, 30*blockSize)
	var key [KeySize]byte
	for _, kernel := range impl.List("aes") {
		for n := 1; n <= 30; n++ {
			var s0 state
			for i := range s0 {
				rand.Read(s0[i][:])
			}
			rand.Read(src)
			rand.Read(key[:])
			in := src[:n*blockSize]
			type result struct {
				s   state
				out []byte
				tag [TagSize]byte
			}
			run := func(name string) (r [5]result) {
				withKernel(name, func() {
					for i := range r {
						r[i].s = s0
						r[i].out = make([]byte, len(in))
					}
					r[0].s.absorb(in)
					r[1].s.encrypt(r[1].out, in)
					r[2].s.decrypt(r[2].out, in)
					r[3].s.init(&key, in[:NonceSize])
					r[4].tag = r[4].s.finalize(uint64(n)<<58|uint64(n), uint64(n)<<61|7)
				})
				return r
			}
			want, got := run("generic"), run(kernel)
			for i, name := range []string{"absorb", "encrypt", "decrypt", "init", "finalize"} {
				if got[i].s != want[i].s || !bytes.Equal(got[i].out, want[i].out) || got[i].tag != want[i].tag {
					t.Errorf("%s: %s with %d blocks differs from generic", kernel, name, n)
				}
			}
		}
	}
}
