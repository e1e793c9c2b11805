package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"math/bits"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/internal/words"
	"github.com/faelabs/fae/lea"
)

// paths are GCM-AES's: gcm's kernels, and its generic code over the AES
// engine. Over fae's LEA (leaPaths), gcm's GHASH kernels run beside LEA's
// counter kernels.
var (
	paths    = impltest.Of("gcm", "aes")
	leaPaths = impltest.Of("gcm", "lea")
)

// newLEA is GCM over fae's LEA, which runs LEA's counter kernels.
func newLEA(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return NewFromBlock(b, nonceSize, tagSize)
}

// newPlainLEA is GCM over LEA seen as a plain cipher.Block, one block per
// call: the reference for newLEA.
func newPlainLEA(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return NewFromBlock(struct{ cipher.Block }{b}, nonceSize, tagSize)
}

// newAES is NewWithSizes for aeadtest.Agree.
func newAES(key []byte, nonceSize, tagSize int) (cipher.AEAD, error) {
	return NewWithSizes(key, nonceSize, tagSize)
}

// TestKernelsAgree compares every path, and each kernel over the engines'
// generic code, with the generic code (aeadtest.Agree), over AES and over
// fae's LEA: message lengths around and across the kernels' groups of 8, 16
// and 32 blocks and their calls of maxKernelBlocks, any nonce and tag size.
func TestKernelsAgree(t *testing.T) {
	t.Run("aes", func(t *testing.T) {
		aeadtest.Agree(t, paths, []int{16, 24, 32}, agreeLengths, agreeSizes, newAES, newAES)
	})
	t.Run("lea", func(t *testing.T) {
		aeadtest.Agree(t, leaPaths, []int{16, 32}, agreeLengths, agreeSizes, newLEA, newPlainLEA)
	})
}

var agreeLengths = []int{511, 512, 513, 1500, (32+16+8+5)*16 + 3, 4096 + 7, 16384, 65536 + 7, (maxKernelBlocks+33)*16 + 9}

// agreeSizes picks a nonce size, 12 bytes half the time, and any tag size.
func agreeSizes(r *mrand.Rand, _ int) (nonceSize, tagSize int) {
	nonceSize = NonceSize
	if r.IntN(2) == 0 {
		nonceSize = MinNonceSize + r.IntN(100)
	}
	return nonceSize, MinTagSize + r.IntN(MaxTagSize-MinTagSize+1)
}

// newRand returns a deterministic source for a test's inputs.
func newRand(seed uint64) *mrand.Rand { return mrand.New(mrand.NewPCG(seed, 15)) }

func randBytes(r *mrand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// stdSeal returns crypto/cipher's ciphertext || tag over b, its tag cut to
// tagSize bytes: crypto/cipher cannot combine a nonce of other than 12
// bytes with a short tag, and a short tag is the full tag's prefix.
func stdSeal(t *testing.T, b cipher.Block, nonce, pt, ad []byte, tagSize int) []byte {
	t.Helper()
	var g cipher.AEAD
	var err error
	if len(nonce) == 12 {
		g, err = cipher.NewGCMWithTagSize(b, tagSize)
	} else {
		g, err = cipher.NewGCMWithNonceSize(b, len(nonce))
	}
	if err != nil {
		t.Fatal(err)
	}
	return g.Seal(nil, nonce, pt, ad)[:len(pt)+tagSize]
}

// agree checks a against want (crypto/cipher's output): Seal into a fresh
// buffer and in place, Open from a separate buffer and in place, and the
// rejection of a flipped tag bit.
func agree(t *testing.T, what string, a *AEAD, nonce, pt, ad, want []byte) {
	t.Helper()
	if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
		t.Fatalf("%s: Seal differs from crypto/cipher", what)
	}
	buf := make([]byte, len(want))
	copy(buf, pt)
	if got := a.Seal(buf[:0], nonce, buf[:len(pt)], ad); !bytes.Equal(got, want) {
		t.Fatalf("%s: Seal in place differs from crypto/cipher", what)
	}
	if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s: Open failed: %v", what, err)
	}
	if got, err := a.Open(buf[:0], nonce, buf, ad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s: Open in place failed: %v", what, err)
	}
	copy(buf, want)
	buf[len(buf)-1] ^= 1
	if _, err := a.Open(buf[:0], nonce, buf, ad); err == nil || !bytes.Equal(buf[:len(pt)], make([]byte, len(pt))) {
		t.Fatalf("%s: Open accepted a changed tag or left output behind", what)
	}
}

