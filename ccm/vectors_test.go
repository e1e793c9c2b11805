package ccm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
)

// both returns the AEAD of New and that of NewFromBlock over crypto/aes for
// the same parameters.
func both(t *testing.T, key []byte, nonceSize, tagSize int) map[string]cipher.AEAD {
	t.Helper()
	a, err := NewWithSizes(key, nonceSize, tagSize)
	if err != nil {
		t.Fatal(err)
	}
	block, err := stdaes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	fromBlock, err := NewFromBlock(block, nonceSize, tagSize)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]cipher.AEAD{"New": a, "NewFromBlock": fromBlock}
}

// checkVector seals and opens one known answer with New and NewFromBlock.
func checkVector(t *testing.T, name string, key, nonce, ad, pt, ct, tag []byte) {
	t.Helper()
	want := append(bytes.Clone(ct), tag...)
	for ctor, a := range both(t, key, len(nonce), len(tag)) {
		name := ctor + ": " + name
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Errorf("%s: Seal = %x, want %x", name, got, want)
		}
		aeadtest.CheckOpen(t, name, a, nonce, ad, pt, want)
	}
}

// TestRFC3610 runs the 24 packet vectors of RFC 3610, Section 8, on every
// path.
func TestRFC3610(t *testing.T) {
	var file struct {
		Vectors []struct {
			Packet                      int
			Key, Nonce, AD, PT, CT, Tag string
		}
	}
	testkit.Load(t, "rfc3610.json", &file)
	if len(file.Vectors) != 24 {
		t.Fatalf("got %d vectors, want 24", len(file.Vectors))
	}
	paths.Run(t, func(t *testing.T) {
		for _, v := range file.Vectors {
			checkVector(t, fmt.Sprintf("packet vector #%d", v.Packet), testkit.Hex(t, v.Key), testkit.Hex(t, v.Nonce),
				testkit.Hex(t, v.AD), testkit.Hex(t, v.PT), testkit.Hex(t, v.CT), testkit.Hex(t, v.Tag))
		}
	})
}

// TestSP80038C runs the four examples of NIST SP 800-38C, Appendix C; the
// fourth has 64 KiB of associated data, which takes the 6-byte length
// encoding.
func TestSP80038C(t *testing.T) {
	var file struct {
		Vectors []struct {
			Example                     string
			Key, Nonce, AD, PT, CT, Tag string
			ADRepeat                    string `json:"ad_repeat"`
			ADRepeatCount               int    `json:"ad_repeat_count"`
		}
	}
	testkit.Load(t, "sp800_38c.json", &file)
	if len(file.Vectors) != 4 {
		t.Fatalf("got %d vectors, want 4", len(file.Vectors))
	}
	paths.Run(t, func(t *testing.T) {
		for _, v := range file.Vectors {
			ad := append(testkit.Hex(t, v.AD), bytes.Repeat(testkit.Hex(t, v.ADRepeat), v.ADRepeatCount)...)
			checkVector(t, "example "+v.Example, testkit.Hex(t, v.Key), testkit.Hex(t, v.Nonce),
				ad, testkit.Hex(t, v.PT), testkit.Hex(t, v.CT), testkit.Hex(t, v.Tag))
		}
	})
}

