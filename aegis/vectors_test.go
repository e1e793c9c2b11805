package aegis

import (
	"bytes"
	"hash"
	"os"
	"strings"
	"testing"

	"github.com/faelabs/fae/internal/testkit"
)

// The draft's vectors, as testdata/README.md describes.
type vectorFile struct {
	Algorithm     string
	Intermediates struct {
		Update *struct {
			SBefore []string `json:"S_before"`
			M0, M1  string
			M       string
			SAfter  []string `json:"S_after"`
		}
		InitialState *struct {
			Key, Nonce string
			V          [][]string
		} `json:"initial_state"`
	}
	Vectors []struct {
		Algorithm                         string
		Key, Nonce, AD, PT, CT, Tag, Data string
		Result, Comment                   string
	}
}

func readVectors(t *testing.T, name string) *vectorFile {
	t.Helper()
	var f vectorFile
	testkit.Load(t, name, &f)
	return &f
}

// variants maps the names of the vector files to the variants.
var variants = map[string]*variant{
	"aegis-128l": v128L, "aegis-128x2": v128X2, "aegis-128x4": v128X4,
	"aegis-256": v256, "aegis-256x2": v256X2, "aegis-256x4": v256X4,
}

func vectorFiles() []string {
	return []string{"aegis_128l_draft18.json", "aegis_128x2_draft18.json", "aegis_128x4_draft18.json",
		"aegis_256_draft18.json", "aegis_256x2_draft18.json", "aegis_256x4_draft18.json"}
}

// TestVectors checks every AEAD vector of the draft on every path through
// every API: Seal, Open, SealDetached, OpenDetached, DecryptUnverified and
// the streaming Encrypter and Decrypter. The vectors that must fail are
// rejected by each, and a failed Open leaves zeros.
func TestVectors(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, file := range vectorFiles() {
			f := readVectors(t, file)
			v := variants[f.Algorithm]
			for _, tv := range f.Vectors {
				key, nonce, ad := testkit.Hex(t, tv.Key), testkit.Hex(t, tv.Nonce), testkit.Hex(t, tv.AD)
				pt, ct, tag := testkit.Hex(t, tv.PT), testkit.Hex(t, tv.CT), testkit.Hex(t, tv.Tag)
				a, err := newAEAD(v, key, len(tag))
				if err != nil {
					t.Fatal(err)
				}
				name := tv.Comment
				if tv.Result == "invalid" {
					checkRejected(t, name, a, nonce, ct, tag, ad)
					continue
				}
				checkVector(t, name, a, nonce, pt, ct, tag, ad)
			}
		}
	})
}

func checkVector(t *testing.T, name string, a *AEAD, nonce, pt, ct, tag, ad []byte) {
	t.Helper()
	want := append(bytes.Clone(ct), tag...)
	if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
		t.Errorf("%s: Seal = %x, want %x", name, got, want)
	}
	if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
		t.Errorf("%s: Open = %x, %v", name, got, err)
	}
	if c, tg := a.SealDetached(nil, nonce, pt, ad); !bytes.Equal(c, ct) || !bytes.Equal(tg, tag) {
		t.Errorf("%s: SealDetached = %x, %x", name, c, tg)
	}
	if got, err := a.OpenDetached(nil, nonce, ct, tag, ad); err != nil || !bytes.Equal(got, pt) {
		t.Errorf("%s: OpenDetached = %x, %v", name, got, err)
	}
	if got, tg := a.DecryptUnverified(nil, nonce, ct, ad); !bytes.Equal(got, pt) || !bytes.Equal(tg, tag) {
		t.Errorf("%s: DecryptUnverified = %x, %x", name, got, tg)
	}
	e := a.NewEncrypter(nonce, ad)
	c := make([]byte, len(pt))
	for i := range pt {
		e.XORKeyStream(c[i:i+1], pt[i:i+1])
	}
	if tg := e.Tag(); !bytes.Equal(c, ct) || !bytes.Equal(tg, tag) {
		t.Errorf("%s: Encrypter byte by byte = %x, %x", name, c, tg)
	}
	d := a.NewDecrypter(nonce, ad)
	p := make([]byte, len(ct))
	d.XORKeyStream(p, ct)
	if err := d.Verify(tag); err != nil || !bytes.Equal(p, pt) {
		t.Errorf("%s: Decrypter = %x, %v", name, p, err)
	}
}

