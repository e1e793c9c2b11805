package aeadtest

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/guard"
)

// TestBatchLanes is for AEADs whose batches run messages of one shape side
// by side (batchutil.Lanes), with blocks of rate bytes. It runs
// TestBatchShapes where the lanes differ: messages of 0 to 300 bytes byte
// by byte, four of a length class at a time with ragged tails, associated
// data of 0 to 100 bytes, batches of 1 to 9 messages that leave lanes
// empty; then all of them in one batch, shuffled (more shapes than wait at
// once); then batches of four messages of one shape, with tails ragged
// where the length allows, every buffer against a guard page. With -short,
// messages up to 100 bytes and every third length of associated data.
func TestBatchLanes(t *testing.T, a batch.AEAD, rate int) {
	most, adStep := 300, 1
	if testing.Short() {
		most, adStep = 100, 3
	}
	var shapes []Shape
	for n := range most + 1 {
		shapes = append(shapes, Shape{Text: n, AD: n / 4 % 101})
	}
	for ad := 0; ad <= 100; ad += adStep {
		shapes = append(shapes, Shape{Text: 64, AD: ad}, Shape{Text: 70, AD: ad})
	}
	for count, k := 1, 0; k < len(shapes); count = count%9 + 1 {
		end := min(k+count, len(shapes))
		TestBatchShapes(t, a, shapes[k:end])
		k = end
	}
	rand.New(newRand()).Shuffle(len(shapes), func(i, j int) { shapes[i], shapes[j] = shapes[j], shapes[i] })
	TestBatchShapes(t, a, shapes)
	testLanesGuard(t, a, rate)
}

// testLanesGuard seals and opens batches of four messages of one shape,
// with tails ragged where the length allows (n, n-1, n-2, n-3 bytes), and
// of four whose texts end blocks apart (n, n-rate-3, n-2*rate-6 and
// n-3*rate-9 bytes, or none), for kernels that take such lanes together;
// associated data of 1 to 4 bytes, every buffer against a guard page, at
// one side and then the other, in place and not: lane kernels read and
// write each lane's partial blocks through its own masks.
func testLanesGuard(t *testing.T, a batch.AEAD, rate int) {
	for _, spread := range []int{1, rate + 3} {
		testLanesGuardSpread(t, a, rate, spread)
	}
}

// testLanesGuardSpread is testLanesGuard's batches of lengths spread bytes
// apart.
func testLanesGuardSpread(t *testing.T, a batch.AEAD, rate, spread int) {
	const k = 4
	most := 300
	if testing.Short() {
		most = 99
	}
	lengths := slices.DeleteFunc(guard.Lengths(), func(n int) bool { return n > most })
	var regions [k]guardRegions
	for i := range regions {
		regions[i] = newGuardRegions(t, a.NonceSize(), k, 400)
	}
	for _, n := range lengths {
		var pts, cts, nonces, ads [k][]byte
		for i := range k {
			l := n
			if spread > 1 || n%rate >= k {
				l = max(n-i*spread, 0)
			}
			nonces[i], ads[i], pts[i] = bytes.Repeat([]byte{byte(i)}, a.NonceSize()), make([]byte, 1+i), bytes.Repeat([]byte{byte(n)}, l)
			cts[i] = a.Seal(nil, nonces[i], pts[i], ads[i])
		}
		for _, side := range guard.Sides {
			for _, inPlace := range []bool{false, true} {
				msg := func(i int, in []byte, outLen int) batch.Message {
					return regions[i].message(side, nonces[i], ads[i], in, outLen, inPlace)
				}
				var b [k]batch.Message
				err := guard.Fault(func() {
					for i := range b {
						b[i] = msg(i, pts[i], len(cts[i]))
					}
					a.SealBatch(b[:])
					for i := range b {
						if !bytes.Equal(b[i].Out, cts[i]) {
							t.Fatalf("SealBatch, %d bytes, %v, in place %v: message %d differs", n, side, inPlace, i)
						}
					}
					for i := range b {
						b[i] = msg(i, cts[i], len(pts[i]))
					}
					if !a.OpenBatch(b[:]) {
						t.Fatalf("OpenBatch, %d bytes, %v, in place %v: failed", n, side, inPlace)
					}
					for i := range b {
						if !bytes.Equal(b[i].Out, pts[i]) {
							t.Fatalf("OpenBatch, %d bytes, %v, in place %v: message %d differs", n, side, inPlace, i)
						}
					}
				})
				if err != nil {
					t.Fatalf("%d bytes, %v, in place %v: %v", n, side, inPlace, err)
				}
			}
		}
	}
}
