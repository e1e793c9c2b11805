package aegis

import (
	"strconv"
	"testing"

	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs guard.TestAEAD on every path, variant and tag size
// (with -short, the 32-byte tag only), with the key against a guard page
// too: the AVX-512 kernels read and write the partial last blocks of
// associated data and message in place through masks, and must touch
// nothing past the buffers.
func TestGuardPages(t *testing.T) {
	tagSizes := []int{16, 32}
	if testing.Short() {
		tagSizes = tagSizes[1:]
	}
	paths.Run(t, func(t *testing.T) {
		for _, c := range allVariants {
			for _, tagSize := range tagSizes {
				t.Run(c.v.name+"-tag"+strconv.Itoa(tagSize), func(t *testing.T) {
					guard.TestNewAEAD(t, c.v.keySize, 0, func(key []byte) (*AEAD, error) { return c.new(key, tagSize) })
				})
			}
		}
	})
}
