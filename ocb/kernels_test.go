package ocb

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/words"
	"github.com/faelabs/fae/lea"
)

// newFunc makes an AEAD with the kernels selected now.
type newFunc func(key []byte, nonceSize, tagSize int) (*AEAD, error)

// newLEA is OCB3 over fae's LEA, which runs LEA's fused kernels.
func newLEA(key []byte, nonceSize, tagSize int) (*AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return NewFromBlock(b, nonceSize, tagSize)
}

// newPlainLEA is OCB3 over LEA seen as a plain cipher.Block, one block per
// call: the reference for newLEA.
func newPlainLEA(key []byte, nonceSize, tagSize int) (*AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return NewFromBlock(struct{ cipher.Block }{b}, nonceSize, tagSize)
}

// asAEAD adapts f to aeadtest.Agree.
func asAEAD(f newFunc) aeadtest.NewFunc {
	return func(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) { return f(key, nonceSize, tagSize) }
}

// paths are OCB3-AES's: ocb's kernels, and its generic code over the AES
// engine. Over fae's LEA, LEA's fused kernels run (package "lea").
var (
	paths    = impltest.Of("ocb", "aes")
	leaPaths = impltest.Of("lea")
)

// TestKernelsAgree compares every path, and each kernel over the generic
// AES code, with the generic code (aeadtest.Agree).
func TestKernelsAgree(t *testing.T) {
	aeadtest.Agree(t, paths, []int{16, 24, 32}, agreeLengths, agreeSizes, asAEAD(NewWithSizes), asAEAD(NewWithSizes))
}

// TestLEAKernelsAgree compares OCB3 over fae's LEA on every path of LEA's
// kernels (the fused ones included) with OCB3 over LEA as a plain
// cipher.Block on the generic code.
func TestLEAKernelsAgree(t *testing.T) {
	aeadtest.Agree(t, leaPaths, []int{16, 24, 32}, agreeLengths, agreeSizes, asAEAD(newLEA), asAEAD(newPlainLEA))
}

// agreeLengths are the message lengths past 300 that TestKernelsAgree tries:
// around the kernels' 64-block groups and ragged large ones.
var agreeLengths = []int{511, 512, 513, 1023, 1500, (64+32+17)*16 + 3, 4096 + 7, 16384, 65536 + 7, 1<<17 - 9}

// agreeSizes picks any nonce and tag sizes.
func agreeSizes(r *mrand.Rand, _ int) (nonceSize, tagSize int) {
	return MinNonceSize + r.IntN(MaxNonceSize-MinNonceSize+1), MinTagSize + r.IntN(MaxTagSize-MinTagSize+1)
}

// TestBlocksFromAnyIndex runs the block loop from indices that are not
// multiples of 32 and across 2^32, where kernels hand one block to the
// generic code, and checks the offsets against the direct Gray-code formula;
// over AES and over LEA.
func TestBlocksFromAnyIndex(t *testing.T) {
	t.Run("aes", func(t *testing.T) { paths.Compare(t, nil, func(t *testing.T) { blocksFromAnyIndex(t, NewWithSizes) }) })
	t.Run("lea", func(t *testing.T) { leaPaths.Compare(t, nil, func(t *testing.T) { blocksFromAnyIndex(t, newLEA) }) })
}

func blocksFromAnyIndex(t *testing.T, newAEAD newFunc) {
	key := make([]byte, 16)
	rand.Read(key)
	src := make([]byte, 300*blockSize)
	rand.Read(src)
	a, err := newAEAD(key, NonceSize, TagSize)
	if err != nil {
		t.Fatal(err)
	}
	for _, start := range []uint64{0, 5, 31, 32, 1000, 1<<31 - 64, 1<<32 - 100, 1<<32 - 1, 1<<33 - 64} {
		var raw [blockSize]byte
		rand.Read(raw[:])
		off0 := words.Load(raw[:])
		for _, d := range []direction{encrypt, decrypt, hash} {
			var sumK, sumG words.Block
			offK, offG := ocbmode.OffsetAt(&a.l, off0, start), ocbmode.OffsetAt(&a.l, off0, start)
			dstK, dstG := make([]byte, len(src)), make([]byte, len(src))
			if d == hash {
				dstK, dstG = nil, nil
			}
			a.blocks(d, dstK, src, &offK, &sumK, start)
			a.blocksGeneric(d, dstG, src, &offG, &sumG, start)
			if !bytes.Equal(dstK, dstG) || sumK != sumG || offK != offG {
				t.Fatalf("direction %d from block %d: blocks differs from blocksGeneric", d, start)
			}
			if want := ocbmode.OffsetAt(&a.l, off0, start+uint64(len(src)/blockSize)); offK != want {
				t.Fatalf("offset after block %d differs from offsetAt", start+300)
			}
		}
	}
}

// TestMessageKernels compares Seal and Open on every path with the portable
// code where the whole-message kernels change course: no whole block, a
// tail of 1 to 31 blocks or none, after no group or after several, a final
// partial block or none, lengths up to the kernels' bound and past it (the
// general path); every key, nonce and tag size, every shift into Stretch
// (the nonce's 6 bottom bits), AD of every shape, in place and not, and a
// forged tag, which must leave no plaintext behind.
func TestMessageKernels(t *testing.T) {
	blocks := []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 28, 29, 31, 32, 33, 63, 64, 65, 96, 100, 1024}
	if testing.Short() {
		blocks = blocks[:20]
	}
	var lengths []int
	for _, b := range blocks {
		for _, r := range []int{0, 1, 15} {
			lengths = append(lengths, b*blockSize+r)
		}
	}
	span := maxKernelBlocks * blockSize
	if !testing.Short() {
		lengths = append(lengths, span-1, span, span+1)
	}
	adSizes := []int{0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 100, 1000}
	buf := make([]byte, span+256)
	rand.Read(buf)
	type testCase struct {
		key, nonce, pt, ad, want []byte
		tagSize                  int
	}
	var cases []testCase
	paths.Compare(t, func() {
		k := 0
		for i, n := range lengths {
			for _, keyLen := range []int{16, 24, 32} {
				nonceSize, tagSize := 1+k%15, 8+k%9
				c := testCase{key: buf[i : i+keyLen], pt: buf[i+1 : i+1+n], tagSize: tagSize}
				c.nonce = bytes.Clone(buf[len(buf)-nonceSize:])
				c.nonce[nonceSize-1] = byte(k*5%64) | byte(k)<<6
				c.ad = buf[len(buf)/2:][:adSizes[k%len(adSizes)]]
				a, _ := NewWithSizes(c.key, nonceSize, tagSize)
				c.want = a.Seal(nil, c.nonce, c.pt, c.ad)
				cases = append(cases, c)
				k++
			}
		}
	}, func(t *testing.T) {
		for _, c := range cases {
			a, err := NewWithSizes(c.key, len(c.nonce), c.tagSize)
			if err != nil {
				t.Fatal(err)
			}
			aeadtest.CheckMessage(t, fmt.Sprintf("key %d, msg %d, ad %d, nonce %x, tag %d", len(c.key), len(c.pt), len(c.ad), c.nonce, c.tagSize), a, c.nonce, c.ad, c.pt, c.want)
		}
	})
}
