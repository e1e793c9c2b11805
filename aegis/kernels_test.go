package aegis

import (
	"bytes"
	"fmt"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/impl"
	"github.com/faelabs/fae/internal/impl/impltest"
)

// allVariants lists the variants with their constructors.
var allVariants = []struct {
	v   *variant
	new func(key []byte, tagSize int) (*AEAD, error)
}{
	{v128L, New128L}, {v128X2, New128X2}, {v128X4, New128X4},
	{v256, New256}, {v256X2, New256X2}, {v256X4, New256X4},
}

// paths are aegis's kernels and its portable code, which runs on the
// bitsliced AES round of internal/aes, not on the AES engine.
var paths = impltest.Of("aegis")

func randBytes(r *mrand.ChaCha8, n int) []byte {
	b := make([]byte, n)
	r.Read(b)
	return b
}

// outputs is everything a message yields through the APIs that depend on
// the kernel: Seal, the streaming Encrypter with random splits, and the
// MAC of plaintext || ad.
func outputs(t *testing.T, a *AEAD, nonce, pt, ad []byte, splits *mrand.Rand) []byte {
	t.Helper()
	ct := a.Seal(nil, nonce, pt, ad)
	got, err := a.Open(nil, nonce, ct, ad)
	if err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s: round trip of %d bytes failed: %v", a.v.name, len(pt), err)
	}
	e := a.NewEncrypter(nonce, ad)
	stream := make([]byte, len(pt))
	for i := 0; i < len(pt); {
		n := min(len(pt)-i, splits.IntN(3*a.v.rate()))
		e.XORKeyStream(stream[i:i+n], pt[i:i+n])
		i += n
	}
	stream = append(stream, e.Tag()...)
	if !bytes.Equal(stream, ct) {
		t.Fatalf("%s: Encrypter differs from Seal for %d bytes", a.v.name, len(pt))
	}
	h, err := newMAC(a.v, a.key[:a.v.keySize], nonce, a.tagSize)
	if err != nil {
		t.Fatal(err)
	}
	h.Write(pt)
	h.Write(ad)
	return h.Sum(ct)
}

// TestKernelsAgree compares every path with the portable code for every
// variant: message lengths 0..300 byte by byte and ragged large ones, random
// associated data lengths, inputs at odd addresses, both tag sizes.
func TestKernelsAgree(t *testing.T) {
	lengths := []int{}
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 511, 512, 513, 1023, 4096+7, 16384, 65536+13, 1<<17-9)
	if testing.Short() {
		lengths = lengths[:80]
	}
	type testCase struct {
		a             *AEAD
		nonce, pt, ad []byte
		seed          uint64
		want          []byte
	}
	cases := map[string][]testCase{}
	paths.Compare(t, func() {
		for _, c := range allVariants {
			r := mrand.NewChaCha8([32]byte{byte(c.v.lanes), byte(c.v.words)})
			buf := randBytes(r, 1<<17+300)
			for _, n := range lengths {
				key, nonce := randBytes(r, c.v.keySize), randBytes(r, c.v.keySize)
				tagSize := 16 * (1 + int(r.Uint64()%2))
				s := int(r.Uint64() % 7) // unaligned
				tc := testCase{nonce: nonce, pt: buf[s : s+n], ad: buf[len(buf)-int(r.Uint64()%uint64(n+1)):], seed: r.Uint64()}
				var err error
				if tc.a, err = c.new(key, tagSize); err != nil {
					t.Fatal(err)
				}
				tc.want = outputs(t, tc.a, tc.nonce, tc.pt, tc.ad, mrand.New(mrand.NewPCG(tc.seed, 1)))
				cases[c.v.name] = append(cases[c.v.name], tc)
			}
		}
	}, func(t *testing.T) {
		for _, c := range allVariants {
			for _, tc := range cases[c.v.name] {
				if got := outputs(t, tc.a, tc.nonce, tc.pt, tc.ad, mrand.New(mrand.NewPCG(tc.seed, 1))); !bytes.Equal(got, tc.want) {
					t.Fatalf("%s: msg %d, ad %d, tag %d: output differs from generic", c.v.name, len(tc.pt), len(tc.ad), tc.a.tagSize)
				}
			}
		}
	})
}

// TestBlockOpsAgree runs the block operations of every path on every block
// count up to three turns of the kernels' loops (six blocks a turn on
// arm64), so that a loop ends after each block of a turn, against the
// portable code: absorb, enc and dec, apart and in place, and the same block
// repeated (step 0).
func TestBlockOpsAgree(t *testing.T) {
	r := mrand.NewChaCha8([32]byte{8})
	paths.Compare(t, nil, func(t *testing.T) {
		for _, c := range allVariants {
			rate := c.v.rate()
			for _, op := range []int{opAbsorb, opEnc, opDec} {
				for n := 1; n <= 19; n++ {
					for _, mode := range []string{"apart", "in place", "step 0"} {
						var want, got state
						want.v = c.v
						copy(want.s[:], randBytes(r, maxState))
						got = want
						src := randBytes(r, n*rate)
						step := rate
						if mode == "step 0" {
							step = 0
						}
						wantDst, gotDst := make([]byte, len(src)), bytes.Clone(src)
						if op == opAbsorb {
							wantDst, gotDst = nil, nil
						}
						gotSrc := src
						if mode == "in place" && op != opAbsorb {
							gotSrc = gotDst
						}
						impltest.Generic(func() { want.blocks(op, wantDst, src, n, step) })
						got.blocks(op, gotDst, gotSrc, n, step)
						if mode == "step 0" && op != opAbsorb {
							// Every block writes its output at the same place.
							wantDst, gotDst = wantDst[:rate], gotDst[:rate]
						}
						if got.s != want.s || !bytes.Equal(gotDst, wantDst) {
							t.Errorf("%s: op %d, %d blocks, %s: kernel differs from generic", c.v.name, op, n, mode)
						}
					}
				}
			}
		}
	})
}