func checkRejected(t *testing.T, name string, a *AEAD, nonce, ct, tag, ad []byte) {
	t.Helper()
	out := bytes.Repeat([]byte{0xa5}, len(ct))
	if got, err := a.Open(out[:0], nonce, append(bytes.Clone(ct), tag...), ad); err == nil || got != nil {
		t.Errorf("%s: Open accepted a vector that must fail", name)
	}
	if !bytes.Equal(out, make([]byte, len(ct))) {
		t.Errorf("%s: failed Open left %x in its output", name, out)
	}
	if _, err := a.OpenDetached(nil, nonce, ct, tag, ad); err == nil {
		t.Errorf("%s: OpenDetached accepted a vector that must fail", name)
	}
	if _, tg := a.DecryptUnverified(nil, nonce, ct, ad); bytes.Equal(tg, tag) {
		t.Errorf("%s: DecryptUnverified computed the tag of a vector that must fail", name)
	}
	d := a.NewDecrypter(nonce, ad)
	d.XORKeyStream(make([]byte, len(ct)), ct)
	if d.Verify(tag) == nil {
		t.Errorf("%s: Decrypter accepted a vector that must fail", name)
	}
}

// TestIntermediates checks the draft's Update vectors (A.2.1, A.3.1) and
// the X variants' states after Init (A.4.1 to A.7.1) on every path.
func TestIntermediates(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, file := range vectorFiles() {
			f := readVectors(t, file)
			v := variants[f.Algorithm]
			ws := v.wordSize()
			if u := f.Intermediates.Update; u != nil {
				st := state{v: v}
				for j, w := range u.SBefore {
					copy(st.s[16*j:], testkit.Hex(t, w))
				}
				m := testkit.Hex(t, u.M0+u.M1+u.M)
				st.blocks(opAbsorb, nil, m, 1, len(m))
				for j, w := range u.SAfter {
					if got := st.s[16*j : 16*j+16]; !bytes.Equal(got, testkit.Hex(t, w)) {
						t.Errorf("%s Update: S%d = %x, want %s", v.name, j, got, w)
					}
				}
			}
			if in := f.Intermediates.InitialState; in != nil {
				var st state
				st.init(v, testkit.Hex(t, in.Key), testkit.Hex(t, in.Nonce))
				for j, lanes := range in.V {
					for i, w := range lanes {
						if got := st.s[j*ws+16*i : j*ws+16*i+16]; !bytes.Equal(got, testkit.Hex(t, w)) {
							t.Errorf("%s Init: V[%d,%d] = %x, want %s", v.name, j, i, got, w)
						}
					}
				}
			}
		}
	})
}

var macs = map[string]func(key, nonce []byte, tagSize int) (hash.Hash, error){
	"aegis-128l-mac": NewMAC128L, "aegis-128x2-mac": NewMAC128X2, "aegis-128x4-mac": NewMAC128X4,
	"aegis-256-mac": NewMAC256, "aegis-256x2-mac": NewMAC256X2, "aegis-256x4-mac": NewMAC256X4,
}

// TestMACVectors checks the AEGISMAC vectors of the draft (A.8) on every
// path, with the data written at once and byte by byte, and Sum's
// independence from later writes.
func TestMACVectors(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		f := readVectors(t, "aegis_mac_draft18.json")
		seen := map[string]bool{}
		for _, tv := range f.Vectors {
			key, nonce, data, tag := testkit.Hex(t, tv.Key), testkit.Hex(t, tv.Nonce), testkit.Hex(t, tv.Data), testkit.Hex(t, tv.Tag)
			seen[tv.Algorithm] = true
			h, err := macs[tv.Algorithm](key, nonce, len(tag))
			if err != nil {
				t.Fatalf("%s: %v", tv.Comment, err)
			}
			h.Write(data)
			if got := h.Sum(nil); !bytes.Equal(got, tag) {
				t.Errorf("%s: tag %x, want %x", tv.Comment, got, tag)
			}
			h.Reset()
			for i := range data {
				h.Write(data[i : i+1])
			}
			if got := h.Sum([]byte("x")); !bytes.Equal(got, append([]byte("x"), tag...)) {
				t.Errorf("%s: byte by byte: %x, want x || %x", tv.Comment, got, tag)
			}
			h.Write([]byte{0})
			if got := h.Sum(nil); bytes.Equal(got, tag) {
				t.Errorf("%s: Write after Sum did not change the tag", tv.Comment)
			}
		}
		if len(seen) != len(macs) {
			t.Errorf("vectors for %d MACs, want %d", len(seen), len(macs))
		}
	})
}

// TestVectorFilesNameSources keeps every vector file tied to its source.
func TestVectorFilesNameSources(t *testing.T) {
	readme, err := os.ReadFile("testdata/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(vectorFiles(), "aegis_mac_draft18.json") {
		if !strings.Contains(string(readme), name) {
			t.Errorf("testdata/README.md does not name the source of %s", name)
		}
	}
}
