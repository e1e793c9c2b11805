package aegis

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs guard.TestAEAD on every path, variant and tag size
// (with -short, the 32-byte tag only), with the key against a guard page
// too: the AVX-512 kernels read and write the partial last blocks of
// associated data and message in place through masks, and must touch
// nothing past the buffers.
func TestGuardPages(t *testing.T) {
	tagSizes := []int{16, 32}
	if testing.Short() {
		tagSizes = tagSizes[1:]
	}
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			for _, tagSize := range tagSizes {
				t.Run(c.v.name+"-tag"+strconv.Itoa(tagSize), func(t *testing.T) {
					guard.TestNewAEAD(t, c.v.keySize, 0, func(key []byte) (*AEAD, error) { return c.new(key, tagSize) })
				})
			}
		}
	})
}

// TestBatchGuardPages seals and opens batches of four messages of one
// shape, the batch kernels' lanes, with their tails ragged where the length
// allows (n, n-1, n-2, n-3 bytes) and every buffer against a guard page, at
// one side and then the other, in place and not: the kernels read and write
// each lane's partial blocks through its own masks.
func TestBatchGuardPages(t *testing.T) {
	const k = 4
	lengths := guard.Lengths()
	if testing.Short() {
		lengths = lengths[:100]
	} else {
		lengths = lengths[:301]
	}
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			if c.v.lanes > 1 {
				continue
			}
			a, err := c.new(make([]byte, c.v.keySize), 32)
			if err != nil {
				t.Fatal(err)
			}
			var nonceR, adR, inR, outR [k]*guard.Region
			for i := range k {
				nonceR[i], adR[i], inR[i], outR[i] = guard.New(t, c.v.keySize), guard.New(t, k), guard.New(t, 400), guard.New(t, 400)
			}
			for _, n := range lengths {
				var pts, cts, nonces, ads [k][]byte
				for i := range k {
					l := n
					if n%c.v.rate() >= k {
						l -= i
					}
					nonces[i], ads[i], pts[i] = bytes.Repeat([]byte{byte(i)}, c.v.keySize), make([]byte, 1+i), bytes.Repeat([]byte{byte(n)}, l)
					cts[i] = a.Seal(nil, nonces[i], pts[i], ads[i])
				}
				for _, side := range guard.Sides {
					for _, inPlace := range []bool{false, true} {
						msg := func(i int, in []byte, outLen int) batch.Message {
							m := batch.Message{Nonce: nonceR[i].Copy(nonces[i], side), AD: adR[i].Copy(ads[i], side)}
							if inPlace {
								buf := inR[i].Slice(max(len(in), outLen), side)
								copy(buf, in)
								m.In, m.Out = buf[:len(in)], buf[:outLen]
							} else {
								m.In, m.Out = inR[i].Copy(in, side), outR[i].Slice(outLen, side)
							}
							return m
						}
						var b [k]batch.Message
						err := guard.Fault(func() {
							for i := range b {
								b[i] = msg(i, pts[i], len(cts[i]))
							}
							a.SealBatch(b[:])
							for i := range b {
								if !bytes.Equal(b[i].Out, cts[i]) {
									t.Fatalf("%s: SealBatch, %d bytes, %v, in place %v: message %d differs", c.v.name, n, side, inPlace, i)
								}
							}
							for i := range b {
								b[i] = msg(i, cts[i], len(pts[i]))
							}
							if !a.OpenBatch(b[:]) {
								t.Fatalf("%s: OpenBatch, %d bytes, %v, in place %v: failed", c.v.name, n, side, inPlace)
							}
							for i := range b {
								if !bytes.Equal(b[i].Out, pts[i]) {
									t.Fatalf("%s: OpenBatch, %d bytes, %v, in place %v: message %d differs", c.v.name, n, side, inPlace, i)
								}
							}
						})
						if err != nil {
							t.Fatalf("%s: %d bytes, %v, in place %v: %v", c.v.name, n, side, inPlace, err)
						}
					}
				}
			}
		}
	})
}
