package ccm

import (
	"bytes"
	stdaes "crypto/aes"
	"fmt"
	"testing"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
)

// TestBatch runs the batch suite on every path, at the default sizes and
// at every other tag size (with nonces of 7 to 13 bytes), over LEA on its
// paths, and over another block cipher.
func TestBatch(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0xba
	paths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for tag := 4; tag < TagSize; tag += 2 {
			others = append(others, aeadtest.MustBatch(NewWithSizes(key, 7+tag/2-2, tag)))
		}
		aeadtest.TestBatch(t, aeadtest.MustBatch(New(key)), others)
	})
	leaPaths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for tag := 4; tag < TagSize; tag += 2 {
			others = append(others, aeadtest.MustBatch(newLEA(key, false, 7+tag/2-2, tag)))
		}
		aeadtest.TestBatch(t, aeadtest.MustBatch(newLEA(key, false, 12, 16)), others)
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := stdaes.NewCipher(key)
		aeadtest.TestBatch(t, aeadtest.MustBatch(NewFromBlock(b, 12, 16)), nil, aeadtest.AllowAllocs())
	})
}

// TestBatchLengthLimit checks that with a 13-byte nonce a message one byte
// longer than the limit makes SealBatch panic before it writes anything,
// and fails in OpenBatch, as in Seal and Open.
func TestBatchLengthLimit(t *testing.T) {
	const max = 1<<16 - 1
	a, _ := NewWithSizes(make([]byte, 16), 13, 16)
	nonce := make([]byte, 13)
	ok := batch.Message{Nonce: nonce, In: []byte("ok"), Out: make([]byte, 18)}
	long := batch.Message{Nonce: nonce, In: make([]byte, max+1), Out: make([]byte, max+1+16)}
	msgs := []batch.Message{ok, long}
	testkit.MustPanic(t, "SealBatch of a message too long", func() { a.SealBatch(msgs) })
	if !bytes.Equal(msgs[0].Out, make([]byte, 18)) {
		t.Error("SealBatch wrote a message's output before it panicked")
	}
	msgs[1].In, msgs[1].Out = msgs[1].Out, bytes.Repeat([]byte{1}, max+1)
	msgs[0].In, msgs[0].Out = a.Seal(nil, nonce, []byte("ok"), nil), make([]byte, 2)
	if a.OpenBatch(msgs) || !msgs[0].OK || msgs[1].OK || !bytes.Equal(msgs[1].Out, make([]byte, max+1)) {
		t.Errorf("OpenBatch of a message too long: OK %v %v, output zeroed %v", msgs[0].OK, msgs[1].OK, bytes.Equal(msgs[1].Out, make([]byte, max+1)))
	}
}

// TestBatchLanes gives the batch kernels, and batch_lanes.go's lanes in Go
// (over LEA, and over AES on the paths without a batch kernel), the batches
// their lanes find hardest, on every path, key size and some nonce and tag
// sizes: messages ending at every offset in a block, side by side; batches
// that leave lanes empty, some beside long messages; long messages on
// staggered lanes; lengths far apart in neighbouring lanes; associated data
// that ends inside B_0's run, fills whole blocks or ends in a partial one,
// and lengths on both sides of 2^16-2^8, where its length encoding grows.
func TestBatchLanes(t *testing.T) {
	var offsets, apart, ad []aeadtest.Shape
	quotients := []int{0, 1, 5}
	if testing.Short() {
		quotients = []int{0, 1}
	}
	for _, q := range quotients {
		for r := range blockSize {
			offsets = append(offsets, aeadtest.Shape{Text: q*blockSize + r, AD: (q*blockSize + r) % 41})
		}
	}
	for i := range 20 {
		apart = append(apart, aeadtest.Shape{Text: i % 2 * 9000, AD: i % 3 * 100})
	}
	long := []aeadtest.Shape{{Text: 9000}, {Text: 8000, AD: 5000}, {Text: 4000}}
	// Enough long messages that 16 lanes start staggered (staggerMin on amd64),
	// with idle jobs among the first.
	var staggered []aeadtest.Shape
	for i := range 70 {
		staggered = append(staggered, aeadtest.Shape{Text: 2048 + 16 + i*37%300, AD: i % 3 * 20})
	}
	for i := range 71 {
		ad = append(ad, aeadtest.Shape{Text: i % 35, AD: i})
	}
	ad = append(ad, aeadtest.Shape{Text: 0, AD: 1<<16 - 1<<8 - 1}, aeadtest.Shape{Text: 17, AD: 1<<16 - 1<<8},
		aeadtest.Shape{Text: 32, AD: 1<<16 - 1<<8 + 1}, aeadtest.Shape{Text: 5, AD: 3})
	sizes := []struct{ key, nonce, tag int }{{16, 12, 16}, {24, 7, 4}, {32, 13, 10}, {16, 8, 16}}
	run := func(t *testing.T, newAEAD func(key []byte, nonceSize, tagSize int) (*AEAD, error)) {
		for _, sz := range sizes {
			a := aeadtest.MustBatch(newAEAD(make([]byte, sz.key), sz.nonce, sz.tag))
			t.Run(fmt.Sprintf("key%d-nonce%d-tag%d", sz.key, sz.nonce, sz.tag), func(t *testing.T) {
				aeadtest.TestBatchShapes(t, a, offsets)
				aeadtest.TestBatchShapes(t, a, apart)
				aeadtest.TestBatchShapes(t, a, long)
				for _, n := range []int{32, 35, 70} {
					aeadtest.TestBatchShapes(t, a, staggered[:n])
				}
				aeadtest.TestBatchShapes(t, a, ad)
				for n := 1; n <= 17; n++ {
					if !testing.Short() || n <= 2 || n >= 15 {
						aeadtest.TestBatchShapes(t, a, offsets[:n])
					}
				}
			})
		}
	}
	paths.Run(t, func(t *testing.T) { run(t, NewWithSizes) })
	// Over LEA, the lanes are Go's (batch_lanes.go).
	leaPaths.Run(t, func(t *testing.T) {
		run(t, func(key []byte, nonceSize, tagSize int) (*AEAD, error) { return newLEA(key, false, nonceSize, tagSize) })
	})
}

