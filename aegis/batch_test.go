package aegis

import (
	"bytes"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path and every variant, with
// 16-byte tags and, on fewer batches, 32-byte ones.
func TestBatch(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			t.Run(c.v.name, func(t *testing.T) {
				key := make([]byte, c.v.keySize)
				key[0] = 0xba
				long := aeadtest.MustBatch(c.new(key, 32))
				aeadtest.TestBatch(t, aeadtest.MustBatch(c.new(key, 16)), []batch.AEAD{long})
			})
		}
	})
}

// TestBatchLanes compares batches with single calls where the batch
// kernels' lanes differ: messages of 0 to 300 bytes byte by byte, four of a
// length class at a time with ragged tails, associated data of 0 to 100
// bytes, batches that leave lanes empty, in place and not, with a tampered
// message in every other batch, and all of them in one batch, shuffled
// (more shapes than groups); on every path, every tag size.
func TestBatchLanes(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			if c.v.lanes > 1 {
				continue
			}
			r := mrand.NewChaCha8([32]byte{byte(c.v.words)})
			for _, tagSize := range []int{16, 32} {
				a, err := c.new(randBytes(r, c.v.keySize), tagSize)
				if err != nil {
					t.Fatal(err)
				}
				var shapes [][2]int // text and associated data lengths
				for n := range 301 {
					shapes = append(shapes, [2]int{n, n / 4 % 101})
				}
				for ad := range 101 {
					shapes = append(shapes, [2]int{64, ad}, [2]int{70, ad})
				}
				for count, k := 1, 0; k < len(shapes); count = count%9 + 1 {
					end := min(k+count, len(shapes))
					checkLanes(t, r, a, shapes[k:end], k%2 == 0)
					k = end
				}
				mrand.New(r).Shuffle(len(shapes), func(i, j int) { shapes[i], shapes[j] = shapes[j], shapes[i] })
				checkLanes(t, r, a, shapes, false)
				checkLanes(t, r, a, shapes, true)
			}
		}
	})
}

// checkLanes seals a batch of messages of the given shapes with SealBatch
// and opens it with OpenBatch, a message tampered with unless inPlace, and
// compares both with single calls.
func checkLanes(t *testing.T, r *mrand.ChaCha8, a *AEAD, shapes [][2]int, inPlace bool) {
	t.Helper()
	msgs := make([]batch.Message, len(shapes))
	want := make([][]byte, len(shapes))
	pts := make([][]byte, len(shapes))
	for i, s := range shapes {
		m := &msgs[i]
		m.Nonce, m.AD, pts[i] = randBytes(r, a.NonceSize()), randBytes(r, s[1]), randBytes(r, s[0])
		want[i] = a.Seal(nil, m.Nonce, pts[i], m.AD)
		m.Out = make([]byte, s[0]+a.Overhead())
		m.In = bytes.Clone(pts[i])
		if inPlace {
			m.In = m.Out[:s[0]]
			copy(m.In, pts[i])
		}
	}
	a.SealBatch(msgs)
	bad := -1
	if !inPlace {
		bad = int(r.Uint64() % uint64(len(msgs)))
	}
	for i := range msgs {
		m := &msgs[i]
		if !bytes.Equal(m.Out, want[i]) {
			t.Fatalf("%s: SealBatch of %d messages: message %d (%d bytes, %d of AD) differs from Seal", a.v.name, len(msgs), i, shapes[i][0], shapes[i][1])
		}
		m.In, m.Out = m.Out, m.Out[:shapes[i][0]]
		if !inPlace {
			m.Out = make([]byte, shapes[i][0])
		}
		if i == bad {
			m.In = bytes.Clone(m.In)
			m.In[int(r.Uint64()%uint64(len(m.In)))] ^= 1
		}
	}
	if a.OpenBatch(msgs) != (bad < 0) {
		t.Fatalf("%s: OpenBatch of %d messages: wrong result", a.v.name, len(msgs))
	}
	for i := range msgs {
		m := &msgs[i]
		switch {
		case m.OK != (i != bad):
			t.Fatalf("%s: OpenBatch of %d messages: message %d: OK %v", a.v.name, len(msgs), i, m.OK)
		case m.OK && !bytes.Equal(m.Out, pts[i]):
			t.Fatalf("%s: OpenBatch of %d messages: message %d differs from the plaintext", a.v.name, len(msgs), i)
		case !m.OK && !bytes.Equal(m.Out, make([]byte, len(m.Out))):
			t.Fatalf("%s: OpenBatch of %d messages: failed message %d not zeroed", a.v.name, len(msgs), i)
		}
	}
}
