package raocb

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/internal/ocbmode"
	"github.com/faelabs/fae/internal/testkit"
)

// ref is a plain model of the profile for the tests: crypto/aes for E and a
// table-driven AESENC, one block at a time, with no shared code.
type ref struct {
	e          cipher.Block
	tagSize    int
	r1, r2, la [16]byte
}

var refSbox = func() (s [256]byte) {
	mul := func(a, b byte) (r byte) {
		for ; b != 0; b >>= 1 {
			if b&1 != 0 {
				r ^= a
			}
			a = a<<1 ^ 0x1b*(a>>7)
		}
		return
	}
	for x := range 256 {
		inv := byte(0)
		for y := 1; y < 256 && x != 0; y++ {
			if mul(byte(x), byte(y)) == 1 {
				inv = byte(y)
			}
		}
		b := inv
		s[x] = 0x63 ^ b ^ (b<<1 | b>>7) ^ (b<<2 | b>>6) ^ (b<<3 | b>>5) ^ (b<<4 | b>>4)
	}
	return
}()

// refAESENC is x86's AESENC: MixColumns(ShiftRows(SubBytes(x))) ^ k, with
// state byte 4c+r in row r, column c.
func refAESENC(x, k [16]byte) [16]byte {
	xt := func(a byte) byte { return a<<1 ^ 0x1b*(a>>7) }
	var s, out [16]byte
	for c := range 4 {
		for r := range 4 {
			s[4*c+r] = refSbox[x[4*((c+r)%4)+r]]
		}
	}
	for c := range 4 {
		a := s[4*c : 4*c+4]
		for r := range 4 {
			out[4*c+r] = xt(a[r]) ^ xt(a[(r+1)%4]) ^ a[(r+1)%4] ^ a[(r+2)%4] ^ a[(r+3)%4] ^ k[4*c+r]
		}
	}
	return out
}

func newRef(key []byte, tagSize int) *ref {
	e, err := stdaes.NewCipher(key)
	if err != nil {
		panic(err)
	}
	r := &ref{e: e, tagSize: tagSize}
	r.r1 = r.enc([16]byte{0: 2})
	r.r2 = r.enc([16]byte{0: 3})
	r.la = r.enc([16]byte{0: 4})
	return r
}

func (r *ref) enc(x [16]byte) [16]byte {
	r.e.Encrypt(x[:], x[:])
	return x
}

func (r *ref) delta(x [16]byte, i uint64) [16]byte {
	if i >= 1<<30 {
		panic("index out of the domain")
	}
	for j := 0; j < 16; j += 4 {
		binary.BigEndian.PutUint32(x[j:], binary.BigEndian.Uint32(x[j:])+uint32(i))
	}
	return refAESENC(refAESENC(x, r.r1), r.r2)
}

func (r *ref) base(nonce []byte) [16]byte {
	var n [16]byte
	n[0] = byte(r.tagSize*8%128) << 1
	n[15-len(nonce)] |= 1
	copy(n[16-len(nonce):], nonce)
	return r.enc(n)
}

func block(p []byte) (b [16]byte) {
	copy(b[:], p)
	return
}

// blocks encrypts (or decrypts) the blocks of src from index first, the
// last one possibly partial, as EncryptBlocks.
func (r *ref) blocks(b [16]byte, src []byte, first uint64, decrypt bool) (out []byte, sum [16]byte) {
	for i := first; len(src) > 0; i++ {
		if len(src) < 16 {
			pad := r.enc(r.delta(b, i+1))
			p := make([]byte, len(src))
			xorInto(p, src, pad[:])
			q := p
			if !decrypt {
				q = src
			}
			pb := block(q)
			pb[len(q)] = 0x80
			sum = xorb(sum, pb)
			return append(out, p...), sum
		}
		d := r.delta(b, i)
		x := xorb(block(src), d)
		if decrypt {
			r.e.Decrypt(x[:], x[:])
		} else {
			r.e.Encrypt(x[:], x[:])
		}
		x = xorb(x, d)
		if decrypt {
			sum = xorb(sum, x)
		} else {
			sum = xorb(sum, block(src))
		}
		out = append(out, x[:]...)
		src = src[16:]
	}
	return out, sum
}

func (r *ref) seal(nonce, pt, ad []byte) []byte {
	b := r.base(nonce)
	ct, sum := r.blocks(b, pt, 0, false)
	m := uint64(len(pt)+15) / 16
	tag := r.enc(xorb(sum, r.delta(b, m+3)))
	for i := uint64(0); len(ad) > 0; i++ {
		if len(ad) < 16 {
			pb := block(ad)
			pb[len(ad)] = 0x80
			tag = xorb(tag, r.enc(xorb(pb, r.delta(r.la, i+1))))
			break
		}
		tag = xorb(tag, r.enc(xorb(block(ad), r.delta(r.la, i))))
		ad = ad[16:]
	}
	return append(ct, tag[:r.tagSize]...)
}

