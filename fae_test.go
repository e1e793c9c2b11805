package fae

import (
	"bytes"
	"crypto/cipher"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/testkit"
)

// spec is the algorithm table of shared/specs/api.md: whatever is
// registered must be named and sized as it says.
var spec = map[string]struct {
	key, nonce, tag int
	nonces, tags    []int
}{
	"aes-128-ocb3":      {16, 12, 16, span(1, 15), span(8, 16)},
	"aes-192-ocb3":      {24, 12, 16, span(1, 15), span(8, 16)},
	"aes-256-ocb3":      {32, 12, 16, span(1, 15), span(8, 16)},
	"raocb-aes-128":     {16, 12, 16, span(1, 15), span(8, 16)},
	"raocb-aes-192":     {24, 12, 16, span(1, 15), span(8, 16)},
	"raocb-aes-256":     {32, 12, 16, span(1, 15), span(8, 16)},
	"aes-128-ccm":       {16, 12, 16, span(7, 13), []int{4, 6, 8, 10, 12, 14, 16}},
	"aes-256-ccm":       {32, 12, 16, span(7, 13), []int{4, 6, 8, 10, 12, 14, 16}},
	"aes-128-gcm":       {16, 12, 16, span(1, 1024), span(12, 16)},
	"aes-192-gcm":       {24, 12, 16, span(1, 1024), span(12, 16)},
	"aes-256-gcm":       {32, 12, 16, span(1, 1024), span(12, 16)},
	"xaes-256-gcm":      {32, 24, 16, []int{24}, []int{16}},
	"chacha20-poly1305": {32, 12, 16, []int{12}, []int{16}},
	"aegis-128l":        {16, 16, 16, []int{16}, []int{16, 32}},
	"aegis-128x2":       {16, 16, 16, []int{16}, []int{16, 32}},
	"aegis-128x4":       {16, 16, 16, []int{16}, []int{16, 32}},
	"aegis-256":         {32, 32, 16, []int{32}, []int{16, 32}},
	"aegis-256x2":       {32, 32, 16, []int{32}, []int{16, 32}},
	"aegis-256x4":       {32, 32, 16, []int{32}, []int{16, 32}},
	"rocca-s":           {32, 16, 32, []int{16}, []int{32}},
	"lea-128-ocb3":      {16, 12, 16, span(1, 15), span(8, 16)},
	"lea-256-ocb3":      {32, 12, 16, span(1, 15), span(8, 16)},
	"lea-128-gcm":       {16, 12, 16, span(1, 1024), span(12, 16)},
	"lea-256-gcm":       {32, 12, 16, span(1, 1024), span(12, 16)},
	"lea-128-ccm":       {16, 12, 16, span(7, 13), []int{4, 6, 8, 10, 12, 14, 16}},
}

// notOurs are the algorithms fae takes from elsewhere whose allocations are
// not fae's to fix (x/crypto's portable ChaCha20-Poly1305 allocates).
var notOurs = map[string]bool{
	"chacha20-poly1305": true,
}

func testKey(info Info) []byte {
	key := make([]byte, info.KeySize)
	for i := range key {
		key[i] = byte(i*7 + 3)
	}
	return key
}

func TestAlgorithms(t *testing.T) {
	infos := Algorithms()
	if len(infos) == 0 {
		t.Fatal("no algorithms")
	}
	if !slices.IsSortedFunc(infos, func(a, b Info) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("Algorithms is not sorted by name")
	}
	for i, info := range infos {
		if i > 0 && info.Name == infos[i-1].Name {
			t.Errorf("%s registered twice", info.Name)
		}
		want, ok := spec[info.Name]
		switch {
		case !ok:
			t.Errorf("%s is not in the spec's table", info.Name)
		case info.KeySize != want.key || info.NonceSize != want.nonce || info.TagSize != want.tag ||
			!slices.Equal(info.NonceSizes, want.nonces) || !slices.Equal(info.TagSizes, want.tags):
			t.Errorf("%s: %+v, the spec's table says %+v", info.Name, info, want)
		}
		if info.Note == "" {
			t.Errorf("%s has no note", info.Name)
		}
		key := testKey(info)
		a, err := New(info.Name, key)
		if err != nil {
			t.Errorf("New(%q) with defaults: %v", info.Name, err)
			continue
		}
		if a.NonceSize() != info.NonceSize || a.Overhead() != info.TagSize {
			t.Errorf("%s: NonceSize %d, Overhead %d; Info says %d, %d", info.Name, a.NonceSize(), a.Overhead(), info.NonceSize, info.TagSize)
		}
		// The AEAD keeps no reference to the key (cmd/fae clears it).
		nonce := make([]byte, info.NonceSize)
		sealed := a.Seal(nil, nonce, []byte("message"), nil)
		clear(key)
		if !bytes.Equal(a.Seal(nil, nonce, []byte("message"), nil), sealed) {
			t.Errorf("%s: changing the key after New changes the AEAD", info.Name)
		}
	}

	// The result is a copy.
	infos[0].Name = "changed"
	infos[0].TagSizes[0] = -1
	if again := Algorithms(); again[0].Name == "changed" || again[0].TagSizes[0] == -1 {
		t.Error("changing the result of Algorithms changed the registry")
	}
}

