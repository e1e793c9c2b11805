// Package aeadtest is the conformance suite every cipher.AEAD in fae runs,
// after the standard library's crypto/internal/cryptotest.
//
// Known-answer vectors stay with each algorithm; this suite checks what the
// cipher.AEAD contract and the standard library's AEADs promise beyond them:
// round trips over many lengths, rejection of every single-bit change,
// no plaintext left behind by a failed Open, the in-place and overlap rules
// (output over the input other than exactly, over the tag or over the
// additional data panics, as in crypto/cipher's GCM), append semantics, panics on misuse, determinism, untouched inputs, safe
// concurrent use and no allocations when dst has room.
//
// It also holds what the AEAD packages' tests and benchmarks share beyond
// the suite: CheckOpen for known answers, TestParallel for AEADs that spread
// a message over goroutines, and Benchmark and BenchmarkNew.
package aeadtest

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/internal/testkit"
)

// An Option adjusts the suite.
type Option func(*config)

type config struct {
	allowAllocs  bool
	uncheckedTag bool
	short        bool // the -short grids
	maxMessage   int  // 0: no limit
}

// MaxMessageSize caps the plaintext lengths the suite tries, for AEADs whose
// parameters bound the message (CCM with long nonces).
func MaxMessageSize(n int) Option {
	return func(c *config) { c.maxMessage = n }
}

// AllowAllocs leaves out TestNoAllocs, for AEADs fae offers but does not
// implement: x/crypto's ChaCha20-Poly1305 allocates on its portable path.
func AllowAllocs() Option {
	return func(c *config) { c.allowAllocs = true }
}

// newConfig applies opts to the default configuration.
func newConfig(opts []Option) config {
	c := config{short: testing.Short()}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Sparse runs the -short grids even without -short, for AEADs where each
// call is costly: package gpu's on its emulator, where every call costs
// kernel launches that each fill the kernel's shared tables.
func Sparse() Option {
	return func(c *config) { c.short = true }
}

// UncheckedTagOverlap lets Open accept an output that overlaps only the tag
// (failing, since it overwrites the tag first), for AEADs fae offers but
// does not implement: x/crypto's ChaCha20-Poly1305 on amd64 checks its
// output against the ciphertext without the tag. crypto/cipher's GCM and
// fae's AEADs panic.
func UncheckedTagOverlap() Option {
	return func(c *config) { c.uncheckedTag = true }
}

// TestAEAD runs the suite on the AEADs newAEAD returns. Every call of newAEAD
// must return an AEAD with the same key and parameters: the suite creates
// several and expects them to agree. Each check is a subtest; the last is
// TestNoAllocs.
func TestAEAD(t *testing.T, newAEAD func() (cipher.AEAD, error), opts ...Option) {
	c := newConfig(opts)
	a := mustNew(t, newAEAD)
	if c.maxMessage > 0 {
		a = limited{a, c.maxMessage}
	}
	if a.NonceSize() < 0 || a.Overhead() <= 0 {
		t.Fatalf("NonceSize() = %d, Overhead() = %d", a.NonceSize(), a.Overhead())
	}
	t.Run("RoundTrip", func(t *testing.T) { testRoundTrip(t, a, c.short) })
	t.Run("Tamper", func(t *testing.T) { testTamper(t, a, c.short) })
	t.Run("OpenFailureLeavesNoPlaintext", func(t *testing.T) { testOpenFailure(t, a) })
	t.Run("InPlace", func(t *testing.T) { testInPlace(t, a) })
	t.Run("InexactOverlapPanics", func(t *testing.T) { testInexactOverlap(t, a, c.uncheckedTag) })
	t.Run("AdditionalDataOverlapPanics", func(t *testing.T) { testADOverlap(t, a) })
	t.Run("Append", func(t *testing.T) { testAppend(t, a) })
	t.Run("WrongNonceSizePanics", func(t *testing.T) { testWrongNonceSize(t, a) })
	t.Run("ShortCiphertext", func(t *testing.T) { testShortCiphertext(t, a) })
	t.Run("Deterministic", func(t *testing.T) { testDeterministic(t, a, mustNew(t, newAEAD)) })
	t.Run("InputsUnchanged", func(t *testing.T) { testInputsUnchanged(t, a) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, a, c.short) })
	if !c.allowAllocs {
		t.Run("Allocs", func(t *testing.T) { TestNoAllocs(t, a) })
	}
}

