package ctr

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs the stream on every kernel with key, IV, input and
// output against an inaccessible page, after their end and then before
// their start, at every length guard.Lengths gives: in one call, and split
// so that the second call starts inside a keystream block.
func TestGuardPages(t *testing.T) {
	lengths := guard.Lengths()
	longest := lengths[len(lengths)-1]
	src := make([]byte, longest)
	for i := range src {
		src[i] = byte(i * 29)
	}
	want := make([]byte, longest)
	paths.Run(t, func(t *testing.T) {
		keyR, ivR := guard.New(t, 32), guard.New(t, aes.BlockSize)
		srcR, dstR := guard.New(t, longest), guard.New(t, longest)
		for _, size := range []int{16, 24, 32} {
			key, iv := src[:size], src[64:64+aes.BlockSize]
			ref, _ := aes.NewCipher(key)
			for _, side := range guard.Sides {
				for _, n := range lengths {
					cipher.NewCTR(ref, iv).XORKeyStream(want[:n], src[:n])
					split := min(n, 1+n%37)
					var s cipher.Stream
					err := guard.Fault(func() {
						var err error
						if s, err = New(keyR.Copy(key, side), ivR.Copy(iv, side)); err != nil {
							t.Fatal(err)
						}
						d1, d2 := dstR.Slice(split, side), dstR.Slice(n-split, side)
						s.XORKeyStream(d1, srcR.Copy(src[:split], side))
						if !bytes.Equal(d1, want[:split]) {
							t.Fatalf("first %d bytes: wrong output", split)
						}
						s.XORKeyStream(d2, srcR.Copy(src[split:n], side))
						if !bytes.Equal(d2, want[split:n]) {
							t.Fatalf("%d bytes after %d: wrong output", n-split, split)
						}
						if s, err = New(keyR.Copy(key, side), ivR.Copy(iv, side)); err != nil {
							t.Fatal(err)
						}
						buf := srcR.Copy(src[:n], side)
						if s.XORKeyStream(buf, buf); !bytes.Equal(buf, want[:n]) {
							t.Fatalf("%d bytes in place: wrong output", n)
						}
					})
					if err != nil {
						t.Fatalf("key %d, %d bytes, guard pages at the %v: %v", size, n, side, err)
					}
				}
			}
		}
	})
}
