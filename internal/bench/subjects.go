package bench

import (
	"crypto/aes"
	"crypto/cipher"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	protonocb "github.com/ProtonMail/go-crypto/ocb"
	"golang.org/x/crypto/chacha20poly1305"

	"github.com/faelabs/fae"
	"github.com/faelabs/fae/ctr"
)

// The implementations, as the report's impl field names them.
const (
	implFae        = "fae"
	implGo         = "go"         // the standard library's crypto/cipher
	implXCrypto    = "x/crypto"   // golang.org/x/crypto
	implProtonMail = "protonmail" // github.com/ProtonMail/go-crypto over crypto/aes
	implOpenSSL    = "openssl"    // the openssl command
)

// Impls are the implementations, as a report's impl field names them, in
// the order of one algorithm's rows.
var Impls = []string{implFae, implGo, implXCrypto, implProtonMail, implOpenSSL}

// A subject is one implementation of one algorithm that runs in this
// process: an AEAD, or AES-CTR, the reference, when newStream is set.
type subject struct {
	alg, impl string
	keySize   int
	// registry marks the registry's AEADs, and batch those whose Info.Batch
	// is true.
	registry, batch bool
	newAEAD         func(key []byte) (cipher.AEAD, error)
	newStream       func(key, iv []byte) (cipher.Stream, error)
}

// ctrName is the report's name for AES-CTR with a key of keySize bytes.
func ctrName(keySize int) string { return fmt.Sprintf("aes-%d-ctr", keySize*8) }

// ctrKeySizes are the AES key sizes, each with a CTR row.
var ctrKeySizes = []int{16, 24, 32}

// peers are the other Go implementations of registered algorithms, keyed
// by fae's name of the algorithm.
var peers = map[string][]subject{
	"aes-128-gcm":       {{alg: "aes-128-gcm", impl: implGo, keySize: 16, newAEAD: goGCM}},
	"aes-256-gcm":       {{alg: "aes-256-gcm", impl: implGo, keySize: 32, newAEAD: goGCM}},
	"chacha20-poly1305": {{alg: "chacha20-poly1305", impl: implXCrypto, keySize: 32, newAEAD: chacha20poly1305.New}},
	"aes-128-ocb3":      {{alg: "aes-128-ocb3", impl: implProtonMail, keySize: 16, newAEAD: protonMailOCB}},
	"aes-192-ocb3":      {{alg: "aes-192-ocb3", impl: implProtonMail, keySize: 24, newAEAD: protonMailOCB}},
	"aes-256-ocb3":      {{alg: "aes-256-ocb3", impl: implProtonMail, keySize: 32, newAEAD: protonMailOCB}},
	"aes-128-ctr":       {{alg: "aes-128-ctr", impl: implGo, keySize: 16, newStream: goCTR}},
	"aes-192-ctr":       {{alg: "aes-192-ctr", impl: implGo, keySize: 24, newStream: goCTR}},
	"aes-256-ctr":       {{alg: "aes-256-ctr", impl: implGo, keySize: 32, newStream: goCTR}},
}

// opensslCiphers maps fae's names to the names of the same algorithms in
// OpenSSL 3.
var opensslCiphers = map[string]string{
	"aes-128-gcm":       "aes-128-gcm",
	"aes-256-gcm":       "aes-256-gcm",
	"aes-128-ocb3":      "aes-128-ocb",
	"aes-192-ocb3":      "aes-192-ocb",
	"aes-256-ocb3":      "aes-256-ocb",
	"aes-128-ccm":       "aes-128-ccm",
	"aes-256-ccm":       "aes-256-ccm",
	"chacha20-poly1305": "chacha20-poly1305",
	"aes-128-ctr":       "aes-128-ctr",
	"aes-192-ctr":       "aes-192-ctr",
	"aes-256-ctr":       "aes-256-ctr",
}

func goGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

func goCTR(key, iv []byte) (cipher.Stream, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewCTR(b, iv), nil
}

