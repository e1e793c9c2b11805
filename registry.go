package fae

import (
	"crypto/cipher"

	"golang.org/x/crypto/chacha20poly1305"

	"github.com/faelabs/fae/aegis"
	"github.com/faelabs/fae/ccm"
	"github.com/faelabs/fae/gcm"
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
// It is never modified. Info.Batch is true for fae's own AEADs, whose types
// all implement batch.AEAD.
var registry = []algorithm{
	{Info{"aes-128-gcm", 16, 12, 16, span(1, 1024), span(12, 16), "fae GCM (SP 800-38D)", true}, newGCM},
	{Info{"aes-192-gcm", 24, 12, 16, span(1, 1024), span(12, 16), "fae GCM (SP 800-38D)", true}, newGCM},
	{Info{"aes-256-gcm", 32, 12, 16, span(1, 1024), span(12, 16), "fae GCM (SP 800-38D)", true}, newGCM},
	{Info{"xaes-256-gcm", 32, 24, 16, []int{24}, []int{16}, "fae XAES-256-GCM (c2sp.org/XAES-256-GCM)", true}, newXAES},
	{Info{"aes-128-ocb3", 16, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253)", true}, newOCB},
	{Info{"aes-192-ocb3", 24, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253)", true}, newOCB},
	{Info{"aes-256-ocb3", 32, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253)", true}, newOCB},
	{Info{"raocb-aes-128", 16, 12, 16, span(1, 15), span(8, 16), "RAOCB-2, fae profile v1", true}, newRAOCB},
	{Info{"raocb-aes-192", 24, 12, 16, span(1, 15), span(8, 16), "RAOCB-2, fae profile v1", true}, newRAOCB},
	{Info{"raocb-aes-256", 32, 12, 16, span(1, 15), span(8, 16), "RAOCB-2, fae profile v1", true}, newRAOCB},
	{Info{"aes-128-ccm", 16, 12, 16, span(7, 13), evens(4, 16), "fae CCM (RFC 3610, SP 800-38C)", true}, newCCM},
	{Info{"aes-256-ccm", 32, 12, 16, span(7, 13), evens(4, 16), "fae CCM (RFC 3610, SP 800-38C)", true}, newCCM},
	{Info{"chacha20-poly1305", 32, 12, 16, []int{12}, []int{16}, "golang.org/x/crypto baseline", false}, newChaCha20Poly1305},
	{Info{"rocca-s", 32, 16, 32, []int{16}, []int{32}, "fae ROCCA-S (draft-nakano-rocca-s-05)", true}, newRocca},
	{Info{"aegis-128l", 16, 16, 16, []int{16}, []int{16, 32}, "fae AEGIS-128L (draft-irtf-cfrg-aegis-aead-18)", true}, aegisNew(aegis.New128L)},
	{Info{"aegis-128x2", 16, 16, 16, []int{16}, []int{16, 32}, "fae AEGIS-128X2 (draft-irtf-cfrg-aegis-aead-18)", true}, aegisNew(aegis.New128X2)},
	{Info{"aegis-128x4", 16, 16, 16, []int{16}, []int{16, 32}, "fae AEGIS-128X4 (draft-irtf-cfrg-aegis-aead-18)", true}, aegisNew(aegis.New128X4)},
	{Info{"aegis-256", 32, 32, 16, []int{32}, []int{16, 32}, "fae AEGIS-256 (draft-irtf-cfrg-aegis-aead-18)", true}, aegisNew(aegis.New256)},
	{Info{"aegis-256x2", 32, 32, 16, []int{32}, []int{16, 32}, "fae AEGIS-256X2 (draft-irtf-cfrg-aegis-aead-18)", true}, aegisNew(aegis.New256X2)},
	{Info{"aegis-256x4", 32, 32, 16, []int{32}, []int{16, 32}, "fae AEGIS-256X4 (draft-irtf-cfrg-aegis-aead-18)", true}, aegisNew(aegis.New256X4)},
	{Info{"lea-128-ocb3", 16, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253) over LEA", true}, newLEAOCB},
	{Info{"lea-256-ocb3", 32, 12, 16, span(1, 15), span(8, 16), "fae OCB3 (RFC 7253) over LEA", true}, newLEAOCB},
	{Info{"lea-128-gcm", 16, 12, 16, span(1, 1024), span(12, 16), "fae GCM (SP 800-38D) over LEA", true}, newLEAGCM},
	{Info{"lea-256-gcm", 32, 12, 16, span(1, 1024), span(12, 16), "fae GCM (SP 800-38D) over LEA", true}, newLEAGCM},
	{Info{"lea-128-ccm", 16, 12, 16, span(7, 13), evens(4, 16), "fae CCM (RFC 3610, SP 800-38C) over LEA", true}, newLEACCM},
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

func newGCM(key []byte, nonceSize, tagSize, parallelism int) (cipher.AEAD, error) {
	a, err := gcm.NewWithSizes(key, nonceSize, tagSize)
	if err != nil {
		return nil, err
	}
	return a.WithParallelism(parallelism), nil
}

func newXAES(key []byte, _, _, _ int) (cipher.AEAD, error) {
	return gcm.NewXAES256(key)
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

func newLEAGCM(key []byte, nonceSize, tagSize, parallelism int) (cipher.AEAD, error) {
	b, err := lea.NewCipher(key)
	if err != nil {
		return nil, err
	}
	a, err := gcm.NewFromBlock(b, nonceSize, tagSize)
	if err != nil {
		return nil, err
	}
	return a.WithParallelism(parallelism), nil
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
