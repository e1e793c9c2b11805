package ocb

import (
	"bytes"
	"crypto/aes"
	"fmt"
	"slices"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
)

// TestBatch runs the batch suite on every path, at the default sizes and
// at every other tag size (with nonces of 1 to 14 bytes), with 192- and
// 256-bit keys (12 and 14 rounds), over LEA on its paths, and over another
// block cipher.
func TestBatch(t *testing.T) {
	key := make([]byte, 32)
	key[0] = 0xba
	paths.Run(t, func(t *testing.T) {
		var others []batch.AEAD
		for tag := MinTagSize; tag < MaxTagSize; tag++ {
			others = append(others, aeadtest.MustBatch(NewWithSizes(key[:16], 2*tag-15, tag)))
		}
		others = append(others, aeadtest.MustBatch(NewWithSizes(key[:24], 12, 16)), aeadtest.MustBatch(NewWithSizes(key, 15, 12)))
		aeadtest.TestBatch(t, aeadtest.MustBatch(New(key[:16])), others)
	})
	leaPaths.Run(t, func(t *testing.T) {
		aeadtest.TestBatch(t, aeadtest.MustBatch(newLEA(key[:16], 12, 16)), nil)
	})
	t.Run("NewFromBlock", func(t *testing.T) {
		b, _ := aes.NewCipher(key[:16])
		aeadtest.TestBatch(t, aeadtest.MustBatch(NewFromBlock(b, 12, 16)), nil, aeadtest.AllowAllocs())
	})
}

// TestBatchRuns compares batches of like messages (which lane kernels take
// 16 at a time) with single calls, at lengths about the lanes' length
// classes, their bound and past it (the last in lanes, where a tag is
// changed), with tags of 16 and 12 bytes; and batches of like messages
// alone, which RunLanes takes without a look at each (in lanes, or each
// alone).
func TestBatchRuns(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0x5e
	shapes := aeadtest.Runs([]int{0, 1, 16, 17, 100, 256, 1000, 1024, 1025, 2000, 5000, 64})
	paths.Run(t, func(t *testing.T) {
		aeadtest.TestBatchShapes(t, aeadtest.MustBatch(New(key)), shapes)
		aeadtest.TestBatchShapes(t, aeadtest.MustBatch(NewWithSizes(key, 12, 12)), shapes)
		for _, n := range []int{37, 48} {
			for _, shapes := range aeadtest.Alike(n, []int{0, 64, 1000, 1024, 1025, 1500}) {
				aeadtest.TestBatchShapes(t, aeadtest.MustBatch(New(key)), shapes)
				aeadtest.TestBatchShapes(t, aeadtest.MustBatch(NewWithSizes(key, 12, 12)), shapes)
			}
		}
	})
}

// TestBatchGroups compares batches of short messages, which go through the
// cipher in groups, with single calls: every nonce size, its last byte
// taking all 64 bottom values (the shift into Stretch), every tag size,
// texts of 0 to 70 bytes side by side, batches that fill groups partly and
// past their message and block bounds, and messages about groupMaxLen.
func TestBatchGroups(t *testing.T) {
	key := make([]byte, 16)
	key[0] = 0x6b
	nonceSizes := []int{1, 2, 6, 12, 15}
	if !testing.Short() {
		nonceSizes = nil
		for n := MinNonceSize; n <= MaxNonceSize; n++ {
			nonceSizes = append(nonceSizes, n)
		}
	}
	paths.Run(t, func(t *testing.T) {
		for _, ns := range nonceSizes {
			for tag := MinTagSize; tag <= MaxTagSize; tag++ {
				a, err := NewWithSizes(key, ns, tag)
				if err != nil {
					t.Fatal(err)
				}
				var ms []batch.Message
				var want [][]byte
				for i := range 71 {
					nonce := make([]byte, ns)
					nonce[0] = byte(i * 37)
					nonce[ns-1] ^= byte(i)
					m := batch.Message{Nonce: nonce, In: make([]byte, i), Out: make([]byte, i+tag)}
					for j := range m.In {
						m.In[j] = byte(i + j)
					}
					if i%3 == 0 {
						m.AD = m.In[:i/2] // read beside the text, never written
						m.In = slices.Clone(m.In)
					}
					want = append(want, a.Seal(nil, m.Nonce, m.In, m.AD))
					ms = append(ms, m)
				}
				for _, n := range []int{1, 2, 17, groupMsgs, groupMsgs + 1, 64, 71} {
					checkBatch(t, a, ms[:n], want[:n])
				}
			}
		}
		a := aeadtest.MustBatch(New(key))
		var shapes []aeadtest.Shape
		for _, n := range []int{groupMaxLen - 1, groupMaxLen, groupMaxLen + 1, groupMaxLen - 16} {
			for range groupBlocks/(n/blockSize) + 1 {
				shapes = append(shapes, aeadtest.Shape{Text: n, AD: n % 50})
			}
		}
		aeadtest.TestBatchShapes(t, a, shapes)
	})
}

