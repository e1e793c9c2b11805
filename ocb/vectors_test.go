package ocb

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
)

// TestRFC7253 runs the sample results of RFC 7253 Appendix A through
// New/NewWithSizes on every path, and through NewFromBlock over
// crypto/aes.
func TestRFC7253(t *testing.T) {
	var file struct {
		Vectors []struct {
			Key, Nonce, AD, PT, CT, Tag, Comment string
		}
	}
	testkit.Load(t, "ocb3_rfc7253.json", &file)
	if len(file.Vectors) != 17 {
		t.Fatalf("got %d vectors, want 17", len(file.Vectors))
	}
	paths.Run(t, func(t *testing.T) {
		for _, v := range file.Vectors {
			key, nonce := testkit.Hex(t, v.Key), testkit.Hex(t, v.Nonce)
			ad, pt := testkit.Hex(t, v.AD), testkit.Hex(t, v.PT)
			want := append(testkit.Hex(t, v.CT), testkit.Hex(t, v.Tag)...)
			tagSize := len(v.Tag) / 2

			a, err := NewWithSizes(key, len(nonce), tagSize)
			if err != nil {
				t.Fatal(err)
			}
			block, err := stdaes.NewCipher(key)
			if err != nil {
				t.Fatal(err)
			}
			fromBlock, err := NewFromBlock(block, len(nonce), tagSize)
			if err != nil {
				t.Fatal(err)
			}
			aeads := map[string]cipher.AEAD{"NewWithSizes": a, "NewFromBlock": fromBlock}
			if len(nonce) == 12 && tagSize == 16 {
				if aeads["New"], err = New(key); err != nil {
					t.Fatal(err)
				}
			}
			for ctor, a := range aeads {
				name := ctor + ": " + v.Comment
				if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
					t.Errorf("%s: Seal = %x, want %x", name, got, want)
				}
				aeadtest.CheckOpen(t, name, a, nonce, ad, pt, want)
			}
		}
	})
}

// TestRFC7253Iterative runs the iterative test of RFC 7253 Appendix A for
// TAGLEN 128, 96 and 64 with AES-128, AES-192 and AES-256.
func TestRFC7253Iterative(t *testing.T) {
	var file struct {
		Vectors []struct {
			KeylenBits int `json:"keylen_bits"`
			TaglenBits int `json:"taglen_bits"`
			Key        string
			CLen       int    `json:"c_len"`
			CSHA256    string `json:"c_sha256"`
			Tag        string
		}
	}
	testkit.Load(t, "ocb3_rfc7253_iterative.json", &file)
	if len(file.Vectors) != 9 {
		t.Fatalf("got %d vectors, want 9", len(file.Vectors))
	}
	// num2str(x, 96)
	nonce := func(x uint64) []byte {
		n := make([]byte, 12)
		binary.BigEndian.PutUint64(n[4:], x)
		return n
	}
	paths.Run(t, func(t *testing.T) {
		for _, v := range file.Vectors {
			name := fmt.Sprintf("AES-%d TAGLEN %d", v.KeylenBits, v.TaglenBits)
			// K = zeros(KEYLEN-8) || num2str(TAGLEN, 8)
			key := make([]byte, v.KeylenBits/8)
			key[len(key)-1] = byte(v.TaglenBits)
			if !bytes.Equal(key, testkit.Hex(t, v.Key)) {
				t.Fatalf("%s: key in file is not the RFC's", name)
			}
			a, err := NewWithSizes(key, 12, v.TaglenBits/8)
			if err != nil {
				t.Fatal(err)
			}
			var c []byte
			for i := range uint64(128) {
				s := make([]byte, i)
				c = a.Seal(c, nonce(3*i+1), s, s)
				c = a.Seal(c, nonce(3*i+2), s, nil)
				c = a.Seal(c, nonce(3*i+3), nil, s)
			}
			if sum := sha256.Sum256(c); len(c) != v.CLen || hex.EncodeToString(sum[:]) != v.CSHA256 {
				t.Errorf("%s: C has length %d and SHA-256 %x, want %d and %s", name, len(c), sum, v.CLen, v.CSHA256)
			}
			want := testkit.Hex(t, v.Tag)
			if got := a.Seal(nil, nonce(385), nil, c); !bytes.Equal(got, want) {
				t.Errorf("%s: Output = %x, want %x", name, got, want)
			}
			aeadtest.CheckOpen(t, name, a, nonce(385), c, nil, want)
		}
	})
}

// opensslDerive is derive of testdata/gen_openssl.js: the first n bytes of
// SHA-256(seed || label || uint32be(0)) || SHA-256(seed || label || uint32be(1)) || ...
func opensslDerive(seed []byte, label string, n int) []byte {
	out := make([]byte, 0, n+sha256.Size)
	for i := uint32(0); len(out) < n; i++ {
		h := sha256.New()
		h.Write(seed)
		h.Write([]byte(label))
		h.Write(binary.BigEndian.AppendUint32(nil, i))
		out = h.Sum(out)
	}
	return out[:n]
}

