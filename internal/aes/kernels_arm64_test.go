//go:build !purego

package aes

import (
	"math/rand/v2"
	"testing"

	"github.com/faelabs/fae/internal/cpu"
)

// TestExpandKeyARMv8 checks the assembly key expansion against the generic
// one, including that both leave the bytes past the last round key alone.
func TestExpandKeyARMv8(t *testing.T) {
	if !cpu.ARM64HasAES {
		t.Skip("no ARMv8 AES")
	}
	r := rand.NewChaCha8([32]byte{3})
	for _, size := range []int{16, 24, 32} {
		key := make([]byte, size)
		for range 1000 {
			r.Read(key)
			want := &Block{rounds: size/4 + 6}
			r.Read(want.enc[:])
			r.Read(want.dec[:])
			got := *want
			expandKeyGeneric(want, key)
			expandKeyARMv8(got.rounds, &key[0], &got.enc, &got.dec)
			if got.enc != want.enc {
				t.Fatalf("key %x:\nenc = %x\nwant  %x", key, got.enc, want.enc)
			}
			if got.dec != want.dec {
				t.Fatalf("key %x:\ndec = %x\nwant  %x", key, got.dec, want.dec)
			}
		}
	}
}
