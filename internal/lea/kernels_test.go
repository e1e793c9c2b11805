package lea

import (
	"bytes"
	"crypto/rand"
	"math"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/impl/impltest"
)

// paths are LEA's kernels and the generic code.
var paths = impltest.Of("lea")

// ops are the operations every kernel has, each with the generic code and
// the active kernel.
var ops = []struct {
	name            string
	generic, active func(c *Block, dst, src []byte, hi, lo uint64)
}{
	{"encrypt", func(c *Block, dst, src []byte, _, _ uint64) { encryptBlocksGeneric(c, dst, src) },
		func(c *Block, dst, src []byte, _, _ uint64) { c.encryptBlocks(dst, src) }},
	{"decrypt", func(c *Block, dst, src []byte, _, _ uint64) { decryptBlocksGeneric(c, dst, src) },
		func(c *Block, dst, src []byte, _, _ uint64) { c.decryptBlocks(dst, src) }},
	{"ctr", ctrBlocksGeneric, (*Block).ctrBlocks},
}

// TestKernelsAgree compares every path with the generic code on random
// keys of each size and 1..300 blocks: encryption, decryption and the CTR
// kernel (with counters about to wrap their low half), out of place at odd
// addresses and in place.
func TestKernelsAgree(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	maxBlocks := 300
	if testing.Short() {
		maxBlocks = 70
	}
	paths.Compare(t, nil, func(t *testing.T) {
		for _, keyLen := range []int{16, 24, 32} {
			for n := 1; n <= maxBlocks; n++ {
				key := make([]byte, keyLen)
				rand.Read(key)
				c, err := New(key)
				if err != nil {
					t.Fatal(err)
				}
				s := r.IntN(16)
				src := make([]byte, s+n*BlockSize)[s:]
				rand.Read(src)
				hi, lo := r.Uint64(), r.Uint64()
				if r.IntN(4) == 0 {
					lo = math.MaxUint64 - uint64(n) + 1 // the last block has lo = 2^64-1
				}
				for _, o := range ops {
					want := make([]byte, len(src))
					o.generic(c, want, src, hi, lo)
					got := make([]byte, len(src)+1)[1:]
					o.active(c, got, src, hi, lo)
					if !bytes.Equal(got, want) {
						t.Fatalf("key %d, %d blocks, %s: output differs from generic", keyLen, n, o.name)
					}
					copy(got, src)
					o.active(c, got, got, hi, lo)
					if !bytes.Equal(got, want) {
						t.Fatalf("key %d, %d blocks, %s: in place, output differs from generic", keyLen, n, o.name)
					}
				}
			}
		}
	})
}

// TestKernelsRoundTrip decrypts with every kernel what each encrypted.
func TestKernelsRoundTrip(t *testing.T) {
	key := make([]byte, 32)
	rand.Read(key)
	c, _ := New(key)
	pt := make([]byte, 1000*BlockSize)
	rand.Read(pt)
	defer impl.Reset("lea")
	kernels := append(impl.List("lea"), "generic")
	for _, enc := range kernels {
		ct := make([]byte, len(pt))
		impl.Select("lea", enc)
		c.EncryptBlocks(ct, pt)
		for _, dec := range kernels {
			got := make([]byte, len(ct))
			impl.Select("lea", dec)
			c.DecryptBlocks(got, ct)
			if !bytes.Equal(got, pt) {
				t.Errorf("encrypted with %s, decrypted with %s: wrong plaintext", enc, dec)
			}
		}
	}
}