// checkBatch seals ms (their Out overwritten) and opens the results, and
// compares them with want, the single calls' ciphertexts.
func checkBatch(t *testing.T, a *AEAD, ms []batch.Message, want [][]byte) {
	t.Helper()
	a.SealBatch(ms)
	opened := make([]batch.Message, len(ms))
	for i, m := range ms {
		if !bytes.Equal(m.Out, want[i]) {
			t.Fatalf("nonce %d, tag %d, batch of %d, message %d: SealBatch differs from Seal", a.NonceSize(), a.Overhead(), len(ms), i)
		}
		opened[i] = batch.Message{Nonce: m.Nonce, AD: m.AD, In: slices.Clone(m.Out), Out: make([]byte, len(m.In))}
	}
	if !a.OpenBatch(opened) {
		t.Fatalf("nonce %d, tag %d, batch of %d: OpenBatch failed", a.NonceSize(), a.Overhead(), len(ms))
	}
	for i, m := range opened {
		if !m.OK || !bytes.Equal(m.Out, ms[i].In) {
			t.Fatalf("nonce %d, tag %d, batch of %d, message %d: OpenBatch differs from Open", a.NonceSize(), a.Overhead(), len(ms), i)
		}
	}
}

// TestBatchLongRuns compares batches of many messages of one length class,
// whose full groups of 16 one call to a run kernel takes (lanes_amd64.go),
// with single calls: runs of 1 to 5 groups and a part-filled one, of one
// length or ragged in the class (lanes whose blocks end before others'),
// without associated data (one call for the run) and with it in one
// message (the kernel stops after that group and the next call goes on),
// at tags of 16 and 12 bytes, nonces of 1, 12 and 15 bytes and keys of
// each size; then it opens them with tags changed in some groups (the
// kernel stops after each), which alone must fail, their outputs zeroed.
// With -short, fewer lengths and counts.
func TestBatchLongRuns(t *testing.T) {
	key := make([]byte, 32)
	key[0] = 0x3c
	counts, adCases := []int{16, 33, 80, 87}, 3
	lengths := [][2]int{{5, 0}, {9, 1}, {64, 0}, {64, 5}, {100, 0}, {49, 9}, {1000, 0}, {600, 50}}
	if testing.Short() {
		counts, lengths, adCases = []int{33, 87}, [][2]int{{9, 1}, {64, 5}, {600, 50}}, 2
	}
	paths.Run(t, func(t *testing.T) {
		for _, s := range []struct{ key, nonce, tag int }{{16, 12, 16}, {16, 12, 12}, {24, 1, 16}, {32, 15, 16}} {
			a, err := NewWithSizes(key[:s.key], s.nonce, s.tag)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lengths {
				for _, n := range counts {
					for _, adAt := range []int{-1, 20, n - 1}[:adCases] {
						checkLongRun(t, a, l[0], l[1], n, adAt)
					}
				}
			}
		}
	})
}

// checkLongRun seals and opens n messages of l+i%8*step bytes (message i),
// message adAt (if any) with associated data, and opens them again with
// some tags changed.
func checkLongRun(t *testing.T, a *AEAD, l, step, n, adAt int) {
	t.Helper()
	what := fmt.Sprintf("%d rounds, nonce %d, tag %d, %d messages of %d to %d bytes, AD at %d", a.aes.Rounds(), a.NonceSize(), a.Overhead(), n, l, l+7*step, adAt)
	ms := make([]batch.Message, n)
	want := make([][]byte, n)
	for i := range ms {
		m := &ms[i]
		m.Nonce = make([]byte, a.NonceSize())
		m.Nonce[0], m.Nonce[len(m.Nonce)-1] = byte(i), byte(i*7+l)
		m.In = make([]byte, l+i%8*step)
		for j := range m.In {
			m.In[j] = byte(i*13 + j)
		}
		if i == adAt {
			m.AD = []byte("associated")
		}
		m.Out = make([]byte, len(m.In)+a.Overhead())
		want[i] = a.Seal(nil, m.Nonce, m.In, m.AD)
	}
	a.SealBatch(ms)
	for i := range ms {
		if !bytes.Equal(ms[i].Out, want[i]) {
			t.Fatalf("%s: message %d: SealBatch differs from Seal", what, i)
		}
	}
	for _, bad := range [][]int{nil, {3}, {17, 18, 40, n - 1}, {n - 1}} {
		opened := make([]batch.Message, n)
		isBad := make([]bool, n)
		for _, i := range bad {
			isBad[i%n] = true
		}
		for i, m := range ms {
			in := slices.Clone(m.Out)
			if isBad[i] {
				in[len(in)-1] ^= 0x40
			}
			opened[i] = batch.Message{Nonce: m.Nonce, AD: m.AD, In: in, Out: make([]byte, len(m.In))}
		}
		if got := a.OpenBatch(opened); got != !slices.Contains(isBad, true) {
			t.Fatalf("%s, tags changed at %v: OpenBatch returned %v", what, bad, got)
		}
		for i, m := range opened {
			if m.OK == isBad[i] || isBad[i] && !bytes.Equal(m.Out, make([]byte, len(m.Out))) || !isBad[i] && !bytes.Equal(m.Out, ms[i].In) {
				t.Fatalf("%s, tags changed at %v: message %d: OK %v, output wrong", what, bad, i, m.OK)
			}
		}
	}
}