// TestWycheproof runs Project Wycheproof's AES-CCM vectors: valid ones must
// seal and open, those with a modified tag must fail to open, and those with
// a nonce or tag size CCM does not allow must fail in New. fae supports all
// the sizes of the valid vectors, so none is skipped.
func TestWycheproof(t *testing.T) {
	var file testkit.Wycheproof
	testkit.Load(t, "aes_ccm_test.json", &file)
	paths.Run(t, func(t *testing.T) {
		var valid, forged, badSizes, skipped int
		for _, g := range file.TestGroups {
			for _, tc := range g.Tests {
				name := fmt.Sprintf("tcId %d (%s)", tc.TcID, tc.Flags)
				key, nonce := testkit.Hex(t, tc.Key), testkit.Hex(t, tc.IV)
				ad, msg := testkit.Hex(t, tc.AAD), testkit.Hex(t, tc.Msg)
				ct, tag := testkit.Hex(t, tc.CT), testkit.Hex(t, tc.Tag)
				if len(nonce)*8 != g.IvSize || len(tag)*8 != g.TagSize || len(key)*8 != g.KeySize {
					t.Fatalf("%s: sizes differ from the group's", name)
				}
				_, err := NewWithSizes(key, len(nonce), len(tag))
				switch {
				case err != nil && tc.Result == "invalid":
					badSizes++
					continue
				case err != nil:
					skipped++
					t.Logf("%s: skipped: %v", name, err)
					continue
				}
				sealed := append(bytes.Clone(ct), tag...)
				for ctor, a := range both(t, key, len(nonce), len(tag)) {
					name := ctor + ": " + name
					got := a.Seal(nil, nonce, msg, ad)
					opened, err := a.Open(nil, nonce, sealed, ad)
					switch tc.Result {
					case "valid":
						if !bytes.Equal(got, sealed) {
							t.Errorf("%s: Seal = %x, want %x", name, got, sealed)
						}
						if err != nil || !bytes.Equal(opened, msg) {
							t.Errorf("%s: Open = %x, %v; want %x", name, opened, err, msg)
						}
					case "invalid":
						if err == nil || opened != nil {
							t.Errorf("%s: Open accepted an invalid ciphertext", name)
						}
					default:
						t.Fatalf("%s: unknown result %q", name, tc.Result)
					}
				}
				if tc.Result == "valid" {
					valid++
				} else {
					forged++
				}
			}
		}
		if total := valid + forged + badSizes + skipped; total != file.NumberOfTests {
			t.Errorf("ran %d vectors, the file has %d", total, file.NumberOfTests)
		}
		if skipped != 0 {
			t.Errorf("%d vectors skipped", skipped)
		}
		t.Logf("%d valid, %d invalid rejected by Open, %d invalid sizes rejected by New, %d skipped",
			valid, forged, badSizes, skipped)
	})
}

// pattern returns the bytes (i*7 + seed) mod 256 of testdata/gen_large.py.
func pattern(n, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + seed)
	}
	return b
}

// TestLarge checks long messages and associated data against OpenSSL (see
// testdata/large.json): both 2-byte and 6-byte associated data length
// encodings, and messages up to the limit of a 2-byte counter.
func TestLarge(t *testing.T) {
	var file struct {
		Vectors []struct {
			KeySize     int    `json:"key_size"`
			NonceSize   int    `json:"nonce_size"`
			TagSize     int    `json:"tag_size"`
			ADLen       int    `json:"ad_len"`
			PTLen       int    `json:"pt_len"`
			CTTagSHA256 string `json:"ct_tag_sha256"`
			Tag         string
		}
	}
	testkit.Load(t, "large.json", &file)
	paths.Run(t, func(t *testing.T) {
		for _, v := range file.Vectors {
			key, nonce := pattern(v.KeySize, 1), pattern(v.NonceSize, 2)
			ad, pt := pattern(v.ADLen, 3), pattern(v.PTLen, 4)
			for ctor, a := range both(t, key, v.NonceSize, v.TagSize) {
				name := fmt.Sprintf("%s: key %d, nonce %d, tag %d, ad %d, pt %d",
					ctor, v.KeySize, v.NonceSize, v.TagSize, v.ADLen, v.PTLen)
				got := a.Seal(nil, nonce, pt, ad)
				if sum := sha256.Sum256(got); hex.EncodeToString(sum[:]) != v.CTTagSHA256 ||
					hex.EncodeToString(got[len(got)-v.TagSize:]) != v.Tag {
					t.Errorf("%s: Seal gives SHA-256 %x and tag %x, want %s and %s",
						name, sum, got[len(got)-v.TagSize:], v.CTTagSHA256, v.Tag)
					continue
				}
				aeadtest.CheckOpen(t, name, a, nonce, ad, pt, got)
			}
		}
	})
}