// TestOpenSSL checks agreement with OpenSSL on the vectors of
// testdata/openssl.json (see gen_openssl.js): every nonce size, tag size and
// key size, with AD and plaintext lengths around block and buffer
// boundaries.
func TestOpenSSL(t *testing.T) {
	var file struct {
		Vectors []struct {
			Seed, Key, Nonce string
			ADLen            int     `json:"ad_len"`
			PTLen            int     `json:"pt_len"`
			AD, PT, CT       *string // present only for short fields
			CTTagSHA256      string  `json:"ct_tag_sha256"`
			Tag              string
		}
	}
	testkit.Load(t, "openssl.json", &file)

	type vector struct {
		name                  string
		key, nonce, ad, pt    []byte
		tagSize               int
		sealed                []byte // ciphertext || tag, when stored in full
		sealedSHA256, wantTag []byte
	}
	var vectors []vector
	lengths := map[int]map[string]map[int]bool{} // key size → field → values
	for _, f := range file.Vectors {
		seed := testkit.Hex(t, f.Seed)
		v := vector{
			name:    "seed " + f.Seed,
			key:     testkit.Hex(t, f.Key),
			nonce:   testkit.Hex(t, f.Nonce),
			ad:      opensslDerive(seed, "ad", f.ADLen),
			pt:      opensslDerive(seed, "pt", f.PTLen),
			tagSize: len(f.Tag) / 2,
			wantTag: testkit.Hex(t, f.Tag),
		}
		if !bytes.Equal(v.key, opensslDerive(seed, "key", len(v.key))) ||
			!bytes.Equal(v.nonce, opensslDerive(seed, "nonce", len(v.nonce))) ||
			f.AD != nil && *f.AD != hex.EncodeToString(v.ad) ||
			f.PT != nil && *f.PT != hex.EncodeToString(v.pt) {
			t.Fatalf("%s: stored bytes differ from derived ones", v.name)
		}
		if f.CT != nil {
			v.sealed = append(testkit.Hex(t, *f.CT), v.wantTag...)
		} else {
			v.sealedSHA256 = testkit.Hex(t, f.CTTagSHA256)
		}
		vectors = append(vectors, v)

		ks := len(v.key)
		if lengths[ks] == nil {
			lengths[ks] = map[string]map[int]bool{"ad": {}, "pt": {}, "nonce": {}, "tag": {}}
		}
		lengths[ks]["ad"][f.ADLen] = true
		lengths[ks]["pt"][f.PTLen] = true
		lengths[ks]["nonce"][len(v.nonce)] = true
		lengths[ks]["tag"][v.tagSize] = true
	}

	// The coverage the file promises.
	var msgLens []int
	for n := range 71 {
		msgLens = append(msgLens, n)
	}
	msgLens = append(msgLens, 127, 128, 129, 4095, 4096, 4097, 65543)
	want := map[string][]int{"ad": msgLens, "pt": msgLens}
	for n := MinNonceSize; n <= MaxNonceSize; n++ {
		want["nonce"] = append(want["nonce"], n)
	}
	for n := MinTagSize; n <= MaxTagSize; n++ {
		want["tag"] = append(want["tag"], n)
	}
	for _, ks := range []int{16, 24, 32} {
		for field, values := range want {
			for _, n := range values {
				if !lengths[ks][field][n] {
					t.Errorf("openssl.json: no vector with a %d-byte key and %s length %d", ks, field, n)
				}
			}
		}
	}

	paths.Run(t, func(t *testing.T) {
		for _, v := range vectors {
			a, err := NewWithSizes(v.key, len(v.nonce), v.tagSize)
			if err != nil {
				t.Fatal(err)
			}
			block, err := stdaes.NewCipher(v.key)
			if err != nil {
				t.Fatal(err)
			}
			fromBlock, err := NewFromBlock(block, len(v.nonce), v.tagSize)
			if err != nil {
				t.Fatal(err)
			}
			for ctor, a := range map[string]cipher.AEAD{"NewWithSizes": a, "NewFromBlock": fromBlock} {
				name := ctor + ": " + v.name
				got := a.Seal(nil, v.nonce, v.pt, v.ad)
				if v.sealed != nil {
					if !bytes.Equal(got, v.sealed) {
						t.Errorf("%s: Seal = %x, want %x", name, got, v.sealed)
						continue
					}
				} else if sum := sha256.Sum256(got); !bytes.Equal(sum[:], v.sealedSHA256) ||
					!bytes.Equal(got[len(got)-v.tagSize:], v.wantTag) {
					t.Errorf("%s: Seal gives SHA-256 %x and tag %x, want %x and %x",
						name, sum, got[len(got)-v.tagSize:], v.sealedSHA256, v.wantTag)
					continue
				}
				aeadtest.CheckOpen(t, name, a, v.nonce, v.ad, v.pt, got)
			}
		}
	})
}