// TestAgainstStdlib compares every path with crypto/cipher's GCM, each
// dimension swept on its own: message lengths byte by byte and ragged large
// ones (key sizes in turn), associated data lengths, tag sizes, nonce sizes,
// and nonces whose first counter block lies within a few blocks of the
// 32-bit counter's wrap.
func TestAgainstStdlib(t *testing.T) {
	r := newRand(1)
	src := randBytes(r, 1<<18+4096)
	keys := [][]byte{randBytes(r, 16), randBytes(r, 24), randBytes(r, 32)}
	lengths := []int{}
	for n := 0; n <= 1024; n++ {
		if !testing.Short() || n <= 300 || n%61 == 0 {
			lengths = append(lengths, n)
		}
	}
	lengths = append(lengths, 1500, 4096+7, 16384+3, 65536+7)
	if !testing.Short() {
		lengths = append(lengths, (maxKernelBlocks+9)*blockSize+5) // two kernel calls
	}
	adLengths := []int{}
	for n := 0; n <= 600; n++ {
		if !testing.Short() || n <= 150 || n%37 == 0 {
			adLengths = append(adLengths, n)
		}
	}
	nonceSizes := []int{}
	for n := MinNonceSize; n <= MaxNonceSize; n++ {
		if !testing.Short() || n <= 40 || n%97 == 0 || n == MaxNonceSize {
			nonceSizes = append(nonceSizes, n)
		}
	}
	paths.Run(t, func(t *testing.T) {
		blocks := make([]cipher.Block, len(keys))
		for i, k := range keys {
			blocks[i], _ = stdaes.NewCipher(k)
		}
		check := func(what string, k int, nonce, pt, ad []byte, tagSize int) {
			t.Helper()
			a, err := NewWithSizes(keys[k], len(nonce), tagSize)
			if err != nil {
				t.Fatal(err)
			}
			agree(t, what, a, nonce, pt, ad, stdSeal(t, blocks[k], nonce, pt, ad, tagSize))
		}
		nonce := src[:12]
		for i, n := range lengths {
			s := i % 5 // unaligned too
			check(fmt.Sprintf("message %d bytes, key %d", n, len(keys[i%3])), i%3, nonce, src[s:s+n], src[:13], 16)
		}
		for _, n := range adLengths {
			check(fmt.Sprintf("ad %d bytes", n), 0, nonce, src[:100], src[len(src)-n:], 16)
		}
		// The message kernels' boundaries, with and without associated
		// data: the VAES kernels hash a last group with the tail under
		// one reduction, so one to four groups of 8, 16 and 32 blocks,
		// each with no tail, a block, a partial one and a ragged tail.
		for _, group := range []int{8, 16, 32} {
			for m := 1; m <= 4; m++ {
				for _, d := range []int{-1, 0, 1, 16, 53, group*blockSize - 1} {
					n := m*group*blockSize + d
					for _, ad := range [][]byte{nil, src[:13]} {
						check(fmt.Sprintf("message %d bytes, ad %d bytes", n, len(ad)), m%3, nonce, src[:n], ad, 16)
					}
				}
			}
		}
		// The message kernels hash the associated data under the
		// message's last reduction while their blocks and the lengths
		// block fit the family's powers (9 on xmm, 33 on ymm, 65 on zmm):
		// messages of m blocks, whole or partial, with no data, about a
		// block of it, and the most that fits and past it.
		for _, most := range []int{8, 32, 64} { // blocks of message and data
			for _, m := range []int{0, 1, 2, most / 2, most - 1, most} {
				for _, n := range []int{16 * m, 16*m - 5} {
					for _, adLen := range []int{0, 1, 15, 16, 17, 16*(most-m) - 3, 16 * (most - m), 16*(most-m) + 1, 16 * (most - m + 1)} {
						if n >= 0 && adLen >= 0 {
							check(fmt.Sprintf("message %d bytes, ad %d bytes", n, adLen), 1, nonce, src[:n], src[len(src)-adLen:], 16)
						}
					}
				}
			}
		}
		for ts := MinTagSize; ts <= MaxTagSize; ts++ {
			for _, ns := range []int{12, 8, 60} {
				check(fmt.Sprintf("tag %d bytes, nonce %d", ts, ns), 2, src[:ns], src[100:177], src[7:20], ts)
			}
		}
		for _, ns := range nonceSizes {
			check(fmt.Sprintf("nonce %d bytes", ns), 1, src[3:3+ns], src[:33], src[:5], 16)
		}
		for _, ns := range []int{16, 20, 32} {
			// Wraps in the first, second and later groups of 8 and 32
			// blocks (the later ones take their counters from the stack).
			for _, k := range []uint32{1, 2, 3, 7, 8, 9, 17, 24, 25, 41, 65, 97, 130} {
				a, _ := NewWithSizes(keys[0], ns, 16)
				nonce := wrapNonce(t, a, ns, k, r)
				for _, n := range []int{16*int(k) - 1, 16 * int(k), 16*int(k) + 5, 300, 16*(int(k)+20) + 3} {
					check(fmt.Sprintf("nonce %d bytes, %d blocks to the wrap, message %d bytes", ns, k, n), 0, nonce, src[:n], nil, 16)
				}
			}
		}
	})
}

