package rocca

import (
	"bytes"
	"testing"

	"github.com/faelabs/fae/internal/testkit"
)

// vector is one entry of testdata/rocca_s_draft.json, whose "source" field
// names where the vectors come from (draft-nakano-rocca-s-05 Appendix A.2,
// and two more from zig-rocca-s).
type vector struct {
	Key, Nonce, AD, PT, CT, Tag, Comment string
}

func readVectors(t *testing.T) []vector {
	t.Helper()
	var f struct{ Vectors []vector }
	testkit.Load(t, "rocca_s_draft.json", &f)
	if len(f.Vectors) != 9 {
		t.Fatalf("%d vectors, want 9", len(f.Vectors))
	}
	return f.Vectors
}

// TestVectors checks every vector on every kernel through every API: Seal,
// Open, the detached pair, DecryptUnverified and the incremental
// Encrypter and Decrypter fed one byte at a time, and rejects the vector
// with its tag's last bit flipped.
func TestVectors(t *testing.T) {
	vs := readVectors(t)
	paths.Run(t, func(t *testing.T) {
		for _, v := range vs {
			key, nonce, ad := testkit.Hex(t, v.Key), testkit.Hex(t, v.Nonce), testkit.Hex(t, v.AD)
			pt, ct, tag := testkit.Hex(t, v.PT), testkit.Hex(t, v.CT), testkit.Hex(t, v.Tag)
			a, err := New(key)
			if err != nil {
				t.Fatal(err)
			}
			sealed := append(bytes.Clone(ct), tag...)
			if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, sealed) {
				t.Errorf("%s: Seal = %x, want %x", v.Comment, got, sealed)
			}
			if got, err := a.Open(nil, nonce, sealed, ad); err != nil || !bytes.Equal(got, pt) {
				t.Errorf("%s: Open = %x, %v", v.Comment, got, err)
			}
			c, tg := a.SealDetached(nil, nonce, pt, ad)
			if !bytes.Equal(c, ct) || !bytes.Equal(tg, tag) {
				t.Errorf("%s: SealDetached = %x, %x", v.Comment, c, tg)
			}
			if got, err := a.OpenDetached(nil, nonce, ct, tag, ad); err != nil || !bytes.Equal(got, pt) {
				t.Errorf("%s: OpenDetached = %x, %v", v.Comment, got, err)
			}
			if got, tg := a.DecryptUnverified(nil, nonce, ct, ad); !bytes.Equal(got, pt) || !bytes.Equal(tg, tag) {
				t.Errorf("%s: DecryptUnverified = %x, %x", v.Comment, got, tg)
			}
			e, d := a.NewEncrypter(nonce, ad), a.NewDecrypter(nonce, ad)
			gotCT, gotPT := make([]byte, len(pt)), make([]byte, len(ct))
			for i := range pt {
				e.XORKeyStream(gotCT[i:i+1], pt[i:i+1])
				d.XORKeyStream(gotPT[i:i+1], ct[i:i+1])
			}
			if tg := e.Tag(); !bytes.Equal(gotCT, ct) || !bytes.Equal(tg, tag) {
				t.Errorf("%s: Encrypter = %x, %x", v.Comment, gotCT, tg)
			}
			if err := d.Verify(tag); err != nil || !bytes.Equal(gotPT, pt) {
				t.Errorf("%s: Decrypter = %x, %v", v.Comment, gotPT, err)
			}
			sealed[len(sealed)-1] ^= 1
			if _, err := a.Open(nil, nonce, sealed, ad); err == nil {
				t.Errorf("%s: Open accepted a wrong tag", v.Comment)
			}
		}
	})
}
