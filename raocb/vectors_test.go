package raocb

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

type vector struct {
	Key, Nonce, AD, PT, CT, Tag, Comment string
}

// readVectors decodes testdata/name into v.
func readVectors(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func unhexT(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkVectors seals and opens every vector with the kernels selected now,
// and checks that Open rejects a changed tag, ciphertext or AD.
func checkVectors(t *testing.T, vectors []vector) {
	for i, v := range vectors {
		key, nonce, ad, pt := unhexT(t, v.Key), unhexT(t, v.Nonce), unhexT(t, v.AD), unhexT(t, v.PT)
		want := append(unhexT(t, v.CT), unhexT(t, v.Tag)...)
		a, err := NewWithSizes(key, len(nonce), len(v.Tag)/2)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Errorf("vector %d %s: Seal = %x, want %x", i, v.Comment, got, want)
			continue
		}
		if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
			t.Errorf("vector %d %s: Open = %x, %v; want %x", i, v.Comment, got, err, pt)
		}
		for _, pos := range []int{0, len(want) / 2, len(want) - 1} {
			bad := bytes.Clone(want)
			bad[pos] ^= 0x40
			if _, err := a.Open(nil, nonce, bad, ad); err == nil {
				t.Errorf("vector %d %s: Open accepted a change at byte %d", i, v.Comment, pos)
			}
		}
		if len(ad) > 0 {
			bad := bytes.Clone(ad)
			bad[0] ^= 1
			if _, err := a.Open(nil, nonce, want, bad); err == nil {
				t.Errorf("vector %d %s: Open accepted changed AD", i, v.Comment)
			}
		}
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
	readVectors(t, "raocb_profile_public.json", &file)
	if len(file.Vectors) != 16 {
		t.Fatalf("got %d vectors, want 16", len(file.Vectors))
	}
	im := file.Intermediates
	a, err := NewWithSizes(unhexT(t, im.Key), len(im.Nonce)/2, im.TaglenBits/8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  [16]byte
		want string
	}{{"R1", a.r1, im.R1}, {"R2", a.r2, im.R2}, {"LA", a.la, im.LA}, {"B", a.base(unhexT(t, im.Nonce)), im.B}} {
		if hex.EncodeToString(c.got[:]) != c.want {
			t.Errorf("%s = %x, want %s", c.name, c.got, c.want)
		}
	}
	b := a.base(unhexT(t, im.Nonce))
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
	readVectors(t, "raocb_fae_vectors.json", &file)
	if len(file.Vectors) != 48 {
		t.Fatalf("got %d vectors, want 48", len(file.Vectors))
	}
	paths.Run(t, func(t *testing.T) { checkVectors(t, file.Vectors) })
}