// TestConformance runs every algorithm through the suite with its default
// sizes, with each other allowed nonce size (of GCM's 1 to 1024, a sample)
// and each other allowed tag size.
func TestConformance(t *testing.T) {
	for _, info := range Algorithms() {
		var opts []aeadtest.Option
		if notOurs[info.Name] {
			opts = append(opts, aeadtest.AllowAllocs())
		}
		if info.Name == "chacha20-poly1305" {
			opts = append(opts, aeadtest.UncheckedTagOverlap())
		}
		key := testKey(info)
		run := func(t *testing.T, name string, nonceSize, tagSize int) {
			opts := opts
			if strings.HasSuffix(info.Name, "-ccm") && nonceSize > 12 {
				// CCM's length field has 15-nonceSize bytes.
				opts = append(opts, aeadtest.MaxMessageSize(1<<(8*(15-nonceSize))-1))
			}
			t.Run(name, func(t *testing.T) {
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) {
					return New(info.Name, key, WithNonceSize(nonceSize), WithTagSize(tagSize), WithParallelism(3))
				}, opts...)
			})
		}
		t.Run(info.Name, func(t *testing.T) {
			t.Run("default", func(t *testing.T) {
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) { return New(info.Name, key) }, opts...)
			})
			if testing.Short() {
				return
			}
			for _, ns := range sample(info.NonceSizes) {
				if ns != info.NonceSize {
					run(t, fmt.Sprintf("nonce%d", ns), ns, info.TagSize)
				}
			}
			for _, ts := range info.TagSizes {
				if ts != info.TagSize {
					run(t, fmt.Sprintf("tag%d", ts), info.NonceSize, ts)
				}
			}
		})
	}
}

// sample returns the sizes of s that TestConformance tries: all of a short
// list; of a long one (GCM's nonces, hashed in blocks) the ends, one block
// and a block and a byte.
func sample(s []int) []int {
	if len(s) <= 16 {
		return s
	}
	return slices.DeleteFunc(slices.Clone(s), func(n int) bool {
		return n != s[0] && n != s[len(s)-1] && n != 16 && n != 17
	})
}

