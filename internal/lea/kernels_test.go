package lea

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
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
// kernel (with counters about to wrap their low half, or its low 32 bits
// within the call), out of place at odd addresses and in place.
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
				switch r.IntN(4) {
				case 0:
					lo = math.MaxUint64 - uint64(n) + 1 // the last block has lo = 2^64-1
				case 1:
					lo = lo&^math.MaxUint32 | (math.MaxUint32 - uint64(r.IntN(n))) // the low word wraps within the call
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

// TestCTRWrap compares CTRBlocks with crypto/cipher's CTR on every path
// where the counter's low 32 and 64 bits wrap (the caller of CTRBlocks
// carries into hi).
func TestCTRWrap(t *testing.T) {
	c, _ := New(make([]byte, 16))
	src := make([]byte, 60*BlockSize)
	rand.Read(src)
	paths.Compare(t, nil, func(t *testing.T) {
		for _, lo := range []uint64{math.MaxUint32 - 6, math.MaxUint64 - 6} {
			const hi = 0x0123456789abcdef
			iv := binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, hi), lo)
			want := make([]byte, len(src))
			cipher.NewCTR(c, iv).XORKeyStream(want, src)
			got := make([]byte, len(src))
			k, carry := len(src), uint64(0) // bytes before lo wraps
			if lo > math.MaxUint32 {
				k, carry = 7*BlockSize, 1
			}
			c.CTRBlocks(got[:k], src[:k], hi, lo)
			c.CTRBlocks(got[k:], src[k:], hi+carry, lo+uint64(k/BlockSize))
			if !bytes.Equal(got, want) {
				t.Errorf("lo %#x: CTRBlocks differs from crypto/cipher", lo)
			}
		}
	})
}