func xorb(x, y [16]byte) [16]byte {
	for i := range x {
		x[i] ^= y[i]
	}
	return x
}

func xorInto(dst, x, y []byte) {
	for i := range dst {
		dst[i] = x[i] ^ y[i]
	}
}

func randBytes(r *mrand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestReference compares Seal with the plain model on every path, for
// every key, nonce and tag size and many lengths.
func TestReference(t *testing.T) {
	r := mrand.New(mrand.NewPCG(1, 2))
	lengths := []int{0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 513, 1000}
	paths.Run(t, func(t *testing.T) {
		for _, keyLen := range []int{16, 24, 32} {
			for _, n := range lengths {
				key := randBytes(r, keyLen)
				nonce := randBytes(r, 1+r.IntN(15))
				tagSize := 8 + r.IntN(9)
				pt, ad := randBytes(r, n), randBytes(r, lengths[r.IntN(len(lengths))])
				a, err := NewWithSizes(key, len(nonce), tagSize)
				if err != nil {
					t.Fatal(err)
				}
				want := newRef(key, tagSize).seal(nonce, pt, ad)
				got := a.Seal(nil, nonce, pt, ad)
				if !bytes.Equal(got, want) {
					t.Fatalf("key %d, nonce %d, tag %d, msg %d, ad %d: Seal = %x, want %x",
						keyLen, len(nonce), tagSize, n, len(ad), got, want)
				}
				if back, err := a.Open(nil, nonce, got, ad); err != nil || !bytes.Equal(back, pt) {
					t.Fatalf("key %d, msg %d: Open failed: %v", keyLen, n, err)
				}
			}
		}
	})
}

// TestMasks checks the portable Δ, on 1 to 9 blocks from random bases,
// against the reference.
func TestMasks(t *testing.T) {
	r := mrand.New(mrand.NewPCG(5, 6))
	for n := 1; n <= 9; n++ {
		key := randBytes(r, 16)
		a, err := New(key)
		if err != nil {
			t.Fatal(err)
		}
		ref := newRef(key, TagSize)
		x := block(randBytes(r, 16))
		got := make([]byte, 16*n)
		a.masks(got, x)
		for i := range n {
			if want := ref.delta(x, uint64(i)); !bytes.Equal(got[16*i:16*i+16], want[:]) {
				t.Fatalf("Δ(%x, %d) = %x, want %x", x, i, got[16*i:16*i+16], want)
			}
		}
	}
}

// TestRefAESENC checks the tests' AESENC against FIPS 197, Appendix B:
// round 1 of the example cipher.
func TestRefAESENC(t *testing.T) {
	in := block(testkit.Hex(t, "193de3bea0f4e22b9ac68d2ae9f84808"))
	k1 := block(testkit.Hex(t, "a0fafe1788542cb123a339392a6c7605"))
	want := block(testkit.Hex(t, "a49c7ff2689f352b6b5bea43026a5049"))
	if got := refAESENC(in, k1); got != want {
		t.Fatalf("refAESENC = %x, want %x", got, want)
	}
}

// TestRandomAccess checks that EncryptBlocks and DecryptBlocks of any range
// of blocks give that range of Seal's and Open's output, on every path,
// including ranges that end with the final partial block.
func TestRandomAccess(t *testing.T) {
	r := mrand.New(mrand.NewPCG(7, 8))
	paths.Run(t, func(t *testing.T) {
		for _, keyLen := range []int{16, 24, 32} {
			a, err := NewWithSizes(randBytes(r, keyLen), 12, 16)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int{0, 5, 16, 100, 512, 1000, 4096 + 9, 70000} {
				nonce, pt, ad := randBytes(r, 12), randBytes(r, n), randBytes(r, r.IntN(40))
				sealed := a.Seal(nil, nonce, pt, ad)
				ct := sealed[:n]
				nb := (n + 15) / 16
				for range 40 {
					i := r.IntN(nb + 1)
					j := i + r.IntN(nb-i+1)
					if r.IntN(4) == 0 {
						j = nb // to the end, partial block included
					}
					lo, hi := min(16*i, n), min(16*j, n)
					got := a.DecryptBlocks(nil, nonce, ct[lo:hi], uint64(i))
					if !bytes.Equal(got, pt[lo:hi]) {
						t.Fatalf("msg %d: DecryptBlocks of blocks %d..%d differs from Open", n, i, j)
					}
					prefix := []byte("prefix")
					got = a.EncryptBlocks(prefix, nonce, pt[lo:hi], uint64(i))
					if !bytes.Equal(got[:6], prefix) || !bytes.Equal(got[6:], ct[lo:hi]) {
						t.Fatalf("msg %d: EncryptBlocks of blocks %d..%d differs from Seal", n, i, j)
					}
					// In place.
					buf := bytes.Clone(ct[lo:hi])
					a.DecryptBlocks(buf[:0], nonce, buf, uint64(i))
					if !bytes.Equal(buf, pt[lo:hi]) {
						t.Fatalf("msg %d: DecryptBlocks in place of blocks %d..%d differs", n, i, j)
					}
				}
			}
		}
	})
}

func TestRandomAccessPanics(t *testing.T) {
	a, _ := New(make([]byte, 16))
	nonce := make([]byte, 12)
	buf := make([]byte, 64)
	testkit.MustPanic(t, "wrong nonce size", func() { a.DecryptBlocks(nil, nonce[:11], buf, 0) })
	testkit.MustPanic(t, "inexact overlap", func() { a.EncryptBlocks(buf[:1], nonce, buf[:32], 0) })
}

// TestLimits checks the 2^30 index limit without 16 GiB messages (the
// length checks at their boundaries are internal/ocbmode's): EncryptBlocks at the last allowed
// indices (against the plain model, which also checks Δ's arithmetic there)
// and past them, and NewReaderAt's refusal to read an overlong message.
func TestLimits(t *testing.T) {
	const maxBlocks = ocbmode.MaxIndex - 4
	key := make([]byte, 16)
	rand.Read(key)
	rf := newRef(key, 16)
	paths.Run(t, func(t *testing.T) {
		a, _ := New(key)
		nonce := make([]byte, 12)
		b := rf.base(nonce)
		pt := make([]byte, 16*5+7)
		rand.Read(pt)
		// The last six blocks, partial one included: its pad uses index
		// 2^30-4, the tag of such a message 2^30-1.
		first := uint64(maxBlocks - 6)
		want, _ := rf.blocks(b, pt, first, false)
		got := a.EncryptBlocks(nil, nonce, pt, first)
		if !bytes.Equal(got, want) {
			t.Fatalf("EncryptBlocks at block %d = %x, want %x", first, got, want)
		}
		if back := a.DecryptBlocks(nil, nonce, got, first); !bytes.Equal(back, pt) {
			t.Fatal("DecryptBlocks at the end of the index range does not invert EncryptBlocks")
		}
		testkit.MustPanic(t, "EncryptBlocks past the last block", func() { a.EncryptBlocks(nil, nonce, pt, first+1) })
		testkit.MustPanic(t, "DecryptBlocks past the last block", func() { a.DecryptBlocks(nil, nonce, pt[:16], maxBlocks) })
		testkit.MustPanic(t, "DecryptBlocks at 2^64-1", func() { a.DecryptBlocks(nil, nonce, pt[:16], 1<<64-1) })
	})

	a, _ := New(key)
	for _, size := range []int64{16*maxBlocks + 1 + 16, 1 << 40} {
		_, err := NewReaderAt(a, make([]byte, 12), noReads{t}, size, nil)
		if !errors.Is(err, errTooLong) {
			t.Errorf("NewReaderAt with size %d: error %v, want %v", size, err, errTooLong)
		}
	}
}

// noReads fails the test if it is read.
type noReads struct{ t *testing.T }

func (r noReads) ReadAt(p []byte, off int64) (int, error) {
	r.t.Errorf("ReadAt(%d bytes, %d) called", len(p), off)
	return 0, io.EOF
}

// TestReaderAt reads random ranges of verified messages on every path,
// and checks that NewReaderAt fails, with no reader, when any byte of the
// ciphertext or tag or the associated data was altered.
func TestReaderAt(t *testing.T) {
	r := mrand.New(mrand.NewPCG(9, 10))
	paths.Run(t, func(t *testing.T) {
		a, _ := NewWithSizes(randBytes(r, 32), 12, 13)
		lengths := []int{0, 1, 16, 33, 1000, 3*verifyChunk + 100, 3*verifyChunk + 5*16}
		if testing.Short() {
			lengths = lengths[:5]
		}
		for _, n := range lengths {
			nonce, pt, ad := randBytes(r, 12), randBytes(r, n), randBytes(r, 20)
			sealed := a.Seal(nil, nonce, pt, ad)
			ra, err := NewReaderAt(a, nonce, bytes.NewReader(sealed), int64(len(sealed)), ad)
			if err != nil {
				t.Fatalf("msg %d: NewReaderAt: %v", n, err)
			}
			for range 50 {
				off := r.IntN(n + 1)
				p := make([]byte, r.IntN(n-off+20))
				got, err := ra.ReadAt(p, int64(off))
				want := min(len(p), n-off)
				if got != want || !bytes.Equal(p[:got], pt[off:off+got]) {
					t.Fatalf("msg %d: ReadAt(%d bytes, %d) = %d, %v: wrong bytes", n, len(p), off, got, err)
				}
				if (err == io.EOF) != (want < len(p) || off == n) || err != nil && err != io.EOF {
					t.Fatalf("msg %d: ReadAt(%d bytes, %d) error %v", n, len(p), off, err)
				}
			}
			if _, err := ra.ReadAt(make([]byte, 1), -1); err == nil {
				t.Errorf("msg %d: negative offset accepted", n)
			}

			// Alter every byte of a short message, a sample of a long one.
			positions := []int{}
			for i := range sealed {
				if len(sealed) < 200 || i%(len(sealed)/40) == 0 || i >= len(sealed)-20 {
					positions = append(positions, i)
				}
			}
			for _, i := range positions {
				bad := bytes.Clone(sealed)
				bad[i] ^= byte(1 + r.IntN(255))
				if ra, err := NewReaderAt(a, nonce, bytes.NewReader(bad), int64(len(bad)), ad); err == nil || ra != nil {
					t.Fatalf("msg %d: NewReaderAt accepted a change at byte %d", n, i)
				}
			}
			if ra, err := NewReaderAt(a, nonce, bytes.NewReader(sealed), int64(len(sealed)), append(ad, 0)); err == nil || ra != nil {
				t.Fatalf("msg %d: NewReaderAt accepted changed associated data", n)
			}
			if _, err := NewReaderAt(a, nonce, bytes.NewReader(sealed[:len(sealed)-1]), int64(len(sealed)), ad); err == nil {
				t.Fatalf("msg %d: NewReaderAt accepted a short read", n)
			}
		}
	})
}

// TestReaderAtReadsOnlyTheRange checks that ReadAt reads only the blocks
// that cover the range it is asked for.
func TestReaderAtReadsOnlyTheRange(t *testing.T) {
	a, _ := New(make([]byte, 16))
	nonce := make([]byte, 12)
	pt := make([]byte, 10000)
	sealed := a.Seal(nil, nonce, pt, nil)
	rec := &recorder{r: bytes.NewReader(sealed)}
	ra, err := NewReaderAt(a, nonce, rec, int64(len(sealed)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ off, n, lo, hi int }{
		{0, 1, 0, 16}, {17, 3, 16, 32}, {15, 2, 0, 32}, {9990, 10, 9984, 10000}, {4000, 100, 4000, 4112},
		{9999, 50, 9984, 10000},
	} {
		rec.lo, rec.hi = -1, -1
		ra.ReadAt(make([]byte, c.n), int64(c.off))
		if rec.lo != c.lo || rec.hi != c.hi {
			t.Errorf("ReadAt(%d bytes, %d) read [%d, %d), want [%d, %d)", c.n, c.off, rec.lo, rec.hi, c.lo, c.hi)
		}
	}
}

type recorder struct {
	r      io.ReaderAt
	lo, hi int
}

func (r *recorder) ReadAt(p []byte, off int64) (int, error) {
	if r.lo < 0 || int(off) < r.lo {
		r.lo = int(off)
	}
	r.hi = max(r.hi, int(off)+len(p))
	return r.r.ReadAt(p, off)
}

func TestErrors(t *testing.T) {
	for _, c := range []struct{ key, nonce, tag int }{{15, 12, 16}, {16, 0, 16}, {16, 16, 16}, {16, 12, 7}, {16, 12, 17}} {
		if _, err := NewWithSizes(make([]byte, c.key), c.nonce, c.tag); err == nil {
			t.Errorf("key %d, nonce %d, tag %d accepted", c.key, c.nonce, c.tag)
		}
	}
	// The key's error stays reachable through the wrapping.
	_, err := New(make([]byte, 15))
	if ks := aes.KeySizeError(0); !errors.As(err, &ks) || ks != 15 {
		t.Errorf("New with a 15-byte key: error %v, want a wrapped KeySizeError(15)", err)
	}
	a, _ := New(make([]byte, 16))
	if _, err := NewReaderAt(a, make([]byte, 11), bytes.NewReader(make([]byte, 32)), 32, nil); err == nil {
		t.Error("NewReaderAt accepted a wrong nonce size")
	}
	if _, err := NewReaderAt(a, make([]byte, 12), bytes.NewReader(make([]byte, 15)), 15, nil); err == nil {
		t.Error("NewReaderAt accepted a message shorter than the tag")
	}
}
