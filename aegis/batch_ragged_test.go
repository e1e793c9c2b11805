package aegis

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/faelabs/fae/batch"
)

// TestBatchRagged runs groups of four messages whose texts end blocks
// apart, the lane kernels' ragged path (each lane its own length), against
// single calls: block counts 0 to 3 apart, whole and partial last blocks,
// both tag sizes, sealing and opening, and opening with every set of the
// lanes' tags changed (exact OK flags, the failed outputs zeroed).
func TestBatchRagged(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			if c.v.lanes > 1 {
				continue
			}
			r := c.v.rate()
			for _, tagSize := range []int{16, 32} {
				t.Run(fmt.Sprintf("%s-tag%d", c.v.name, tagSize), func(t *testing.T) {
					key := make([]byte, c.v.keySize)
					key[0] = 0x5a
					a, err := c.new(key, tagSize)
					if err != nil {
						t.Fatal(err)
					}
					for _, base := range []int{0, 1, r, 3*r + 5} {
						for _, blocks := range [][4]int{{0, 0, 0, 1}, {0, 1, 2, 3}, {3, 2, 1, 0}, {0, 3, 0, 3}, {1, 0, 0, 0}, {0, 9, 2, 20}} {
							for _, tails := range [][4]int{{0, 0, 0, 0}, {5, 0, r - 1, 1}, {1, 1, 1, 1}} {
								var lengths [4]int
								for i := range lengths {
									lengths[i] = base + blocks[i]*r + tails[i]
								}
								testRaggedGroup(t, a, lengths, base%3*7)
							}
						}
					}
				})
			}
		}
	})
}

// testRaggedGroup seals and opens a batch of four messages of the given
// text lengths and adLen bytes of associated data each, against Seal, and
// opens it with each set of tags changed.
func testRaggedGroup(t *testing.T, a *AEAD, lengths [4]int, adLen int) {
	t.Helper()
	var pts, cts, nonces, ads [4][]byte
	for i, n := range lengths {
		nonces[i] = bytes.Repeat([]byte{byte(i + 1)}, a.NonceSize())
		ads[i] = bytes.Repeat([]byte{byte(n)}, adLen)
		pts[i] = make([]byte, n)
		for k := range pts[i] {
			pts[i][k] = byte(k*7 + i)
		}
		cts[i] = a.Seal(nil, nonces[i], pts[i], ads[i])
	}
	var b [4]batch.Message
	for i := range b {
		b[i] = batch.Message{Nonce: nonces[i], AD: ads[i], In: pts[i], Out: make([]byte, len(cts[i]))}
	}
	a.SealBatch(b[:])
	for i := range b {
		if !bytes.Equal(b[i].Out, cts[i]) {
			t.Fatalf("lengths %v, ad %d: SealBatch's message %d differs from Seal's", lengths, adLen, i)
		}
	}
	for bad := range 16 {
		for i := range b {
			in := bytes.Clone(cts[i])
			if bad>>i&1 != 0 {
				in[len(in)-1-i] ^= 0x80
			}
			b[i] = batch.Message{Nonce: nonces[i], AD: ads[i], In: in, Out: bytes.Repeat([]byte{0xee}, len(pts[i]))}
		}
		if ok := a.OpenBatch(b[:]); ok != (bad == 0) {
			t.Fatalf("lengths %v, ad %d, tags changed %04b: OpenBatch returned %v", lengths, adLen, bad, ok)
		}
		for i := range b {
			want := pts[i]
			if bad>>i&1 != 0 {
				want = make([]byte, len(pts[i]))
			}
			if b[i].OK != (bad>>i&1 == 0) || !bytes.Equal(b[i].Out, want) {
				t.Fatalf("lengths %v, ad %d, tags changed %04b: message %d: OK %v, output right %v", lengths, adLen, bad, i, b[i].OK, bytes.Equal(b[i].Out, want))
			}
		}
	}
}