// TestBatchNoAllocsLong checks that batches of more than 16 messages, which
// take other room for their jobs on amd64, allocate nothing either.
func TestBatchNoAllocsLong(t *testing.T) {
	var lengths []int
	for n := 0; n < 40; n++ {
		lengths = append(lengths, n*61)
	}
	paths.Run(t, func(t *testing.T) {
		aeadtest.TestBatchNoAllocs(t, aeadtest.MustBatch(New(make([]byte, 16))), lengths...)
	})
}

// TestOpenBatchAllFailFirst opens a batch whose first 70 messages are too
// short to hold a tag, more than a batch kernel takes in one call, and
// whose last ones are good: those must still be opened.
func TestOpenBatchAllFailFirst(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		a, _ := New(make([]byte, 16))
		nonce := make([]byte, NonceSize)
		msgs := make([]batch.Message, 75)
		for i := range msgs {
			msgs[i] = batch.Message{Nonce: nonce, In: make([]byte, 5)}
		}
		pt := []byte("a good message")
		for i := 70; i < len(msgs); i++ {
			msgs[i] = batch.Message{Nonce: nonce, In: a.Seal(nil, nonce, pt, nil), Out: make([]byte, len(pt))}
		}
		if a.OpenBatch(msgs) {
			t.Fatal("OpenBatch reported all messages good")
		}
		for i, m := range msgs {
			if good := i >= 70; m.OK != good || good && !bytes.Equal(m.Out, pt) {
				t.Fatalf("message %d: OK %v, output %q", i, m.OK, m.Out)
			}
		}
	})
}

// TestBatchAlignedOutputs seals and opens batches of long messages whose
// outputs all start at one offset in a 4 KiB page, where the lanes start
// staggered on amd64 (staggerMin), against Seal and Open: 32, 35 and 70
// messages, in place and not.
func TestBatchAlignedOutputs(t *testing.T) {
	const page, size = 4096, 2100
	paths.Run(t, func(t *testing.T) {
		a, _ := NewWithSizes(make([]byte, 16), 13, 12)
		for _, count := range []int{32, 35, 70} {
			for _, inPlace := range []bool{false, true} {
				mem := make([]byte, (count+1)*page)
				off := page - int(uintptr(unsafe.Pointer(&mem[0]))%page) + 48
				pts, cts := make([][]byte, count), make([][]byte, count)
				seal, open := make([]batch.Message, count), make([]batch.Message, count)
				for i := range seal {
					nonce := bytes.Repeat([]byte{byte(i)}, 13)
					pts[i] = bytes.Repeat([]byte{byte(i), 1}, (size+i)/2)
					ad := pts[i][:i%3*10]
					cts[i] = a.Seal(nil, nonce, pts[i], ad)
					out := mem[off+i*page:][:len(cts[i])]
					in := pts[i]
					if inPlace {
						in = out[:len(pts[i])]
						copy(in, pts[i])
						ad = bytes.Clone(ad)
					}
					seal[i] = batch.Message{Nonce: nonce, AD: ad, In: in, Out: out}
					open[i] = batch.Message{Nonce: nonce, AD: ad, In: out, Out: out[:len(pts[i])]}
				}
				a.SealBatch(seal)
				for i := range seal {
					if !bytes.Equal(seal[i].Out, cts[i]) {
						t.Fatalf("%d messages, in place %v: SealBatch of message %d differs from Seal", count, inPlace, i)
					}
				}
				if !a.OpenBatch(open) {
					t.Fatalf("%d messages, in place %v: OpenBatch failed", count, inPlace)
				}
				for i := range open {
					if !open[i].OK || !bytes.Equal(open[i].Out, pts[i]) {
						t.Fatalf("%d messages, in place %v: OpenBatch of message %d differs from Open", count, inPlace, i)
					}
				}
			}
		}
	})
}