// wrapNonce returns a nonce of size bytes (16 to 32) whose first counter
// block J0 has counter 2^32 - k: the first message block uses counter
// 2^32-k+1, and the counter wraps k-1 blocks later. For a nonce X1 || X2 (X2
// zero padded, or none for 16 bytes) and lengths block L, J0 = X1·H^3 ^
// X2·H^2 ^ L·H (or X1·H^2 ^ L·H), affine in X1: solve for it.
func wrapNonce(t testing.TB, a *AEAD, size int, k uint32, r *mrand.Rand) []byte {
	t.Helper()
	h := a.h.block()
	nonce := randBytes(r, size)
	var x2, l, target [16]byte
	copy(x2[:], nonce[16:])
	binary.BigEndian.PutUint64(l[8:], uint64(size)*8)
	copy(target[:], randBytes(r, 12))
	binary.BigEndian.PutUint32(target[12:], -k)
	sum := words.Load(target[:]).Xor(mulBlocks(words.Load(l[:]), h))
	hx1 := mulBlocks(h, h) // the power of H that multiplies X1
	if size > 16 {
		sum = sum.Xor(mulBlocks(words.Load(x2[:]), hx1))
		hx1 = mulBlocks(hx1, h)
	}
	mulBlocks(sum, inverse(hx1)).Store(nonce[:16])
	if j := a.j0(nonce); j.c != -k || j.at(j.c) != words.Load(target[:]) {
		t.Fatalf("J0 of the solved nonce is %x, want %x", j.at(j.c), target)
	}
	return nonce
}

// inverse returns x^-1 = x^(2^128-2) = x^2 · x^4 · ... · x^(2^127).
func inverse(x words.Block) words.Block {
	s := mulBlocks(x, x)
	p := s
	for range 126 {
		s = mulBlocks(s, s)
		p = mulBlocks(p, s)
	}
	return p
}

// refMul is Algorithm 1 of NIST SP 800-38D, bit by bit, on blocks as
// big-endian halves: the reference for the field multiplications.
func refMul(x, y [2]uint64) [2]uint64 {
	var z [2]uint64
	v := y
	for i := range 128 {
		if x[i/64]>>(63-i%64)&1 != 0 {
			z[0] ^= v[0]
			z[1] ^= v[1]
		}
		lsb := v[1] & 1
		v[1] = v[1]>>1 | v[0]<<63
		v[0] >>= 1
		if lsb != 0 {
			v[0] ^= 0xe1 << 56
		}
	}
	return z
}

func halves(x words.Block) [2]uint64 {
	return [2]uint64{bits.ReverseBytes64(x.W0), bits.ReverseBytes64(x.W1)}
}