// TestNoAllocs checks that Seal and Open, called through the cipher.AEAD
// interface, allocate nothing when dst has room for their output. It skips
// under the race detector and the sanitizers, which change allocation.
func TestNoAllocs(t *testing.T, a cipher.AEAD) {
	if instrumented {
		t.Skip("allocation counts are not meaningful in an instrumented build")
	}
	r := newRand()
	nonce, ad := randBytes(r, a.NonceSize()), randBytes(r, 17)
	for _, n := range []int{0, 1, 16, 100, 1024, 16384} {
		pt := randBytes(r, n)
		ct := a.Seal(nil, nonce, pt, ad)
		dst := make([]byte, 0, len(ct))
		if allocs := testing.AllocsPerRun(10, func() { a.Seal(dst, nonce, pt, ad) }); allocs != 0 {
			t.Errorf("Seal of %d bytes: %v allocations, want 0", n, allocs)
		}
		var err error
		if allocs := testing.AllocsPerRun(10, func() { _, err = a.Open(dst, nonce, ct, ad) }); err != nil {
			t.Fatalf("Open of %d bytes: %v", n, err)
		} else if allocs != 0 {
			t.Errorf("Open of %d bytes: %v allocations, want 0", n, allocs)
		}
	}
}

// limited marks an AEAD whose messages are at most max bytes long.
type limited struct {
	cipher.AEAD
	max int
}

// fits reports whether a accepts a plaintext of n bytes.
func fits(a cipher.AEAD, n int) bool {
	l, ok := a.(limited)
	return !ok || n <= l.max
}

// smallMax bounds the lengths tried exhaustively: past four 16-byte blocks
// and two 32-byte ones, so every partial-block case of common layouts is hit.
const smallMax = 70

// shortCross are the lengths each length is paired with in -short runs:
// none, one byte, the edges of a 16-byte block and of two, and the most.
var shortCross = []int{0, 1, 15, 16, 17, 32, 33, smallMax}

// bigLengths straddle the block counts kernels and parallel splitting work in.
var bigLengths = []int{
	127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025,
	4095, 4096, 4097, 16383, 16384, 16385, 65535, 65536, 65537, 1<<20 + 15,
}

func testRoundTrip(t *testing.T, a cipher.AEAD, short bool) {
	r := newRand()
	nonce := randBytes(r, a.NonceSize())
	check := func(ptLen, adLen int) {
		pt, ad := randBytes(r, ptLen), randBytes(r, adLen)
		ct := a.Seal(nil, nonce, pt, ad)
		if len(ct) != ptLen+a.Overhead() {
			t.Fatalf("pt %d, ad %d: Seal wrote %d bytes, want %d", ptLen, adLen, len(ct), ptLen+a.Overhead())
		}
		if ptLen >= 16 && bytes.Contains(ct, pt) {
			t.Fatalf("pt %d, ad %d: ciphertext contains the plaintext", ptLen, adLen)
		}
		got, err := a.Open(nil, nonce, ct, ad)
		if err != nil {
			t.Fatalf("pt %d, ad %d: Open: %v", ptLen, adLen, err)
		}
		if !bytes.Equal(got, pt) {
			t.Fatalf("pt %d, ad %d: Open returned a different plaintext", ptLen, adLen)
		}
		if len(nonce) > 0 && adLen == 0 {
			other := bytes.Clone(nonce)
			other[len(other)-1] ^= 1
			if bytes.Equal(a.Seal(nil, other, pt, ad), ct) {
				t.Fatalf("pt %d, ad %d: Seal ignores the nonce", ptLen, adLen)
			}
		}
	}
	for ptLen := 0; ptLen <= smallMax; ptLen++ {
		for adLen := 0; adLen <= smallMax; adLen++ {
			// -short (the emulated runs) and Sparse sweep each length
			// against a few of the other, not the whole square.
			if short && !slices.Contains(shortCross, ptLen) && !slices.Contains(shortCross, adLen) {
				continue
			}
			check(ptLen, adLen)
		}
	}
	for _, n := range bigLengths {
		if short && n > 1<<17 {
			continue
		}
		for _, m := range []int{0, 17} {
			if fits(a, n) {
				check(n, m)
			}
			check(m, n)
		}
	}
}

