//go:build !race

package gcm

import (
	"math/bits"
	"testing"
	"unsafe"
)

// TestMessageLimit checks GCM's limit of 2^32-2 blocks, as crypto/cipher
// enforces it: Seal panics beyond it and Open fails, before either touches
// the (here fictitious) memory. (The race detector's pointer checks refuse
// such a slice.)
func TestMessageLimit(t *testing.T) {
	if bits.UintSize == 32 {
		t.Skip("a slice cannot be that long")
	}
	a, _ := New(make([]byte, 16))
	nonce := make([]byte, NonceSize)
	var b byte
	limit := uint64(maxBlocks * blockSize) // a variable: the constant overflows a 32-bit int
	huge := unsafe.Slice(&b, limit+1)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("Seal accepted more than 2^32-2 blocks")
			}
		}()
		a.Seal(nil, nonce, huge, nil)
	}()
	if _, err := a.Open(nil, nonce, unsafe.Slice(&b, limit+TagSize+1), nil); err == nil {
		t.Error("Open accepted more than 2^32-2 blocks")
	}
}
