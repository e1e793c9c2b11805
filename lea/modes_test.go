package lea_test

import (
	"bytes"
	"crypto/cipher"
	"crypto/rand"
	mrand "math/rand/v2"
	"strings"
	"testing"

	"github.com/faelabs/fae"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/impl/impltest"
	"github.com/faelabs/fae/internal/testkit"
	"github.com/faelabs/fae/lea"
)

// leaModes are the registry's algorithms over LEA.
var leaModes = []string{"lea-128-ocb3", "lea-256-ocb3", "lea-128-gcm", "lea-256-gcm", "lea-128-ccm"}

// modeKey returns a key of the size of mode name.
func modeKey(name string) []byte {
	if strings.HasPrefix(name, "lea-256") {
		return make([]byte, 32)
	}
	return make([]byte, 16)
}

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
				key := modeKey(name)
				rand.Read(key)
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return fae.New(name, key) }, aeadtest.AllowAllocs())
			})
		}
	})
}

// TestGCMAgreesWithGo compares the registry's LEA-GCMs, fae's gcm over
// LEA, with Go's generic GCM over the LEA block, for every tag size and for
// other nonce sizes, on random messages.
func TestGCMAgreesWithGo(t *testing.T) {
	r := mrand.New(mrand.NewPCG(7, 8))
	buf := make([]byte, 3000)
	rand.Read(buf)
	for _, name := range []string{"lea-128-gcm", "lea-256-gcm"} {
		key := modeKey(name)
		rand.Read(key)
		b, err := lea.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		check := func(nonceSize, tagSize int, g cipher.AEAD) {
			a, err := fae.New(name, key, fae.WithNonceSize(nonceSize), fae.WithTagSize(tagSize))
			if err != nil {
				t.Fatal(err)
			}
			for range 50 {
				nonce, ad, pt := buf[:nonceSize], buf[100:100+r.IntN(100)], buf[200:200+r.IntN(2800)]
				rand.Read(nonce)
				want := g.Seal(nil, nonce, pt, ad)[:len(pt)+tagSize]
				if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
					t.Fatalf("%s, nonce %d, tag %d, %d bytes: Seal differs from Go's GCM", name, nonceSize, tagSize, len(pt))
				}
				if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("%s, nonce %d, tag %d, %d bytes: Open of Go's GCM output failed: %v", name, nonceSize, tagSize, len(pt), err)
				}
			}
		}
		for tagSize := 12; tagSize <= 16; tagSize++ {
			g, err := cipher.NewGCMWithTagSize(b, tagSize)
			if err != nil {
				t.Fatal(err)
			}
			check(12, tagSize, g)
		}
		// Go's GCM cannot combine another nonce size with a short tag;
		// the short tag is the full one's prefix.
		for _, nonceSize := range []int{1, 8, 16, 60} {
			g, err := cipher.NewGCMWithNonceSize(b, nonceSize)
			if err != nil {
				t.Fatal(err)
			}
			check(nonceSize, 13, g)
		}
	}
}

// BenchmarkModes measures the registry's LEA modes on every path,
// with room in dst.
func BenchmarkModes(b *testing.B) {
	for _, name := range leaModes {
		key := modeKey(name)
		for _, op := range []string{"seal", "open"} {
			b.Run(name+"/"+op, func(b *testing.B) {
				aeadtest.Benchmark(b, paths, op == "open", func() (cipher.AEAD, error) { return fae.New(name, key) })
			})
		}
	}
}