// testTamper checks that Open rejects every single-bit change of the
// ciphertext, tag, nonce and additional data of small messages, a sample of
// bits of large ones, and a ciphertext or additional data one byte longer or
// shorter.
func testTamper(t *testing.T, a cipher.AEAD, short bool) {
	r := newRand()
	nonce := randBytes(r, a.NonceSize())
	reject := func(what string, nonce, ct, ad []byte) {
		t.Helper()
		if out, err := a.Open(nil, nonce, ct, ad); err == nil || out != nil {
			t.Fatalf("%s: Open returned (%d bytes, %v), want (nil, error)", what, len(out), err)
		}
	}
	try := func(ptLen, adLen int, bits func(n int) []int) {
		pt, ad := randBytes(r, ptLen), randBytes(r, adLen)
		ct := a.Seal(nil, nonce, pt, ad)
		name := fmt.Sprintf("pt %d, ad %d", ptLen, adLen)
		for _, b := range bits(len(ct)) {
			ct[b/8] ^= 1 << (b % 8)
			reject(fmt.Sprintf("%s: ciphertext bit %d flipped", name, b), nonce, ct, ad)
			ct[b/8] ^= 1 << (b % 8)
		}
		for _, b := range bits(len(nonce)) {
			n := bytes.Clone(nonce)
			n[b/8] ^= 1 << (b % 8)
			reject(fmt.Sprintf("%s: nonce bit %d flipped", name, b), n, ct, ad)
		}
		for _, b := range bits(adLen) {
			ad[b/8] ^= 1 << (b % 8)
			reject(fmt.Sprintf("%s: ad bit %d flipped", name, b), nonce, ct, ad)
			ad[b/8] ^= 1 << (b % 8)
		}
		reject(name+": ciphertext shortened", nonce, ct[:len(ct)-1], ad)
		reject(name+": ciphertext lengthened", nonce, append(bytes.Clone(ct), 0), ad)
		reject(name+": ad lengthened", nonce, ct, append(bytes.Clone(ad), 0))
		if adLen > 0 {
			reject(name+": ad shortened", nonce, ct, ad[:adLen-1])
		}
	}
	every := func(n int) []int {
		s := make([]int, 8*n)
		for i := range s {
			s[i] = i
		}
		return s
	}
	cases := [][2]int{{0, 0}, {0, 17}, {1, 0}, {15, 1}, {16, 16}, {17, 33}, {33, 17}, {64, 0}, {65, 65}}
	if short {
		cases = [][2]int{{0, 0}, {1, 0}, {15, 1}, {16, 16}, {17, 33}}
	}
	for _, c := range cases {
		try(c[0], c[1], every)
	}
	// Of longer messages, the first and last bits of each byte at the
	// edges, in the middle and at random places.
	sample := func(n int) []int {
		if n == 0 {
			return nil
		}
		var s []int
		for _, i := range []int{0, 1, n / 2, n - 17, n - 16, n - 1, int(r.Uint64() % uint64(n)), int(r.Uint64() % uint64(n))} {
			if 0 <= i && i < n {
				s = append(s, 8*i, 8*i+7)
			}
		}
		return s
	}
	for _, c := range [][2]int{{65, 65}, {4097, 0}, {0, 4097}, {65537, 1025}} {
		if fits(a, c[0]) {
			try(c[0], c[1], sample)
		}
	}
}