// TestFieldMul checks the portable multiplication (bmul64, mul) against
// refMul on random and on sparse operands, and power against repeated
// multiplication.
func TestFieldMul(t *testing.T) {
	r := newRand(2)
	operand := func(i int) words.Block {
		switch i % 4 {
		case 0:
			return words.Block{W0: r.Uint64(), W1: r.Uint64()}
		case 1: // one bit
			b := uint(r.IntN(128))
			if b < 64 {
				return words.Block{W0: 1 << b}
			}
			return words.Block{W1: 1 << (b - 64)}
		case 2: // all ones
			return words.Block{W0: ^uint64(0), W1: ^uint64(0)}
		}
		return words.Block{W0: r.Uint64() & r.Uint64() & r.Uint64(), W1: r.Uint64() | r.Uint64()}
	}
	for i := range 4000 {
		x, y := operand(i), operand(i/4)
		if got, want := halves(mulBlocks(x, y)), refMul(halves(x), halves(y)); got != want {
			t.Fatalf("%x · %x = %x, want %x", halves(x), halves(y), got, want)
		}
	}
	h := operand(0)
	p := h
	for e := uint64(1); e <= 40; e++ {
		if got := power(h, e); got != p {
			t.Fatalf("power(h, %d) = %x, want %x", e, halves(got), halves(p))
		}
		p = mulBlocks(p, h)
	}
	if got := mulBlocks(inverse(h), h); got != (words.Block{W0: 0x80}) {
		t.Fatalf("h · inverse(h) = %x, want 1", halves(got))
	}
}

// TestGHASHKernels compares each kernel's GHASH with the portable one for 1
// to 40 blocks (every remainder of each kernel's groups) from a random state.
func TestGHASHKernels(t *testing.T) {
	r := newRand(3)
	src := randBytes(r, 40*blockSize)
	paths.Compare(t, nil, func(t *testing.T) {
		for i := range 20 {
			a, _ := New(randBytes(r, 16))
			for n := 1; n <= 40; n++ {
				y := words.Block{W0: r.Uint64(), W1: r.Uint64()}
				want := y
				a.h.update(&want, src[:n*blockSize])
				a.ghash(&y, src[:n*blockSize])
				if y != want {
					t.Fatalf("key %d, %d blocks: GHASH %x, want %x", i, n, halves(y), halves(want))
				}
			}
		}
	})
}

// TestLEAAgainstStdlib compares GCM over fae's LEA, on every path of gcm's
// and LEA's kernels, with crypto/cipher's GCM over the same cipher.Block.
func TestLEAAgainstStdlib(t *testing.T) {
	r := newRand(4)
	src := randBytes(r, 4096+64)
	leaPaths.Run(t, func(t *testing.T) {
		for _, keySize := range []int{16, 24, 32} {
			key := randBytes(r, keySize)
			b, _ := lea.NewCipher(key)
			for _, n := range []int{0, 1, 15, 16, 17, 100, 128, 129, 255, 1500, 4096 + 7} {
				for _, ns := range []int{12, 20} {
					a, err := NewFromBlock(b, ns, 16)
					if err != nil {
						t.Fatal(err)
					}
					nonce, pt, ad := src[:ns], src[3:3+n], src[5:29]
					agree(t, fmt.Sprintf("key %d, message %d, nonce %d", keySize, n, ns), a, nonce, pt, ad, stdSeal(t, b, nonce, pt, ad, 16))
				}
			}
		}
	})
}

// TestCryptKernels compares each path's cryptBlocks, sealing and opening,
// separately and in place, with counter mode over crypto/aes and the
// portable GHASH, for 1 to 161 blocks (every remainder of each kernel's
// groups, and groups after the first two of 32) from random counters and
// from counters that wrap within the call.
func TestCryptKernels(t *testing.T) {
	r := newRand(5)
	src := randBytes(r, 161*blockSize)
	paths.Run(t, func(t *testing.T) {
		for _, keySize := range []int{16, 24, 32} {
			key := randBytes(r, keySize)
			a, _ := New(key)
			b, _ := stdaes.NewCipher(key)
			for n := 1; n <= 161; n++ {
				if testing.Short() && n > 20 && n%7 != 0 {
					continue
				}
				for _, c := range []uint32{r.Uint32(), -uint32(r.IntN(n) + 1)} {
					j := counter{r.Uint64(), r.Uint32(), 0}
					in := src[:n*blockSize]
					ct := make([]byte, len(in))
					for i := 0; i < len(in); i += blockSize {
						j.at(c + uint32(i/blockSize)).Store(ct[i:])
						b.Encrypt(ct[i:], ct[i:])
					}
					subtle.XORBytes(ct, ct, in)
					y0 := words.Block{W0: r.Uint64(), W1: r.Uint64()}
					for _, o := range []op{sealOp, openOp} {
						want, hashed := ct, ct
						if o == openOp {
							want, hashed = ct, in // in taken as ciphertext: CTR is its own inverse
						}
						wantY := y0
						a.h.update(&wantY, hashed)
						for _, inPlace := range []bool{false, true} {
							dst := make([]byte, len(in))
							s := in
							if inPlace {
								copy(dst, in)
								s = dst
							}
							y := y0
							a.cryptBlocks(o, dst, s, j, c, &y)
							if !bytes.Equal(dst, want) || y != wantY {
								t.Fatalf("key %d, op %d, %d blocks from counter %#x, in place %v: output or GHASH differs", keySize, o, n, c, inPlace)
							}
						}
					}
				}
			}
		}
	})
}