// TestKernelsContinue switches kernels in the middle of a streamed message
// and MAC: every kernel leaves the state in the same form.
func TestKernelsContinue(t *testing.T) {
	defer impl.Reset("aegis")
	kernels := append(impl.List("aegis"), "generic")
	r := mrand.NewChaCha8([32]byte{9})
	for _, c := range allVariants {
		key, nonce := randBytes(r, c.v.keySize), randBytes(r, c.v.keySize)
		pt, ad := randBytes(r, 1000), randBytes(r, 77)
		a, _ := c.new(key, 32)
		want := a.Seal(nil, nonce, pt, ad)
		e := a.NewEncrypter(nonce, ad)
		got := make([]byte, len(pt))
		for i, k := 0, 0; i < len(pt); k++ {
			n := min(len(pt)-i, 1+int(r.Uint64()%300))
			impl.Select("aegis", kernels[k%len(kernels)])
			e.XORKeyStream(got[i:i+n], pt[i:i+n])
			i += n
		}
		impl.Select("aegis", kernels[0])
		got = append(got, e.Tag()...)
		if !bytes.Equal(got, want) {
			t.Errorf("%s: streaming across kernels differs from Seal", c.v.name)
		}
	}
}

// TestMessageKernels checks the one-call message kernels against the
// portable code on every path: messages of every length up to 600 bytes
// and associated data of every length up to 100 (so that every partial last
// block of both, for every rate, is met with whole blocks before it or
// not), both tag sizes, in place; a forged tag leaves zeros; and each
// AEAD's messages in one batch, for the batch kernels.
func TestMessageKernels(t *testing.T) {
	type size struct{ msg, ad int }
	var sizes []size
	msgs, ads := 600, 100
	if testing.Short() {
		msgs = 2*maxRate + 1
	}
	for n := 0; n <= msgs; n++ {
		sizes = append(sizes, size{n, n * 37 % (ads + 1)})
	}
	for n := 0; n <= ads; n++ {
		sizes = append(sizes, size{n * 13 % (msgs + 1), n})
	}
	r := mrand.NewChaCha8([32]byte{10})
	buf := randBytes(r, msgs+ads)
	type testCase struct {
		a       *AEAD
		nonce   []byte
		msg, ad int
		sealed  []byte
	}
	var cases []testCase
	paths.Compare(t, func() {
		for _, c := range allVariants {
			for _, tagSize := range []int{16, 32} {
				a, err := c.new(randBytes(r, c.v.keySize), tagSize)
				if err != nil {
					t.Fatal(err)
				}
				for _, s := range sizes {
					nonce := randBytes(r, c.v.keySize)
					ct := a.Seal(nil, nonce, buf[:s.msg], buf[msgs:msgs+s.ad])
					cases = append(cases, testCase{a, nonce, s.msg, s.ad, ct})
				}
			}
		}
	}, func(t *testing.T) {
		for _, tc := range cases {
			pt, ad := buf[:tc.msg], buf[msgs:msgs+tc.ad]
			name := fmt.Sprintf("%s tag %d: msg %d, ad %d", tc.a.v.name, tc.a.tagSize, tc.msg, tc.ad)
			io := make([]byte, tc.msg, len(tc.sealed))
			copy(io, pt)
			if ct := tc.a.Seal(io[:0], tc.nonce, io, ad); !bytes.Equal(ct, tc.sealed) {
				t.Fatalf("%s: in-place Seal differs from generic", name)
			}
			if got, err := tc.a.Open(io[:0], tc.nonce, io[:len(tc.sealed)], ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("%s: in-place Open failed: %v", name, err)
			}
			forged := append(io[:0], tc.sealed...)
			forged[len(forged)-1] ^= 1
			if _, err := tc.a.Open(forged[:0], tc.nonce, forged, ad); err == nil || !bytes.Equal(forged[:tc.msg], make([]byte, tc.msg)) {
				t.Fatalf("%s: Open of a forged tag: error %v, output %x", name, err, forged[:tc.msg])
			}
		}
		// The batch kernels: each AEAD's cases in one batch.
		for i := 0; i < len(cases); {
			a := cases[i].a
			var b []batch.Message
			for ; i < len(cases) && cases[i].a == a; i++ {
				tc := cases[i]
				b = append(b, batch.Message{Nonce: tc.nonce, AD: buf[msgs : msgs+tc.ad], In: buf[:tc.msg], Out: make([]byte, len(tc.sealed))})
			}
			a.SealBatch(b)
			for j := range b {
				tc := cases[i-len(b)+j]
				if !bytes.Equal(b[j].Out, tc.sealed) {
					t.Fatalf("%s tag %d: SealBatch: msg %d, ad %d differs from generic", a.v.name, a.tagSize, tc.msg, tc.ad)
				}
				b[j].In, b[j].Out = b[j].Out, make([]byte, tc.msg)
			}
			if !a.OpenBatch(b) {
				t.Fatalf("%s tag %d: OpenBatch failed", a.v.name, a.tagSize)
			}
			for j := range b {
				if tc := cases[i-len(b)+j]; !bytes.Equal(b[j].Out, buf[:tc.msg]) {
					t.Fatalf("%s tag %d: OpenBatch: msg %d, ad %d differs", a.v.name, a.tagSize, tc.msg, tc.ad)
				}
			}
		}
	})
}
