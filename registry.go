package fae

import (
	"crypto/aes"
	"crypto/cipher"
	"slices"
	"sync"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/faelabs/fae/aegis"
	"github.com/faelabs/fae/ccm"
	"github.com/faelabs/fae/internal/alias"
	"github.com/faelabs/fae/lea"
	"github.com/faelabs/fae/ocb"
	"github.com/faelabs/fae/raocb"
	"github.com/faelabs/fae/rocca"
)

// An algorithm is one entry of the registry. New checks the key length and
// sizes against info before it calls new, which may ignore parallelism.
type algorithm struct {
	info Info
	new  func(key []byte, nonceSize, tagSize, parallelism int) (cipher.AEAD, error)
}

// registry holds every algorithm New knows; adding one is adding an entry.
// It is never modified.
var registry = []algorithm{
	{Info{"aes-128-gcm", 16, 12, 16, []int{12}, span(12, 16), "Go crypto/cipher baseline"}, newGCM},
	{Info{"aes-256-gcm", 32, 12, 16, []int{12}, span(12, 16), "Go crypto/cipher baseline"}, newGCM},
	{Info{"aes-128-ocb3", 16, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253)"}, newOCB},
	{Info{"aes-192-ocb3", 24, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253)"}, newOCB},
	{Info{"aes-256-ocb3", 32, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253)"}, newOCB},
	{Info{"raocb-aes-128", 16, 12, 16, span(1, 15), span(8, 16), "RAOCB-2, fae profile v1"}, newRAOCB},
	{Info{"raocb-aes-192", 24, 12, 16, span(1, 15), span(8, 16), "RAOCB-2, fae profile v1"}, newRAOCB},
	{Info{"raocb-aes-256", 32, 12, 16, span(1, 15), span(8, 16), "RAOCB-2, fae profile v1"}, newRAOCB},
	{Info{"aes-128-ccm", 16, 12, 16, span(7, 13), evens(4, 16), "fae CCM (RFC 3610, SP 800-38C)"}, newCCM},
	{Info{"aes-256-ccm", 32, 12, 16, span(7, 13), evens(4, 16), "fae CCM (RFC 3610, SP 800-38C)"}, newCCM},
	{Info{"chacha20-poly1305", 32, 12, 16, []int{12}, []int{16}, "golang.org/x/crypto baseline"}, newChaCha20Poly1305},
	{Info{"rocca-s", 32, 16, 32, []int{16}, []int{32}, "fae ROCCA-S (draft-nakano-rocca-s-05)"}, newRocca},
	{Info{"aegis-128l", 16, 16, 16, []int{16}, []int{16, 32}, "fae AEGIS-128L (draft-irtf-cfrg-aegis-aead-18)"}, aegisNew(aegis.New128L)},
	{Info{"aegis-128x2", 16, 16, 16, []int{16}, []int{16, 32}, "fae AEGIS-128X2 (draft-irtf-cfrg-aegis-aead-18)"}, aegisNew(aegis.New128X2)},
	{Info{"aegis-128x4", 16, 16, 16, []int{16}, []int{16, 32}, "fae AEGIS-128X4 (draft-irtf-cfrg-aegis-aead-18)"}, aegisNew(aegis.New128X4)},
	{Info{"aegis-256", 32, 32, 16, []int{32}, []int{16, 32}, "fae AEGIS-256 (draft-irtf-cfrg-aegis-aead-18)"}, aegisNew(aegis.New256)},
	{Info{"aegis-256x2", 32, 32, 16, []int{32}, []int{16, 32}, "fae AEGIS-256X2 (draft-irtf-cfrg-aegis-aead-18)"}, aegisNew(aegis.New256X2)},
	{Info{"aegis-256x4", 32, 32, 16, []int{32}, []int{16, 32}, "fae AEGIS-256X4 (draft-irtf-cfrg-aegis-aead-18)"}, aegisNew(aegis.New256X4)},
	{Info{"lea-128-ocb3", 16, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253) over LEA"}, newLEAOCB},
	{Info{"lea-256-ocb3", 32, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253) over LEA"}, newLEAOCB},
	{Info{"lea-128-gcm", 16, 12, 16, []int{12}, span(12, 16), "Go crypto/cipher GCM over fae LEA"}, newLEAGCM},
	{Info{"lea-128-ccm", 16, 12, 16, span(7, 13), evens(4, 16), "fae CCM (RFC 3610, SP 800-38C) over LEA"}, newLEACCM},
}

// span returns lo, lo+1, ..., hi.
func span(lo, hi int) []int {
	s := make([]int, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		s = append(s, n)
	}
	return s
}

// evens returns lo, lo+2, ..., hi.
func evens(lo, hi int) []int {
	s := make([]int, 0, (hi-lo)/2+1)
	for n := lo; n <= hi; n += 2 {
		s = append(s, n)
	}
	return s
}

func newGCM(key []byte, _, tagSize, _ int) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	g, err := cipher.NewGCMWithTagSize(b, tagSize)
	if err != nil || tagSize == 16 {
		return g, err
	}
	full, err := cipher.NewGCM(b)
	if err != nil {
		return nil, err
	}
	return &shortTagGCM{g, full}, nil
}

// shortTagGCM is GCM with a tag shorter than 16 bytes, mended: Go's amd64 and
// arm64 GCM assembly handles the last partial block of a message whole, so
// with a short tag its Seal writes up to 15-tagSize zero bytes past its
// output, beyond the end of dst's capacity if need be (go.dev/issue/80288),
// and its Open reads as far past the end of the ciphertext (fae's guard-page
// tests catch both). Where that would happen, shortTagGCM seals with a
// 16-byte tag into a scratch buffer and keeps the tag's prefix, which is the
// short tag, and opens a copy of the ciphertext in a scratch buffer with room
// after it. Remove it once the go directive names a Go with the fix.
type shortTagGCM struct {
	cipher.AEAD             // GCM with the short tag
	full        cipher.AEAD // the same key with a 16-byte tag
}

var gcmScratch = sync.Pool{New: func() any { return new([]byte) }}

func (g *shortTagGCM) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	tagSize := g.Overhead()
	if r := len(plaintext) % 16; r == 0 || r+tagSize >= 16 {
		return g.AEAD.Seal(dst, nonce, plaintext, additionalData)
	}
	ret, out := alias.SliceForAppend(dst, len(plaintext)+tagSize)
	checkOverlap(out, plaintext, additionalData)
	p := gcmScratch.Get().(*[]byte)
	sealed := g.full.Seal((*p)[:0], nonce, plaintext, additionalData)
	copy(out, sealed)
	*p = sealed
	gcmScratch.Put(p)
	return ret
}

func (g *shortTagGCM) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	n := len(ciphertext) - g.Overhead()
	if r := n % 16; n < 0 || r == 0 || r+g.Overhead() >= 16 {
		return g.AEAD.Open(dst, nonce, ciphertext, additionalData)
	}
	ret, out := alias.SliceForAppend(dst, n)
	checkOverlap(out, ciphertext, additionalData)
	p := gcmScratch.Get().(*[]byte)
	buf := slices.Grow(append((*p)[:0], ciphertext...), 16)
	pt, err := g.AEAD.Open(buf[:0], nonce, buf, additionalData)
	if err == nil {
		copy(out, pt)
	}
	clear(buf)
	*p = buf
	gcmScratch.Put(p)
	if err != nil {
		return nil, err
	}
	return ret, nil
}

// checkOverlap panics, as crypto/cipher's GCM does, if out overlaps in
// other than exactly or overlaps ad at all.
func checkOverlap(out, in, ad []byte) {
	if alias.InexactOverlap(out, in) {
		panic("fae: invalid buffer overlap of output and input")
	}
	if alias.AnyOverlap(out, ad) {
		panic("fae: invalid buffer overlap of output and additional data")
	}
}

func newOCB(key []byte, nonceSize, tagSize, parallelism int) (cipher.AEAD, error) {
	a, err := ocb.NewWithSizes(key, nonceSize, tagSize)
	if err != nil {
		return nil, err
	}
	return a.WithParallelism(parallelism), nil
}

func newRAOCB(key []byte, nonceSize, tagSize, parallelism int) (cipher.AEAD, error) {
	a, err := raocb.NewWithSizes(key, nonceSize, tagSize)
	if err != nil {
		return nil, err
	}
	return a.WithParallelism(parallelism), nil
}

func newCCM(key []byte, nonceSize, tagSize, _ int) (cipher.AEAD, error) {
	return ccm.NewWithSizes(key, nonceSize, tagSize)
}

func newLEAOCB(key []byte, nonceSize, tagSize, parallelism int) (cipher.AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	a, err := ocb.NewFromBlock(b, nonceSize, tagSize)
	if err != nil {
		return nil, err
	}
	return a.WithParallelism(parallelism), nil
}

// newLEAGCM is Go's GCM over LEA. A block other than crypto/aes's gets Go's
// portable GCM, which writes nothing past its output, so short tags need no
// shortTagGCM (lea's TestGCMShortTagWritesInBounds keeps that true).
func newLEAGCM(key []byte, _, tagSize, _ int) (cipher.AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithTagSize(b, tagSize)
}

func newLEACCM(key []byte, nonceSize, tagSize, _ int) (cipher.AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return ccm.NewFromBlock(b, nonceSize, tagSize)
}

func newChaCha20Poly1305(key []byte, _, _, _ int) (cipher.AEAD, error) {
	return chacha20poly1305.New(key)
}

func newRocca(key []byte, _, _, _ int) (cipher.AEAD, error) {
	return rocca.New(key)
}

// aegisNew adapts an AEGIS constructor, keeping a nil AEAD nil.
func aegisNew(f func(key []byte, tagSize int) (*aegis.AEAD, error)) func(key []byte, nonceSize, tagSize, parallelism int) (cipher.AEAD, error) {
	return func(key []byte, _, tagSize, _ int) (cipher.AEAD, error) {
		a, err := f(key, tagSize)
		if err != nil {
			return nil, err
		}
		return a, nil
	}
}
