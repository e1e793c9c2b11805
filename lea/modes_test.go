package lea_test

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	mrand "math/rand/v2"
	"testing"

	"github.com/faelabs/fae"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/internal/testkit"
	"github.com/faelabs/fae/lea"
)

// leaModes are the registry's algorithms over LEA.
var leaModes = []string{"lea-128-ocb3", "lea-256-ocb3", "lea-128-gcm", "lea-128-ccm"}

// paths are LEA's kernels, which the modes over LEA run on (OCB3's fused
// kernels among them).
var paths = impltest.Of("lea")

// TestModesBouncyCastle checks the registry's LEA modes, on every path,
// against testdata/modes_bc.json: vectors that Bouncy Castle's LEA
// computed under its OCB, GCM and CCM (see testdata/gen_bc.java).
func TestModesBouncyCastle(t *testing.T) {
	var f struct {
		Vectors []struct {
			Name                   string
			TagSize                int `json:"tag_size"`
			Key, Nonce, AD, PT, CT string
		}
	}
	testkit.Load(t, "modes_bc.json", &f)
	seen := map[string]int{}
	paths.Run(t, func(t *testing.T) {
		for i, v := range f.Vectors {
			seen[v.Name]++
			key, nonce, ad, pt, ct := testkit.Hex(t, v.Key), testkit.Hex(t, v.Nonce), testkit.Hex(t, v.AD), testkit.Hex(t, v.PT), testkit.Hex(t, v.CT)
			a, err := fae.New(v.Name, key, fae.WithNonceSize(len(nonce)), fae.WithTagSize(v.TagSize))
			if err != nil {
				t.Fatalf("vector %d: %v", i, err)
			}
			if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, ct) {
				t.Errorf("vector %d (%s, %d bytes): Seal = %x, want %x", i, v.Name, len(pt), got, ct)
			}
			if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
				t.Errorf("vector %d (%s, %d bytes): Open failed: %v", i, v.Name, len(pt), err)
			}
		}
	})
	for _, name := range leaModes {
		if seen[name] == 0 {
			t.Errorf("no vectors for %s", name)
		}
	}
}

// TestModesConformance runs the registry's LEA modes through the
// conformance suite on every path. Allocations are left to the
// root package's TestConformance: they depend on the modes, not on LEA.
func TestModesConformance(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, name := range leaModes {
			t.Run(name, func(t *testing.T) {
				key := make([]byte, 16)
				if name == "lea-256-ocb3" {
					key = make([]byte, 32)
				}
				rand.Read(key)
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return fae.New(name, key) }, aeadtest.AllowAllocs())
			})
		}
	})
}

// TestGCMAgreesWithGo compares lea-128-gcm with Go's generic GCM over the
// LEA block, for every tag size, on random messages.
func TestGCMAgreesWithGo(t *testing.T) {
	r := mrand.New(mrand.NewPCG(7, 8))
	key := make([]byte, 16)
	rand.Read(key)
	b, err := lea.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3000)
	rand.Read(buf)
	for tagSize := 12; tagSize <= 16; tagSize++ {
		a, err := fae.New("lea-128-gcm", key, fae.WithTagSize(tagSize))
		if err != nil {
			t.Fatal(err)
		}
		g, err := cipher.NewGCMWithTagSize(b, tagSize)
		if err != nil {
			t.Fatal(err)
		}
		for range 50 {
			nonce, ad, pt := buf[:12], buf[100:100+r.IntN(100)], buf[200:200+r.IntN(2800)]
			rand.Read(nonce)
			want := g.Seal(nil, nonce, pt, ad)
			if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
				t.Fatalf("tag %d, %d bytes: Seal differs from Go's GCM", tagSize, len(pt))
			}
			if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("tag %d, %d bytes: Open of Go's GCM output failed: %v", tagSize, len(pt), err)
			}
		}
	}
}

// TestGCMShortTagWritesInBounds checks that Seal with a short tag writes
// nothing past its output, even within dst's capacity: Go's AES-GCM assembly
// does (go.dev/issue/80288), which the registry mends for AES; the generic
// GCM that LEA gets must not need it.
func TestGCMShortTagWritesInBounds(t *testing.T) {
	key := make([]byte, 16)
	for tagSize := 12; tagSize < 16; tagSize++ {
		a, err := fae.New("lea-128-gcm", key, fae.WithTagSize(tagSize))
		if err != nil {
			t.Fatal(err)
		}
		for n := range 64 {
			out := make([]byte, n+tagSize+32)
			for i := range out {
				out[i] = 0xa5
			}
			a.Seal(out[:0], make([]byte, 12), make([]byte, n), nil)
			for i := n + tagSize; i < len(out); i++ {
				if out[i] != 0xa5 {
					t.Fatalf("tag %d, %d bytes: Seal wrote byte %d past its output", tagSize, n, i-n-tagSize)
				}
			}
		}
	}
}

// BenchmarkModes measures the registry's LEA modes on every path,
// with room in dst.
func BenchmarkModes(b *testing.B) {
	for _, name := range leaModes {
		key := make([]byte, 16)
		if name == "lea-256-ocb3" {
			key = make([]byte, 32)
		}
		for _, op := range []string{"seal", "open"} {
			b.Run(name+"/"+op, func(b *testing.B) {
				aeadtest.Benchmark(b, paths, op == "open", func() (cipher.AEAD, error) { return fae.New(name, key) })
			})
		}
	}
}