// sentinel fills memory Open must not write; plaintexts avoid it and zero,
// so that any byte of theirs left behind is recognisable.
const sentinel = 0xa5

func testOpenFailure(t *testing.T, a cipher.AEAD) {
	r := newRand()
	nonce := randBytes(r, a.NonceSize())
	for _, n := range []int{1, 15, 16, 17, 100, 4097, 65537} {
		if !fits(a, n) {
			continue
		}
		pt, ad := randBytes(r, n), randBytes(r, 9)
		for i := range pt {
			if pt[i] == 0 || pt[i] == sentinel {
				pt[i] = 1
			}
		}
		bad := a.Seal(nil, nonce, pt, ad)
		bad[len(bad)-1] ^= 0x80
		orig := bytes.Clone(bad)

		const prefix, extra = 5, 40
		buf := bytes.Repeat([]byte{sentinel}, prefix+n+extra)
		copy(buf, "head!")
		out, err := a.Open(buf[:prefix], nonce, bad, ad)
		if err == nil || out != nil {
			t.Fatalf("%d bytes: Open returned (%d bytes, %v), want (nil, error)", n, len(out), err)
		}
		if string(buf[:prefix]) != "head!" {
			t.Fatalf("%d bytes: failed Open changed the dst prefix", n)
		}
		for i, c := range buf[prefix : prefix+n] {
			if c != 0 && c != sentinel {
				t.Fatalf("%d bytes: failed Open left byte %d of its output as %#x, want zero or untouched", n, i, c)
			}
		}
		for i, c := range buf[prefix+n:] {
			if c != sentinel {
				t.Fatalf("%d bytes: failed Open wrote %d bytes past its output", n, i+1)
			}
		}
		if !bytes.Equal(bad, orig) {
			t.Fatalf("%d bytes: failed Open changed its ciphertext", n)
		}

		// In place: the output region holds either the ciphertext or zeros.
		out, err = a.Open(bad[:0], nonce, bad, ad)
		if err == nil || out != nil {
			t.Fatalf("%d bytes, in place: Open returned (%d bytes, %v), want (nil, error)", n, len(out), err)
		}
		for i := range n {
			if bad[i] != 0 && bad[i] != orig[i] {
				t.Fatalf("%d bytes, in place: failed Open left byte %d as %#x, want zero or the ciphertext", n, i, bad[i])
			}
		}
		if !bytes.Equal(bad[n:], orig[n:]) {
			t.Fatalf("%d bytes, in place: failed Open changed the tag", n)
		}
	}
}

var someLengths = []int{0, 1, 15, 16, 17, 64, 100, 1000, 4097, 65537}

func testInPlace(t *testing.T, a cipher.AEAD) {
	r := newRand()
	nonce := randBytes(r, a.NonceSize())
	ov := a.Overhead()
	for _, n := range someLengths {
		if !fits(a, n) {
			continue
		}
		for _, prefix := range []int{0, 3, 16} {
			pt, ad := randBytes(r, n), randBytes(r, 17)
			want := a.Seal(nil, nonce, pt, ad)

			buf := make([]byte, prefix+n, prefix+n+ov)
			start := &buf[:cap(buf)][0]
			head := randBytes(r, prefix)
			copy(buf, head)
			copy(buf[prefix:], pt)
			ct := a.Seal(buf[:prefix], nonce, buf[prefix:], ad)
			if &ct[0] != start || !bytes.Equal(ct[:prefix], head) || !bytes.Equal(ct[prefix:], want) {
				t.Fatalf("pt %d, prefix %d: in-place Seal differs from Seal into a fresh buffer", n, prefix)
			}
			got, err := a.Open(ct[:prefix], nonce, ct[prefix:], ad)
			if err != nil {
				t.Fatalf("pt %d, prefix %d: in-place Open: %v", n, prefix, err)
			}
			if len(got) != prefix+n || (len(got) > 0 && &got[0] != start) ||
				!bytes.Equal(got[:prefix], head) || !bytes.Equal(got[prefix:], pt) {
				t.Fatalf("pt %d, prefix %d: in-place Open returned a different plaintext", n, prefix)
			}
		}
	}
}