// TestMessageKernel compares each family's message kernel (a whole message
// in one call) with the mode's steps on the same family's kernels: message
// lengths byte by byte, associated data lengths, key sizes, and counters
// that wrap within the message; and, through Seal and Open, with
// crypto/cipher for each tag size and nonces of 12 bytes and others (J0 by
// GHASH), in place and with a forged tag.
func TestMessageKernel(t *testing.T) {
	r := newRand(6)
	src := randBytes(r, 4096)
	paths.Run(t, func(t *testing.T) {
		keys := [][]byte{randBytes(r, 16), randBytes(r, 24), randBytes(r, 32)}
		if a, _ := New(keys[0]); !a.hasMessage(0, 0) {
			t.Skip("no message kernel on this path")
		}
		check := func(what string, k int, j counter, pt, ad []byte) {
			t.Helper()
			a, _ := New(keys[k])
			got, want := make([]byte, len(pt)), make([]byte, len(pt))
			gotTag, _ := a.message(sealOp, got, pt, ad, j)
			wantTag := a.steps(sealOp, want, pt, ad, j)
			if !bytes.Equal(got, want) || gotTag != wantTag {
				t.Fatalf("%s: sealing differs from the mode's steps", what)
			}
			copy(got, want) // in place
			gotTag, _ = a.message(openOp, got, got, ad, j)
			wantTag = a.steps(openOp, want, want, ad, j)
			if !bytes.Equal(got, pt) || !bytes.Equal(want, pt) || gotTag != wantTag {
				t.Fatalf("%s: opening differs from the mode's steps", what)
			}
		}
		j := counter{r.Uint64(), r.Uint32(), 1}
		lengths := []int{1535, 1536, 1600 + 7, 2048, 2560 + 15, 3000, 4000}
		for n := 0; n <= 1100; n++ {
			if !testing.Short() || n <= 300 || n%53 == 0 {
				lengths = append(lengths, n)
			}
		}
		for _, n := range lengths {
			check(fmt.Sprintf("message %d bytes", n), n%3, j, src[n%7:n%7+n], src[:n%20])
		}
		for n := 0; n <= 600; n++ {
			if !testing.Short() || n <= 150 || n%37 == 0 {
				check(fmt.Sprintf("ad %d bytes", n), 0, j, src[:77], src[len(src)-n:])
			}
		}
		for k := uint32(1); k <= 140; k++ {
			if k > 40 && k%8 != 1 {
				continue
			}
			j := counter{r.Uint64(), r.Uint32(), -k}
			check(fmt.Sprintf("counter %d blocks from the wrap", k), 1, j, src[:16*int(k)+600], src[:5])
		}
		b, _ := stdaes.NewCipher(keys[2])
		for ts := MinTagSize; ts <= MaxTagSize; ts++ {
			for _, ns := range []int{12, 1, 16, 60} {
				a, _ := NewWithSizes(keys[2], ns, ts)
				for _, n := range []int{0, 5, 16, 64, 127, 300} {
					nonce, pt, ad := src[:ns], src[100:100+n], src[7:7+n%20]
					agree(t, fmt.Sprintf("tag %d bytes, nonce %d, message %d", ts, ns, n), a, nonce, pt, ad, stdSeal(t, b, nonce, pt, ad, ts))
				}
			}
		}
	})
}
