package rocca

import (
	"testing"

	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs guard.TestAEAD on every path, with the key against a
// guard page too: the AVX-512 message kernels read and write the partial
// last blocks of associated data and message in place through byte masks,
// and must touch nothing past the buffers.
func TestGuardPages(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		guard.TestNewAEAD(t, KeySize, 0, New)
	})
}