func testInexactOverlap(t *testing.T, a cipher.AEAD, uncheckedTag bool) {
	r := newRand()
	nonce, ad := randBytes(r, a.NonceSize()), randBytes(r, 5)
	ov := a.Overhead()
	const at = 200
	// overlapping returns an input at buf[at:] and dst shifted from it,
	// checking that the output region overlaps the input inexactly.
	overlapping := func(buf []byte, inLen, outLen, shift int) (in, dst []byte) {
		in, dst = buf[at:at+inLen], buf[at+shift:at+shift]
		if !alias.InexactOverlap(dst[:outLen], in) {
			panic("aeadtest: no inexact overlap set up")
		}
		return in, dst
	}
	for _, n := range []int{2, 16, 17, 100} {
		pt := randBytes(r, n)
		ct := a.Seal(nil, nonce, pt, ad)
		for _, shift := range []int{-1, 1, -n - ov + 1, n - 1} {
			in, dst := overlapping(make([]byte, 2*at+2*(n+ov)), n, n+ov, shift)
			copy(in, pt)
			testkit.MustPanic(t, fmt.Sprintf("Seal, pt %d, dst shifted by %d", n, shift), func() { a.Seal(dst, nonce, in, ad) })
		}
		for _, shift := range []int{-1, 1, -n + 1, n - 1} {
			in, dst := overlapping(make([]byte, 2*at+2*(n+ov)), n+ov, n, shift)
			copy(in, ct)
			testkit.MustPanic(t, fmt.Sprintf("Open, pt %d, dst shifted by %d", n, shift), func() { a.Open(dst, nonce, in, ad) })
		}
		// Output over the tag alone overlaps Open's input inexactly too.
		if !uncheckedTag {
			in := make([]byte, 2*(n+ov))[:n+ov]
			copy(in, ct)
			testkit.MustPanic(t, fmt.Sprintf("Open, pt %d, dst at the tag", n), func() { a.Open(in[n:n], nonce, in, ad) })
		}
	}
}

// testADOverlap checks that Seal and Open panic, as crypto/cipher's GCM and
// x/crypto's ChaCha20-Poly1305 do, when their output would overlap the
// additional data anywhere, even where it is the same memory as the input.
func testADOverlap(t *testing.T, a cipher.AEAD) {
	r := newRand()
	nonce := randBytes(r, a.NonceSize())
	ov := a.Overhead()
	for _, n := range []int{0, 1, 17, 100} {
		pt := randBytes(r, n)
		for _, adLen := range []int{1, 16, 40} {
			ad := randBytes(r, adLen)
			ct := a.Seal(nil, nonce, pt, ad)
			// The output starts at offset 64 of buf; the AD sits so that it
			// overlaps the output's first byte, its last, or all of it.
			buf := make([]byte, 512)
			for _, end := range []int{n + ov, n} {
				for _, adAt := range []int{64 - adLen + 1, 64 + end - 1, 64} {
					gAD := buf[adAt : adAt+adLen]
					if end == n+ov {
						in := buf[300 : 300+n]
						copy(in, pt)
						copy(gAD, ad)
						testkit.MustPanic(t, fmt.Sprintf("Seal of %d bytes, AD of %d at %d", n, adLen, adAt-64), func() { a.Seal(buf[64:64], nonce, in, gAD) })
					} else if n > 0 {
						in := buf[300 : 300+n+ov]
						copy(in, ct)
						copy(gAD, ad)
						testkit.MustPanic(t, fmt.Sprintf("Open of %d bytes, AD of %d at %d", n, adLen, adAt-64), func() { a.Open(buf[64:64], nonce, in, gAD) })
					}
				}
			}
		}
	}
}