// protonMailOCB is ProtonMail's OCB3 with fae's default sizes, so that both
// do the same work.
func protonMailOCB(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return protonocb.NewOCBWithNonceAndTagSize(b, 12, 16)
}

// registeredCode names the registered algorithms whose code is another
// library's: fae.New hands them out so that a caller has one registry, but a
// row must name whose code ran, or the table claims work that is not fae's.
// Every other registered algorithm is fae's. TestRegisteredCode checks this
// table against the package of the type that fae.New returns.
var registeredCode = map[string]string{
	"chacha20-poly1305": implXCrypto,
}

// registeredImpl returns whose code fae.New runs for the algorithm name.
func registeredImpl(name string) string {
	if impl, ok := registeredCode[name]; ok {
		return impl
	}
	return implFae
}

// registrySubjects returns the registered AEADs, labelled by whose code they
// run, and fae's AES-CTR, keyed by name.
func registrySubjects() map[string]subject {
	m := map[string]subject{}
	for _, info := range fae.Algorithms() {
		name := info.Name
		m[name] = subject{alg: name, impl: registeredImpl(name), keySize: info.KeySize, registry: true, batch: info.Batch,
			newAEAD: func(key []byte) (cipher.AEAD, error) { return fae.New(name, key) }}
	}
	for _, k := range ctrKeySizes {
		m[ctrName(k)] = subject{alg: ctrName(k), impl: implFae, keySize: k, newStream: ctr.New}
	}
	return m
}

// A plan is what one run measures.
type plan struct {
	subjects []subject       // in report order
	openssl  []opensslCipher // the OpenSSL ciphers to run
}

type opensslCipher struct {
	alg, name string // fae's name, OpenSSL's name
	aead      bool
}

// selectAlgorithms returns the names that patterns select among the known
// ones, sorted; no patterns select everything. A pattern is a name or a
// path.Match glob and must select something.
func selectAlgorithms(patterns []string, known []string) ([]string, error) {
	if len(patterns) == 0 {
		return slices.Sorted(slices.Values(known)), nil
	}
	var sel []string
	for _, p := range patterns {
		matched := false
		for _, name := range known {
			ok, err := path.Match(p, name)
			if err != nil {
				return nil, fmt.Errorf("bad algorithm pattern %q: %v", p, err)
			}
			if ok {
				matched = true
				if !slices.Contains(sel, name) {
					sel = append(sel, name)
				}
			}
		}
		if !matched {
			return nil, fmt.Errorf("%q matches no algorithm (known: %s)", p,
				strings.Join(slices.Sorted(slices.Values(known)), ", "))
		}
	}
	slices.Sort(sel)
	return sel, nil
}

// makePlan selects the subjects: for each selected algorithm the
// registry's implementation and the peers', and for each AES key size in
// use fae's AES-CTR, the reference that overhead is measured against.
func makePlan(patterns []string) (*plan, error) {
	fs := registrySubjects()
	sel, err := selectAlgorithms(patterns, slices.Collect(maps.Keys(fs)))
	if err != nil {
		return nil, err
	}
	algs := slices.Clone(sel)
	for _, name := range sel {
		if ref := ctrName(fs[name].keySize); fs[name].newStream == nil && fs[ref].alg != "" && !slices.Contains(algs, ref) {
			algs = append(algs, ref)
		}
	}
	slices.Sort(algs)
	p := new(plan)
	for _, name := range algs {
		p.subjects = append(p.subjects, fs[name])
		if !slices.Contains(sel, name) {
			continue // a reference row only
		}
		for _, peer := range peers[name] {
			// A peer that is the registry's own code (x/crypto's
			// ChaCha20-Poly1305) would be the same row twice.
			if peer.impl != fs[name].impl {
				p.subjects = append(p.subjects, peer)
			}
		}
		if o, ok := opensslCiphers[name]; ok {
			p.openssl = append(p.openssl, opensslCipher{alg: name, name: o, aead: fs[name].newAEAD != nil})
		}
	}
	return p, nil
}
