package rocca

import (
	"testing"

	"github.com/faelabs/fae/internal/guard"
)

// TestGuardPages runs guard.TestAEAD on every path, with the key against a
// guard page too: the amd64 message kernels read and write the partial
// last blocks of associated data and message in place (through byte masks
// with AVX-512, overlapping loads and piecewise stores without), and must
// touch nothing outside the buffers.
func TestGuardPages(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		guard.TestNewAEAD(t, KeySize, 0, New)
	})
}