// testAppend checks that Seal and Open append to dst, in place when its
// capacity allows and otherwise without writing to its array.
func testAppend(t *testing.T, a cipher.AEAD) {
	r := newRand()
	nonce, ad := randBytes(r, a.NonceSize()), randBytes(r, 3)
	for _, n := range []int{0, 1, 17, 100} {
		pt := randBytes(r, n)
		ct := a.Seal(nil, nonce, pt, ad)
		for _, prefix := range []int{1, 5, 16, 33} {
			for _, room := range []int{0, n, n + a.Overhead(), n + a.Overhead() + 7} {
				for _, op := range []struct {
					name     string
					in, want []byte
					do       func(dst []byte) ([]byte, error)
				}{
					{"Seal", pt, ct, func(dst []byte) ([]byte, error) { return a.Seal(dst, nonce, pt, ad), nil }},
					{"Open", ct, pt, func(dst []byte) ([]byte, error) { return a.Open(dst, nonce, ct, ad) }},
				} {
					dst := randBytes(r, prefix+room)[:prefix]
					orig := bytes.Clone(dst[:cap(dst)])
					got, err := op.do(dst)
					name := fmt.Sprintf("%s: in %d, prefix %d, capacity %d", op.name, len(op.in), prefix, cap(dst))
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if len(got) != prefix+len(op.want) || !bytes.Equal(got[:prefix], orig[:prefix]) || !bytes.Equal(got[prefix:], op.want) {
						t.Fatalf("%s: result is not dst followed by the output", name)
					}
					end := prefix + len(op.want)
					switch fits := room >= len(op.want); {
					case fits && &got[0] != &dst[0]:
						t.Fatalf("%s: allocated although dst has room", name)
					case fits && !bytes.Equal(dst[end:cap(dst)], orig[end:]):
						t.Fatalf("%s: wrote past its output", name)
					case !fits && !bytes.Equal(dst[:cap(dst)], orig):
						t.Fatalf("%s: wrote to dst's array, which is too small for the output", name)
					}
				}
			}
		}
	}
}

func testWrongNonceSize(t *testing.T, a cipher.AEAD) {
	r := newRand()
	ns := a.NonceSize()
	pt, ad := randBytes(r, 20), randBytes(r, 4)
	ct := a.Seal(nil, randBytes(r, ns), pt, ad)
	for _, n := range []int{0, 1, ns - 1, ns + 1, 2 * ns, 64} {
		if n < 0 || n == ns {
			continue
		}
		nonce := randBytes(r, n)
		testkit.MustPanic(t, fmt.Sprintf("Seal with a %d-byte nonce", n), func() { a.Seal(nil, nonce, pt, ad) })
		testkit.MustPanic(t, fmt.Sprintf("Open with a %d-byte nonce", n), func() { a.Open(nil, nonce, ct, ad) })
	}
}

func testShortCiphertext(t *testing.T, a cipher.AEAD) {
	r := newRand()
	nonce := randBytes(r, a.NonceSize())
	for n := range a.Overhead() {
		ct := randBytes(r, n)
		func() {
			defer func() {
				if e := recover(); e != nil {
					t.Fatalf("Open of a %d-byte ciphertext panicked: %v", n, e)
				}
			}()
			dst := []byte("prefix")
			if out, err := a.Open(dst[:1], nonce, ct, nil); err == nil || out != nil {
				t.Fatalf("Open of a %d-byte ciphertext returned (%d bytes, %v), want (nil, error)", n, len(out), err)
			}
			if string(dst) != "prefix" {
				t.Fatalf("Open of a %d-byte ciphertext wrote to dst", n)
			}
		}()
	}
}

