package fae

import (
	"crypto/cipher"
	"fmt"
	"strings"
	"testing"

	"github.com/faelabs/fae/internal/guard"
	"github.com/faelabs/fae/internal/impl/impltest"
)

// TestGuardPages runs guard.TestAEAD on every registered algorithm, made
// through New with its key against a guard page: at the default sizes on
// the default kernels and on the portable code (each package's own tests
// take every path between), and at the smallest and largest nonce and tag
// sizes on the default kernels.
func TestGuardPages(t *testing.T) {
	check := func(t *testing.T, info Info, nonceSize, tagSize int) {
		maxLen := 0
		if strings.HasSuffix(info.Name, "-ccm") && nonceSize > 12 {
			maxLen = 1<<(8*(15-nonceSize)) - 1 // CCM's length field has 15-nonceSize bytes
		}
		guard.TestNewAEAD(t, info.KeySize, maxLen, func(key []byte) (cipher.AEAD, error) {
			return New(info.Name, key, WithNonceSize(nonceSize), WithTagSize(tagSize))
		})
	}
	impltest.RunAll(t, func(t *testing.T) {
		for _, info := range Algorithms() {
			t.Run(info.Name, func(t *testing.T) { check(t, info, info.NonceSize, info.TagSize) })
		}
	})
	for _, info := range Algorithms() {
		lo, hi := 0, len(info.NonceSizes)-1
		ltag, htag := 0, len(info.TagSizes)-1
		for _, s := range [][2]int{{info.NonceSizes[lo], info.TagSizes[ltag]}, {info.NonceSizes[hi], info.TagSizes[htag]}} {
			if s == [2]int{info.NonceSize, info.TagSize} {
				continue
			}
			t.Run(fmt.Sprintf("%s/nonce%d-tag%d", info.Name, s[0], s[1]), func(t *testing.T) { check(t, info, s[0], s[1]) })
		}
	}
}

// TestGCMShortTags runs guard.TestAEAD on every GCM of the registry with each
// tag shorter than 16 bytes, on the default kernels and on the portable code:
// with such tags Go's GCM assembly writes past Seal's output and reads past
// Open's ciphertext (go.dev/issue/80288), which the registry had to mend
// while its GCM was Go's. Package gcm's TestGuardPages takes every kernel.
func TestGCMShortTags(t *testing.T) {
	impltest.RunAll(t, func(t *testing.T) {
		for _, info := range Algorithms() {
			if !strings.HasSuffix(info.Name, "-gcm") {
				continue
			}
			for _, tagSize := range info.TagSizes {
				if tagSize < 16 {
					t.Run(fmt.Sprintf("%s/tag%d", info.Name, tagSize), func(t *testing.T) {
						guard.TestNewAEAD(t, info.KeySize, 0, func(key []byte) (cipher.AEAD, error) {
							return New(info.Name, key, WithTagSize(tagSize))
						})
					})
				}
			}
		}
	})
}
