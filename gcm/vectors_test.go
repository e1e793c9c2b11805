package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
	"github.com/faelabs/fae/internal/words"
)

// TestSpecVectors checks the 18 test cases of McGrew and Viega's GCM
// specification, with their hash key H, first counter block Y0 and GHASH, on
// every path, and over crypto/aes through NewFromBlock.
func TestSpecVectors(t *testing.T) {
	var file struct {
		Vectors []struct {
			Case                                   int
			Key, IV, AD, PT, H, J0, GHASH, CT, Tag string
		}
	}
	testkit.Load(t, "gcm_spec.json", &file)
	if len(file.Vectors) != 18 {
		t.Fatalf("read %d test cases, want 18", len(file.Vectors))
	}
	paths.Run(t, func(t *testing.T) {
		for _, v := range file.Vectors {
			key, iv, ad, pt := testkit.Hex(t, v.Key), testkit.Hex(t, v.IV), testkit.Hex(t, v.AD), testkit.Hex(t, v.PT)
			want := append(testkit.Hex(t, v.CT), testkit.Hex(t, v.Tag)...)
			a, err := NewWithSizes(key, len(iv), 16)
			if err != nil {
				t.Fatal(err)
			}
			var h, j0, ghash [16]byte
			a.h.block().Store(h[:])
			j := a.j0(iv)
			j.at(j.c).Store(j0[:])
			sealed := a.Seal(nil, iv, pt, ad)
			words.Load(sealed[len(pt):]).Xor(a.encrypt(j.at(j.c))).Store(ghash[:])
			if hex.EncodeToString(h[:]) != v.H || hex.EncodeToString(j0[:]) != v.J0 || hex.EncodeToString(ghash[:]) != v.GHASH {
				t.Errorf("case %d: H %x, Y0 %x, GHASH %x; want %s, %s, %s", v.Case, h, j0, ghash, v.H, v.J0, v.GHASH)
			}
			if !bytes.Equal(sealed, want) {
				t.Errorf("case %d: Seal = %x, want %x", v.Case, sealed, want)
			}
			aeadtest.CheckOpen(t, fmt.Sprintf("case %d", v.Case), a, iv, ad, pt, want)
			b, _ := stdaes.NewCipher(key)
			fb, err := NewFromBlock(b, len(iv), 16)
			if err != nil {
				t.Fatal(err)
			}
			if got := fb.Seal(nil, iv, pt, ad); !bytes.Equal(got, want) {
				t.Errorf("case %d: NewFromBlock: Seal = %x, want %x", v.Case, got, want)
			}
		}
	})
}

// TestWycheproof runs every case of Wycheproof's AES-GCM file, valid and
// invalid, on every path. Its invalid cases are changed tags, which Open
// must reject, and empty nonces, which NewWithSizes must refuse.
func TestWycheproof(t *testing.T) {
	var file testkit.Wycheproof
	testkit.Load(t, "aes_gcm_test.json", &file)
	paths.Run(t, func(t *testing.T) {
		count := 0
		for _, g := range file.TestGroups {
			for _, c := range g.Tests {
				count++
				key, iv, ad, msg := testkit.Hex(t, c.Key), testkit.Hex(t, c.IV), testkit.Hex(t, c.AAD), testkit.Hex(t, c.Msg)
				sealed := append(testkit.Hex(t, c.CT), testkit.Hex(t, c.Tag)...)
				a, err := NewWithSizes(key, len(iv), g.TagSize/8)
				if err != nil {
					if c.Result != "invalid" || len(iv) != 0 {
						t.Errorf("tcId %d: %v", c.TcID, err)
					}
					continue
				}
				switch c.Result {
				case "valid":
					if got := a.Seal(nil, iv, msg, ad); !bytes.Equal(got, sealed) {
						t.Errorf("tcId %d (%v): Seal = %x, want %x", c.TcID, c.Flags, got, sealed)
					}
					aeadtest.CheckOpen(t, fmt.Sprintf("tcId %d", c.TcID), a, iv, ad, msg, sealed)
				case "invalid":
					if _, err := a.Open(nil, iv, sealed, ad); err == nil {
						t.Errorf("tcId %d (%v): Open accepted an invalid message", c.TcID, c.Flags)
					}
				default:
					t.Fatalf("tcId %d: result %q", c.TcID, c.Result)
				}
			}
		}
		if count != file.NumberOfTests {
			t.Errorf("ran %d cases, the file has %d", count, file.NumberOfTests)
		}
	})
}