// testDeterministic checks that the same inputs give the same output, from
// one AEAD used twice and from two made the same way.
func testDeterministic(t *testing.T, a, b cipher.AEAD) {
	r := newRand()
	nonce := randBytes(r, a.NonceSize())
	for _, n := range someLengths {
		if !fits(a, n) {
			continue
		}
		pt, ad := randBytes(r, n), randBytes(r, n%37)
		ct := a.Seal(nil, nonce, pt, ad)
		if !bytes.Equal(a.Seal(nil, nonce, pt, ad), ct) {
			t.Fatalf("pt %d: two Seals by one AEAD differ", n)
		}
		if !bytes.Equal(b.Seal(nil, nonce, pt, ad), ct) {
			t.Fatalf("pt %d: Seals by two AEADs made alike differ", n)
		}
		if got, err := b.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("pt %d: an AEAD made alike fails to open: %v", n, err)
		}
	}
}

func testInputsUnchanged(t *testing.T, a cipher.AEAD) {
	r := newRand()
	for _, n := range someLengths {
		if !fits(a, n) {
			continue
		}
		nonce, pt, ad := randBytes(r, a.NonceSize()), randBytes(r, n), randBytes(r, 33)
		n0, p0, a0 := bytes.Clone(nonce), bytes.Clone(pt), bytes.Clone(ad)
		ct := a.Seal(nil, nonce, pt, ad)
		if !bytes.Equal(nonce, n0) || !bytes.Equal(pt, p0) || !bytes.Equal(ad, a0) {
			t.Fatalf("pt %d: Seal changed its inputs", n)
		}
		c0 := bytes.Clone(ct)
		if _, err := a.Open(nil, nonce, ct, ad); err != nil {
			t.Fatalf("pt %d: Open: %v", n, err)
		}
		ct[0] ^= 1
		c0[0] ^= 1
		if _, err := a.Open(nil, nonce, ct, ad); err == nil {
			t.Fatalf("pt %d: Open accepted a changed ciphertext", n)
		}
		if !bytes.Equal(nonce, n0) || !bytes.Equal(ct, c0) || !bytes.Equal(ad, a0) {
			t.Fatalf("pt %d: Open changed its inputs", n)
		}
	}
}

// testConcurrent uses one AEAD from several goroutines at once; run with
// -race it also finds shared state written during Seal or Open.
func testConcurrent(t *testing.T, a cipher.AEAD, short bool) {
	r := newRand()
	type job struct{ nonce, pt, ad, ct []byte }
	var jobs []job
	for i, n := range []int{0, 1, 100, 1000, 4097, 70000} {
		if fits(a, n) {
			j := job{randBytes(r, a.NonceSize()), randBytes(r, n), randBytes(r, 3*i), nil}
			j.ct = a.Seal(nil, j.nonce, j.pt, j.ad)
			jobs = append(jobs, j)
		}
	}
	rounds := 20
	if short {
		rounds = len(jobs) // each goroutine runs each job once
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for k := range rounds {
				j := jobs[(g+k)%len(jobs)]
				if !bytes.Equal(a.Seal(nil, j.nonce, j.pt, j.ad), j.ct) {
					t.Errorf("goroutine %d: concurrent Seal of %d bytes differs", g, len(j.pt))
					return
				}
				if pt, err := a.Open(nil, j.nonce, j.ct, j.ad); err != nil || !bytes.Equal(pt, j.pt) {
					t.Errorf("goroutine %d: concurrent Open of %d bytes failed: %v", g, len(j.pt), err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func mustNew(t *testing.T, newAEAD func() (cipher.AEAD, error)) cipher.AEAD {
	t.Helper()
	a, err := newAEAD()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// newRand returns a generator with a fixed seed, so that a failure repeats.
func newRand() *rand.ChaCha8 {
	return rand.NewChaCha8([32]byte{'a', 'e', 'a', 'd', 't', 'e', 's', 't'})
}

func randBytes(r *rand.ChaCha8, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}
