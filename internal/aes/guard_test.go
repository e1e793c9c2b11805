package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"testing"

	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs every operation of every kernel with each buffer
// (key, input, output, counter) against an inaccessible page, after its end
// and then before its start, at every length guard.Lengths gives.
func TestGuardPages(t *testing.T) {
	lengths := guard.Lengths()
	longest := lengths[len(lengths)-1]
	src := make([]byte, longest)
	for i := range src {
		src[i] = byte(i * 13)
	}
	paths.Run(t, func(t *testing.T) {
		keyR, ctrR := guard.New(t, 32), guard.New(t, BlockSize)
		srcR, dstR := guard.New(t, longest), guard.New(t, longest)
		for _, size := range keySizes {
			key := src[:size]
			ref, _ := stdaes.NewCipher(key)
			want := make([]byte, longest)
			for _, side := range guard.Sides {
				var b *Block
				if err := guard.Fault(func() { b = mustNew(t, keyR.Copy(key, side)) }); err != nil {
					t.Fatalf("key of %d bytes, guard page at its %v: New: %v", size, side, err)
				}
				iv := src[100 : 100+BlockSize]
				lastBlocks := -1
				for _, n := range lengths {
					check := func(op string, n int, f func() []byte, want []byte) {
						var got []byte
						if err := guard.Fault(func() { got = f() }); err != nil {
							t.Fatalf("%s of %d bytes with key %d, guard pages at the %v: %v", op, n, size, side, err)
						}
						if !bytes.Equal(got, want) {
							t.Fatalf("%s of %d bytes with key %d, guard pages at the %v: wrong output", op, n, size, side)
						}
					}

					// The block operations take each length rounded down to
					// whole blocks, once.
					if m := n &^ (BlockSize - 1); m != lastBlocks {
						lastBlocks = m
						for i := 0; i < m; i += BlockSize {
							ref.Encrypt(want[i:], src[i:])
						}
						check("EncryptBlocks", m, func() []byte {
							dst := dstR.Slice(m, side)
							b.EncryptBlocks(dst, srcR.Copy(src[:m], side))
							return dst
						}, want[:m])
						check("EncryptBlocks in place", m, func() []byte {
							buf := srcR.Copy(src[:m], side)
							b.EncryptBlocks(buf, buf)
							return buf
						}, want[:m])
						check("DecryptBlocks", m, func() []byte {
							dst := dstR.Slice(m, side)
							b.DecryptBlocks(dst, srcR.Copy(want[:m], side))
							return dst
						}, src[:m])
						check("DecryptBlocks in place", m, func() []byte {
							buf := srcR.Copy(want[:m], side)
							b.DecryptBlocks(buf, buf)
							return buf
						}, src[:m])
					}

					cipher.NewCTR(ref, iv).XORKeyStream(want[:n], src[:n])
					check("XORKeyStreamAt", n, func() []byte {
						dst := dstR.Slice(n, side)
						b.XORKeyStreamAt(dst, srcR.Copy(src[:n], side), (*[BlockSize]byte)(ctrR.Copy(iv, side)))
						return dst
					}, want[:n])
					check("XORKeyStreamAt in place", n, func() []byte {
						buf := srcR.Copy(src[:n], side)
						b.XORKeyStreamAt(buf, buf, (*[BlockSize]byte)(ctrR.Copy(iv, side)))
						return buf
					}, want[:n])
				}

				ref.Encrypt(want, src)
				check1 := func(op string, f func(dst, src []byte), in, want []byte) {
					dst := dstR.Slice(BlockSize, side)
					if err := guard.Fault(func() { f(dst, srcR.Copy(in[:BlockSize], side)) }); err != nil {
						t.Fatalf("%s with key %d, guard pages at the %v: %v", op, size, side, err)
					}
					if !bytes.Equal(dst, want[:BlockSize]) {
						t.Fatalf("%s with key %d, guard pages at the %v: wrong output", op, size, side)
					}
				}
				check1("Encrypt", b.Encrypt, src, want)
				check1("Decrypt", b.Decrypt, want, src)
			}
		}
	})
}
