package gcm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

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

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkOpen checks that a opens sealed (ciphertext || tag) to pt, and that
// it rejects sealed with one bit flipped in the tag, in the ciphertext or in
// the associated data, leaving dst's output zeroed.
func checkOpen(t *testing.T, a cipher.AEAD, nonce, ad, pt, sealed []byte) {
	t.Helper()
	if got, err := a.Open(nil, nonce, sealed, ad); err != nil || !bytes.Equal(got, pt) {
		t.Errorf("Open = %x, %v; want %x", got, err, pt)
	}
	reject := func(what string, sealed, ad []byte) {
		t.Helper()
		dst := bytes.Repeat([]byte{0xaa}, len(sealed))
		if _, err := a.Open(dst[:0], nonce, sealed, ad); err == nil {
			t.Errorf("Open accepted a changed %s", what)
		}
		if n := len(sealed) - a.Overhead(); !bytes.Equal(dst[:n], make([]byte, n)) {
			t.Errorf("failed Open with a changed %s left output behind", what)
		}
	}
	bad := bytes.Clone(sealed)
	bad[len(bad)-1] ^= 0x80
	reject("tag", bad, ad)
	if n := len(sealed) - a.Overhead(); n > 0 {
		bad := bytes.Clone(sealed)
		bad[n/2] ^= 1
		reject("ciphertext", bad, ad)
	}
	if len(ad) > 0 {
		badAD := bytes.Clone(ad)
		badAD[0] ^= 4
		reject("associated data", sealed, badAD)
	}
}

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
	readVectors(t, "gcm_spec.json", &file)
	if len(file.Vectors) != 18 {
		t.Fatalf("read %d test cases, want 18", len(file.Vectors))
	}
	paths.Run(t, func(t *testing.T) {
		for _, v := range file.Vectors {
			key, iv, ad, pt := unhex(t, v.Key), unhex(t, v.IV), unhex(t, v.AD), unhex(t, v.PT)
			want := append(unhex(t, v.CT), unhex(t, v.Tag)...)
			a, err := NewWithSizes(key, len(iv), 16)
			if err != nil {
				t.Fatal(err)
			}
			var h, j0, ghash [16]byte
			a.h.block().store(h[:])
			j := a.j0(iv)
			j.at(j.c).store(j0[:])
			sealed := a.Seal(nil, iv, pt, ad)
			load(sealed[len(pt):]).xor(a.encrypt(j.at(j.c))).store(ghash[:])
			if hex.EncodeToString(h[:]) != v.H || hex.EncodeToString(j0[:]) != v.J0 || hex.EncodeToString(ghash[:]) != v.GHASH {
				t.Errorf("case %d: H %x, Y0 %x, GHASH %x; want %s, %s, %s", v.Case, h, j0, ghash, v.H, v.J0, v.GHASH)
			}
			if !bytes.Equal(sealed, want) {
				t.Errorf("case %d: Seal = %x, want %x", v.Case, sealed, want)
			}
			checkOpen(t, a, iv, ad, pt, want)
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
	var file struct {
		NumberOfTests int
		TestGroups    []struct {
			IvSize, KeySize, TagSize int
			Tests                    []struct {
				TcID                       int `json:"tcId"`
				Key, IV, AAD, Msg, CT, Tag string
				Result                     string
				Flags                      []string
			}
		}
	}
	readVectors(t, "aes_gcm_test.json", &file)
	paths.Run(t, func(t *testing.T) {
		count := 0
		for _, g := range file.TestGroups {
			for _, c := range g.Tests {
				count++
				key, iv, ad, msg := unhex(t, c.Key), unhex(t, c.IV), unhex(t, c.AAD), unhex(t, c.Msg)
				sealed := append(unhex(t, c.CT), unhex(t, c.Tag)...)
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
					checkOpen(t, a, iv, ad, msg, sealed)
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