// knownAnswers holds one published vector per algorithm, checked through New.
var knownAnswers = []struct {
	name, source                 string
	key, nonce, ad, pt, ctAndTag string
}{
	{"aegis-128l", "draft-irtf-cfrg-aegis-aead-18 A.2.4 Test Vector 3",
		"10010000000000000000000000000000", "10000200000000000000000000000000", "0001020304050607",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "79d94593d8c2119d7e8fd9b8fc77845c5c077a05b2528b6ac54b563aed8efe84" + "cc6f3372f6aa1bb82388d695c3962d9a"},
	{"aegis-128x2", "draft-irtf-cfrg-aegis-aead-18 A.4.3 Test Vector 2",
		"000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f", "0102030401020304",
		strings.Repeat("04050607", 30), "5795544301997f93621b278809d6331b3bfa6f18e90db12c4aa35965b5e98c5fc6fb4e54bcb6111842c20637252eff747cb3a8f85b37de80919a589fe0f24872bc926360696739e05520647e390989e1eb5fd42f99678a0276a498f8c454761c9d6aacb647ad56be62b29c22cd4b5761b38f43d5a5ee062f" + "1aebc200804f405cab637f2adebb6d77"},
	{"aegis-128x4", "draft-irtf-cfrg-aegis-aead-18 A.5.3 Test Vector 2",
		"000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f", "0102030401020304",
		strings.Repeat("04050607", 30), "e836118562f4479c9d35c17356a833114c21f9aa39e4dda5e5c87f4152a00fce9a7c38f832eafe8b1c12f8a7cf12a81a1ad8a9c24ba9dedfbdaa586ffea67ddc801ea97d9ab4a872f42d0e352e2713dacd609f9442c17517c5a29daf3e2a3fac4ff6b1380c4e46df7b086af6ce6bc1ed594b8dd64aed2a7e" + "0e56ab94e2e85db80f9d54010caabfb4"},
	{"aegis-256", "draft-irtf-cfrg-aegis-aead-18 A.3.4 Test Vector 3",
		"1001000000000000000000000000000000000000000000000000000000000000", "1000020000000000000000000000000000000000000000000000000000000000", "0001020304050607",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "f373079ed84b2709faee373584585d60accd191db310ef5d8b11833df9dec711" + "8d86f91ee606e9ff26a01b64ccbdd91d"},
	{"aegis-256x2", "draft-irtf-cfrg-aegis-aead-18 A.6.3 Test Vector 2",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f", "0102030401020304",
		strings.Repeat("04050607", 30), "72120c2ea8236180d67859001f4729077b7064c414384fe3a7b52f1571f4f8a7d0f01e18db4f3bc0adb150702e5d147a8d36522132761b994c1bd395589e2ccf0790dfe2a3d12d61cd666b2859827739db4037dd3124c78424459376f6cac08e1a7223a2a43e398ce6385cd654a19f481cba3b8f25910b42" + "635d391828520bf1512763f0c8f5cdbd"},
	{"aegis-256x4", "draft-irtf-cfrg-aegis-aead-18 A.7.3 Test Vector 2",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f", "0102030401020304",
		strings.Repeat("04050607", 30), "bfc2085b7e8017da99b0b6d646ae4d01f4ba8f2e7dfca1d759ae48a135139b9aaac6b4f5db810d426be1fdaff4e1454153a34b11da78ed7e418ee2ee9853042e95536aecbb694cea1b16a478eb0d4d1bf6509b1ce652a45af58e0e46ffccfa2d0426e702391d2ff5813808b81748a490dd656465fed61f09" + "b63b611b13975e2f3dc3cb6c2397bfcd"},
	{"aes-128-gcm", "Wycheproof aes_gcm_test.json tcId 2",
		"5b9604fe14eadba931b0ccf34843dab9", "921d2507fa8007b7bd067d34", "00112233445566778899aabbccddeeff",
		"001d0c231287c1182784554ca3a21908", "49d8b9783e911913d87094d1f63cc765" + "1e348ba07cca2cf04c618cb4d43a5b92"},
	{"aes-192-gcm", "McGrew and Viega, The Galois/Counter Mode of Operation, Test Case 11 (gcm/testdata/gcm_spec.json)",
		"feffe9928665731c6d6a8f9467308308feffe9928665731c", "cafebabefacedbad", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
		"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
		"0f10f599ae14a154ed24b36e25324db8c566632ef2bbb34f8347280fc4507057fddc29df9a471f75c66541d4d4dad1c9e93a19a58e8b473fa0f062f7" + "65dcc57fcf623a24094fcca40d3533f8"},
	{"xaes-256-gcm", "c2sp.org/XAES-256-GCM, first test vector",
		"0101010101010101010101010101010101010101010101010101010101010101", hex.EncodeToString([]byte("ABCDEFGHIJKLMNOPQRSTUVWX")), "",
		hex.EncodeToString([]byte("XAES-256-GCM")), "ce546ef63c9cc60765923609b33a9a19" + "74e96e52daf2fcf7075e2271"},
	{"aes-256-gcm", "Wycheproof aes_gcm_test.json tcId 91",
		"92ace3e348cd821092cd921aa3546374299ab46209691bc28b8752d17f123c20", "00112233445566778899aabb", "00000000ffffffff",
		"00010203040506070809", "e27abdd2d2a53d2f136b" + "9a4a2579529301bcfb71c78d4060f52c"},
	{"aes-128-ccm", "Wycheproof aes_ccm_test.json tcId 12",
		"9415f925bcb41dc25e86c826dbc8bf68", "bdffaa763b916ff0ee3f3ce4", "705d676cd8a94451",
		"feb36167eafc02c8e2bd6e13817686ba", "08db327a88be7b48f430fd7bfccdf502" + "b7c249f810adacf99abded1f3b9130f2"},
	{"aes-256-ccm", "Wycheproof aes_ccm_test.json tcId 168",
		"b907a45075513fe8a8019edee3f2591487b2a030b03c6e1d771c862571d2ea1e", "118a6964c2d3e380071f5266", "034585621af8d7ff",
		"55a465644f5b650928cbee7c063214d6", "ab01f92db4f210bdb5edaf0a1bd19eba" + "621630c505d24e3b29294977d8ffa4b4"},
	{"aes-128-ocb3", "RFC 7253 Appendix A, tuple 8 of 16",
		"000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221107", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f1011121314151617", "1ca2207308c87c010756104d8840ce1952f09673a448a122" + "c92c62241051f57356d7f3c90bb0e07f"},
	{"raocb-aes-128", "RAOCB profile public vectors (raocb/testdata/raocb_profile_public.json), case 8 of 16",
		"000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221107", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f1011121314151617", "6c437fca6ad53cfbf8fb1d6ba8a723a57e85152801ea30e2" + "35b13df99884685e7cae8f3615e9c4de"},
	{"raocb-aes-192", "fae's independent Python model (raocb/testdata/raocb_fae_vectors.json), vector 20",
		"5c79153e9bae9d381b6fe6a7c76b1b52305585ff68d302e1", "f21e64566de52f5b14b67083", "73342219a10b8fda680ebb72e3555087da",
		"f7ad707e58a8e766b4c7fcc07e3a2691a9", "0ae708f70721befeea2ba28bcd4148bfd6" + "aaa1a73ed288867d566723d4107d5568"},
	{"raocb-aes-256", "fae's independent Python model (raocb/testdata/raocb_fae_vectors.json), vector 37",
		"2aed159a1146f22503f0efa51d46745c1db4f7a51b444f2e6657db3025ef76f6", "1c18e7723998a769b68c6e8d",
		"fa3c59b74d205800247faae5949943bbf767bc26ef0380851acd12bf6625da369f",
		"af894c7605b18067b281ef9bb4cfbb59c28584ab01abfdfb9375707871d184",
		"8d30716478507ca92a4c96f7db4f1cadcafd16ba8d15c412f320927c9e3166" + "fca5c6d242572dfecb8ef5c1ee77e72c"},
	{"lea-128-ocb3", "Bouncy Castle 1.72 LEA+OCB on RFC 7253 Appendix A's sample inputs (lea/testdata/modes_bc.json)",
		"000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221107", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f1011121314151617", "c0a4bc0c40e2e8d9d74d94f93d8d3ae2a381c837bda01cef" + "905a18e4d8bca162b54d3d38cd23e2b8"},
	{"lea-256-ocb3", "Bouncy Castle 1.72 LEA+OCB on RFC 7253 Appendix A's sample inputs (lea/testdata/modes_bc.json)",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "bbaa99887766554433221107", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f1011121314151617", "8374f2fb86e260e5222e1864f186647332159263c5951470" + "02acc0754ef064425bb60c09f9572557"},
	{"lea-128-gcm", "Bouncy Castle 1.72 and Crypto++ 8.7 LEA+GCM (lea/testdata/modes_bc.json)",
		"000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221107", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f1011121314151617", "1be9b8199cda826ae3bbc4791e9d1312604877a8bf8e8e2f" + "1401d988fdb3f72bda195d9cd66fdf93"},
	{"lea-256-gcm", "Bouncy Castle 1.72 LEA+GCM (lea/testdata/modes_bc.json)",
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "bbaa99887766554433221107", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f1011121314151617", "32fcae2879d5bbacdafb5034e906ab24e6bb7a07458066f3" + "3672502064e7b444339b6c4b2d26dace"},
	{"lea-128-ccm", "Bouncy Castle 1.72 and Crypto++ 8.7 LEA+CCM (lea/testdata/modes_bc.json)",
		"000102030405060708090a0b0c0d0e0f", "bbaa99887766554433221107", "000102030405060708090a0b0c0d0e0f1011121314151617",
		"000102030405060708090a0b0c0d0e0f1011121314151617", "3e3ce6552a2d5e9b680d470438e4b02c59647a8cd82c3520" + "0135cc1cb7d521311fb6d78d19aaccf9"},
	{"rocca-s", "draft-nakano-rocca-s-05 Appendix A.2, test vector 6 (rocca/testdata/rocca_s_draft.json)",
		"1111111111111111111111111111111122222222222222222222222222222222", "44444444444444444444444444444444", "",
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8",
		"e8c7adcc58302893b253c544f5d8e62d8fbd81160c2f4a95123962088d29f106422d3f26882fd7b1fdee5680476e7e6e1fc473cdb2dded85c6" +
			"c674604803963a4b51685fda1f2aa043934736db2fbab6d188a09f5e0d1c0bf3"},
	{"chacha20-poly1305", "Wycheproof chacha20_poly1305_test.json tcId 21",
		"236f9baee4f9da15beeca40ff4af7c760f254a64bc3a3d7f4fad557e61b68586", "f1ca81338629587acf9372bf", "8c32f47a386152ec",
		"d7f26d5252e1765f5b", "8fdb429d47761cbf8e" + "8ef647ed334fdebbc2bef80be02884e0"},
}

func TestKnownAnswers(t *testing.T) {
	have := map[string]bool{}
	for _, v := range knownAnswers {
		have[v.name] = true
		a, err := New(v.name, testkit.Hex(t, v.key), WithNonceSize(len(v.nonce)/2))
		if err != nil {
			t.Errorf("%s: %v", v.source, err)
			continue
		}
		nonce, ad, pt, want := testkit.Hex(t, v.nonce), testkit.Hex(t, v.ad), testkit.Hex(t, v.pt), testkit.Hex(t, v.ctAndTag)
		if got := a.Seal(nil, nonce, pt, ad); !bytes.Equal(got, want) {
			t.Errorf("%s: %s: Seal = %x, want %x", v.name, v.source, got, want)
		}
		if got, err := a.Open(nil, nonce, want, ad); err != nil || !bytes.Equal(got, pt) {
			t.Errorf("%s: %s: Open = %x, %v; want %x", v.name, v.source, got, err, pt)
		}
	}
	for _, v := range ocbIterative {
		have[v.name] = true
	}
	for _, info := range Algorithms() {
		if !have[info.Name] {
			t.Errorf("%s has no known-answer vector", info.Name)
		}
	}
}

// ocbIterative are the outputs of RFC 7253 Appendix A's iterative test,
// which covers every AES key size and three tag sizes.
var ocbIterative = []struct {
	name string
	tag  string
}{
	{"aes-128-ocb3", "67e944d23256c5e0b6c61fa22fdf1ea2"},
	{"aes-192-ocb3", "f673f2c3e7174aae7bae986ca9f29e17"},
	{"aes-256-ocb3", "d90eb8e9c977c88b79dd793d7ffa161c"},
	{"aes-128-ocb3", "77a3d8e73589158d25d01209"},
	{"aes-192-ocb3", "05d56ead2752c86be6932c5e"},
	{"aes-256-ocb3", "5458359ac23b0cba9e6330dd"},
	{"aes-128-ocb3", "192c9b7bd90ba06a"},
	{"aes-192-ocb3", "0066bc6e0ef34e24"},
	{"aes-256-ocb3", "7d4ea5d445501cbe"},
}

func TestOCBIterative(t *testing.T) {
	for _, v := range ocbIterative {
		tagSize := len(v.tag) / 2
		i := slices.IndexFunc(Algorithms(), func(info Info) bool { return info.Name == v.name })
		if i < 0 {
			t.Fatalf("%s is not registered", v.name)
		}
		key := make([]byte, Algorithms()[i].KeySize)
		key[len(key)-1] = byte(8 * tagSize)
		a, err := New(v.name, key, WithTagSize(tagSize))
		if err != nil {
			t.Fatal(err)
		}
		nonce := func(i int) []byte {
			n := make([]byte, 12)
			binary.BigEndian.PutUint32(n[8:], uint32(i))
			return n
		}
		var c []byte
		for i := range 128 {
			s := make([]byte, i)
			c = a.Seal(c, nonce(3*i+1), s, s)
			c = a.Seal(c, nonce(3*i+2), s, nil)
			c = a.Seal(c, nonce(3*i+3), nil, s)
		}
		if got := a.Seal(nil, nonce(385), nil, c); hex.EncodeToString(got) != v.tag {
			t.Errorf("%s, tag %d: output %x, want %s", v.name, tagSize, got, v.tag)
		}
	}
}

// TestPanicPrefix checks that the panics of fae's own algorithms on a wrong
// nonce length and on overlapping buffers, and of their batches, name the
// package that panics ("gcm: "), not crypto/cipher.
func TestPanicPrefix(t *testing.T) {
	for _, info := range Algorithms() {
		if notOurs[info.Name] {
			continue
		}
		a, err := New(info.Name, testKey(info))
		if err != nil {
			t.Fatal(err)
		}
		nonce := make([]byte, info.NonceSize)
		buf := make([]byte, 64+info.TagSize)
		sealed := a.Seal(nil, nonce, buf[:8], nil)
		copy(buf[2:], sealed)
		panics := map[string]func(){
			"Seal with a short nonce":   func() { a.Seal(nil, nonce[1:], nil, nil) },
			"Open with a short nonce":   func() { a.Open(nil, nonce[1:], sealed, nil) },
			"Seal with inexact overlap": func() { a.Seal(buf[1:1], nonce, buf[2:10], nil) },
			"Open with inexact overlap": func() { a.Open(buf[3:3], nonce, buf[2:2+len(sealed)], nil) },
		}
		if b, ok := a.(batch.AEAD); ok {
			short := []batch.Message{{Nonce: nonce[1:], Out: make([]byte, info.TagSize)}}
			panics["SealBatch with a short nonce"] = func() { b.SealBatch(short) }
			panics["OpenBatch with a short output"] = func() { b.OpenBatch([]batch.Message{{Nonce: nonce, In: sealed}}) }
		}
		for what, f := range panics {
			func() {
				defer func() {
					msg, _ := recover().(string)
					if pkg, _, ok := strings.Cut(msg, ": "); !ok || strings.ContainsAny(pkg, "/ ") || pkg == "" {
						t.Errorf("%s: %s panicked with %q, want the package's name first", info.Name, what, msg)
					}
				}()
				f()
			}()
		}
	}
}

func TestNewErrors(t *testing.T) {
	_, err := New("aes-512-gcm", make([]byte, 16))
	if err == nil {
		t.Fatal("unknown name accepted")
	}
	for _, info := range Algorithms() {
		if !strings.Contains(err.Error(), info.Name) {
			t.Errorf("error for an unknown name does not list %s: %v", info.Name, err)
		}
	}
	if _, err := New("", nil); err == nil {
		t.Error("empty name accepted")
	}

	for _, info := range Algorithms() {
		key := testKey(info)
		if _, err := New(info.Name, key, WithParallelism(0)); err == nil {
			t.Errorf("%s: parallelism 0 accepted", info.Name)
		}
		if _, err := New(info.Name, key, WithParallelism(8), nil); err != nil {
			t.Errorf("%s: parallelism 8 and a nil option: %v", info.Name, err)
		}
		// Every combination of key length and sizes, in and out of range:
		// New must accept exactly the allowed ones, and not panic.
		for _, kl := range []int{0, 1, info.KeySize - 1, info.KeySize, info.KeySize + 1, 64} {
			for ns := -1; ns <= 33; ns++ {
				for ts := -1; ts <= 33; ts++ {
					ok := kl == info.KeySize && slices.Contains(info.NonceSizes, ns) && slices.Contains(info.TagSizes, ts)
					a, err := newNoPanic(t, info.Name, make([]byte, kl), WithNonceSize(ns), WithTagSize(ts))
					switch {
					case ok && err != nil:
						t.Errorf("%s, key %d, nonce %d, tag %d: %v", info.Name, kl, ns, ts, err)
					case !ok && err == nil:
						t.Errorf("%s, key %d, nonce %d, tag %d: accepted", info.Name, kl, ns, ts)
					case ok && (a.NonceSize() != ns || a.Overhead() != ts):
						t.Errorf("%s, nonce %d, tag %d: NonceSize %d, Overhead %d", info.Name, ns, ts, a.NonceSize(), a.Overhead())
					case err != nil && !strings.HasPrefix(err.Error(), "fae: "):
						t.Errorf("error without the package prefix: %v", err)
					}
				}
			}
		}
	}
}

func newNoPanic(t *testing.T, name string, key []byte, opts ...Option) (a cipher.AEAD, err error) {
	defer func() {
		if e := recover(); e != nil {
			t.Fatalf("New(%q, %d-byte key) panicked: %v", name, len(key), e)
		}
	}()
	return New(name, key, opts...)
}
