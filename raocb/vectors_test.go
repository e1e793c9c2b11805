package raocb

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
)

type vector struct {
	Key, Nonce, AD, PT, CT, Tag, Comment string
}

// checkVectors seals and opens every vector with the kernel selected now,
// and checks that Open rejects a changed tag, ciphertext or AD.
func checkVectors(t *testing.T, vectors []vector) {
	for i, v := range vectors {
		key, nonce, ad, pt := testkit.Hex(t, v.Key), testkit.Hex(t, v.Nonce), testkit.Hex(t, v.AD), testkit.Hex(t, v.PT)
		want := append(testkit.Hex(t, v.CT), testkit.Hex(t, v.Tag)...)
		a, err := NewWithSizes(key, len(nonce), len(v.Tag)/2)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("vector %d %s", i, v.Comment)
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Errorf("%s: Seal = %x, want %x", name, got, want)
			continue
		}
		aeadtest.CheckOpen(t, name, a, nonce, ad, pt, want)
	}
}

// TestProfileVectors runs the project's public profile vectors on every
// path: the 16 cases, and the intermediate values (R1, R2, LA, B, Δ) on
// the portable code.
func TestProfileVectors(t *testing.T) {
	var file struct {
		Intermediates struct {
			Key, Nonce, R1, R2, LA, B string
			NonceBlock                string `json:"nonce_block"`
			TaglenBits                int    `json:"taglen_bits"`
			DeltaB                    []struct {
				I     uint64
				Delta string
			} `json:"delta_B"`
			DeltaLA []struct {
				I     uint64
				Delta string
			} `json:"delta_LA"`
		}
		Vectors []vector
	}
	testkit.Load(t, "raocb_profile_public.json", &file)
	if len(file.Vectors) != 16 {
		t.Fatalf("got %d vectors, want 16", len(file.Vectors))
	}
	im := file.Intermediates
	a, err := NewWithSizes(testkit.Hex(t, im.Key), len(im.Nonce)/2, im.TaglenBits/8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  [16]byte
		want string
	}{{"R1", a.r1, im.R1}, {"R2", a.r2, im.R2}, {"LA", a.la, im.LA}, {"B", a.base(testkit.Hex(t, im.Nonce)), im.B}} {
		if hex.EncodeToString(c.got[:]) != c.want {
			t.Errorf("%s = %x, want %s", c.name, c.got, c.want)
		}
	}
	b := a.base(testkit.Hex(t, im.Nonce))
	check := func(name string, base [16]byte, i uint64, want string) {
		var d [16]byte
		a.masks(d[:], addIndex(base, i))
		if hex.EncodeToString(d[:]) != want {
			t.Errorf("Δ(%s, %d) = %x, want %s", name, i, d, want)
		}
	}
	if len(im.DeltaB) == 0 || len(im.DeltaLA) == 0 {
		t.Fatal("no Δ values in the file")
	}
	for _, d := range im.DeltaB {
		check("B", b, d.I, d.Delta)
	}
	for _, d := range im.DeltaLA {
		check("LA", a.la, d.I, d.Delta)
	}
	paths.Run(t, func(t *testing.T) { checkVectors(t, file.Vectors) })
}

// TestFaeVectors runs the vectors of an independent model for every key
// size and other nonce and tag sizes (testdata/gen_vectors.py).
func TestFaeVectors(t *testing.T) {
	var file struct{ Vectors []vector }
	testkit.Load(t, "raocb_fae_vectors.json", &file)
	if len(file.Vectors) != 48 {
		t.Fatalf("got %d vectors, want 48", len(file.Vectors))
	}
	paths.Run(t, func(t *testing.T) { checkVectors(t, file.Vectors) })
}
