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
// once); then groups of four whose texts end blocks apart (testLanesRagged);
// then batches of four messages of one shape, with tails ragged where the
// length allows, and of four blocks apart, every buffer against a guard
// page. With -short, messages up to 100 bytes and every third length of
// associated data.
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
	testLanesRagged(t, a, rate)
	testLanesGuard(t, a, rate)
}

// testLanesRagged runs groups of four messages whose texts end blocks
// apart, for kernels whose lanes may differ in length (each lane its own),
// against single calls: block counts 0 to 20 apart after 0 to 3 whole
// blocks every lane has (even and odd counts, for kernels that run those in
// pairs), whole and partial last blocks, sealing and opening, and opening
// with every set of the lanes' tags changed (exact OK flags, the failed
// outputs zeroed). Pairs d blocks apart, d up to past the grouping's bound (some of them with -short), go
// as two ragged groups of two (two-lane kernels) or of four.
func testLanesRagged(t *testing.T, a batch.AEAD, rate int) {
	patterns := [][4]int{{0, 0, 0, 1}, {0, 1, 2, 3}, {3, 2, 1, 0}, {0, 3, 0, 3}, {1, 0, 0, 0}, {0, 9, 2, 20}}
	for d := 1; d <= 10; d++ {
		if testing.Short() && d%4 != 0 && d != 1 && d != 9 {
			continue
		}
		patterns = append(patterns, [4]int{0, d, 30, 30 + d})
	}
	for _, base := range []int{0, 1, rate, 2 * rate, 3*rate + 5} {
		for _, blocks := range patterns {
			for _, tails := range [][4]int{{0, 0, 0, 0}, {5, 0, rate - 1, 1}, {1, 1, 1, 1}} {
				var lengths [4]int
				for i := range lengths {
					lengths[i] = base + blocks[i]*rate + tails[i]
				}
				testRaggedGroup(t, a, lengths, base%3*7)
			}
		}
	}
}

// testRaggedGroup seals and opens a batch of four messages of the given
// text lengths and adLen bytes of associated data each, against Seal, and
// opens it with each set of tags changed.
func testRaggedGroup(t *testing.T, a batch.AEAD, lengths [4]int, adLen int) {
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
