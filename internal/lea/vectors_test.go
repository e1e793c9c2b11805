package lea

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"slices"
	"testing"

	"github.com/faelabs/fae/internal/testkit"
)

// katFile is testdata/lea_kat.json, a copy of shared/vectors/lea_kat.json:
// the standard vectors of KS X 3246 / ISO/IEC 29192-2, KCMVP entries and the
// KISA reference code's ECB, CBC and CTR vectors (its "source" field names
// each origin).
type katFile struct {
	Intermediates struct {
		LEA128 struct {
			Key  []string `json:"key_words"`
			RK0  []string `json:"rk0"`
			RK23 []string `json:"rk23"`
		} `json:"lea128_word_form"`
		Computed struct {
			RK192 []string `json:"lea192_rk27"`
			RK256 []string `json:"lea256_rk31"`
		} `json:"last_round_keys_computed"`
	} `json:"intermediates"`
	Vectors []struct {
		Algorithm, Mode, Key, IV, PT, CT, Comment string
	} `json:"vectors"`
}

func loadKAT(t *testing.T) *katFile {
	t.Helper()
	var f katFile
	testkit.Load(t, "lea_kat.json", &f)
	if len(f.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	return &f
}

// TestVectors checks every vector with every kernel: ECB through
// EncryptBlocks, DecryptBlocks and the one-block methods, CBC through
// crypto/cipher over the block, and CTR through CTRBlocks and through
// crypto/cipher over the block.
func TestVectors(t *testing.T) {
	f := loadKAT(t)
	paths.Run(t, func(t *testing.T) {
		for _, v := range f.Vectors {
			key, iv, pt, ct := testkit.Hex(t, v.Key), testkit.Hex(t, v.IV), testkit.Hex(t, v.PT), testkit.Hex(t, v.CT)
			if want := map[int]string{16: "lea-128", 24: "lea-192", 32: "lea-256"}[len(key)]; want != v.Algorithm {
				t.Fatalf("%s: %d-byte key", v.Comment, len(key))
			}
			b, err := New(key)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, len(pt))
			switch v.Mode {
			case "ecb":
				b.EncryptBlocks(got, pt)
				check(t, v.Comment, "EncryptBlocks", got, ct)
				b.DecryptBlocks(got, ct)
				check(t, v.Comment, "DecryptBlocks", got, pt)
				for i := 0; i < len(pt); i += BlockSize {
					b.Encrypt(got[i:], pt[i:])
				}
				check(t, v.Comment, "Encrypt", got, ct)
				for i := 0; i < len(pt); i += BlockSize {
					b.Decrypt(got[i:], ct[i:])
				}
				check(t, v.Comment, "Decrypt", got, pt)
			case "cbc":
				cipher.NewCBCEncrypter(b, iv).CryptBlocks(got, pt)
				check(t, v.Comment, "CBC encrypt", got, ct)
				cipher.NewCBCDecrypter(b, iv).CryptBlocks(got, ct)
				check(t, v.Comment, "CBC decrypt", got, pt)
			case "ctr":
				hi, lo := binary.BigEndian.Uint64(iv[:8]), binary.BigEndian.Uint64(iv[8:])
				if lo+uint64(len(pt)/BlockSize) < lo {
					t.Fatalf("%s: the counter wraps its low half", v.Comment)
				}
				b.CTRBlocks(got, pt, hi, lo)
				check(t, v.Comment, "CTRBlocks", got, ct)
				cipher.NewCTR(b, iv).XORKeyStream(got, ct)
				check(t, v.Comment, "crypto/cipher CTR", got, pt)
			default:
				t.Fatalf("%s: unknown mode %q", v.Comment, v.Mode)
			}
		}
	})
}

func check(t *testing.T, name, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Errorf("%s: %s = %x, want %x", name, what, got, want)
	}
}

// TestRoundKeys checks the key schedule against the published round keys
// of the standard LEA-128 vector and the computed last round keys of the
// standard LEA-192 and LEA-256 keys.
func TestRoundKeys(t *testing.T) {
	f := loadKAT(t)
	words := func(s []string) []uint32 {
		w := make([]uint32, len(s))
		for i, x := range s {
			w[i] = binary.BigEndian.Uint32(testkit.Hex(t, x))
		}
		return w
	}
	var std [3][]byte
	for _, v := range f.Vectors {
		if len(v.Comment) > 8 && v.Comment[:8] == "standard" {
			key := testkit.Hex(t, v.Key)
			std[len(key)/8-2] = key
		}
	}
	key128 := make([]byte, 16)
	for i, w := range words(f.Intermediates.LEA128.Key) {
		binary.LittleEndian.PutUint32(key128[4*i:], w)
	}
	if !bytes.Equal(key128, std[0]) {
		t.Fatalf("key words %x do not load the standard key %x", key128, std[0])
	}
	for _, c := range []struct {
		key   []byte
		round int
		want  []string
	}{
		{std[0], 0, f.Intermediates.LEA128.RK0},
		{std[0], 23, f.Intermediates.LEA128.RK23},
		{std[1], 27, f.Intermediates.Computed.RK192},
		{std[2], 31, f.Intermediates.Computed.RK256},
	} {
		b, err := New(c.key)
		if err != nil {
			t.Fatal(err)
		}
		got := b.rk[6*c.round : 6*c.round+6]
		if want := words(c.want); len(want) != 6 || !slices.Equal(got, want) {
			t.Errorf("%d-bit key: RK%d = %08x, want %08x", 8*len(c.key), c.round, got, want)
		}
	}
}
