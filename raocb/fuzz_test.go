package raocb

import (
	"bytes"
	"testing"

	"github.com/faelabs/fae/internal/impl"
)

// FuzzRoundTrip seals and opens fuzzed messages with every kernel: all must
// agree, round-trip, reject a flipped bit anywhere in ciphertext or tag,
// and decrypt any run of blocks as Open does.
func FuzzRoundTrip(f *testing.F) {
	f.Add(make([]byte, 16), []byte("nonce"), []byte("plaintext"), []byte("ad"), uint8(16), uint16(3), uint16(0))
	f.Add(make([]byte, 32), make([]byte, 15), make([]byte, 1000), []byte{}, uint8(8), uint16(8000), uint16(17))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, tagSize uint8, flip, first uint16) {
		if k := len(key); k != 16 && k != 24 && k != 32 {
			return
		}
		if len(nonce) < MinNonceSize || len(nonce) > MaxNonceSize || tagSize < MinTagSize || tagSize > MaxTagSize {
			return
		}
		var want []byte
		for _, kernel := range append(impl.List("aes"), "generic") {
			withKernel(kernel, func() {
				a, err := NewWithSizes(key, len(nonce), int(tagSize))
				if err != nil {
					t.Fatal(err)
				}
				ct := a.Seal(nil, nonce, pt, ad)
				if want == nil {
					want = bytes.Clone(ct)
				} else if !bytes.Equal(ct, want) {
					t.Fatalf("kernel %s disagrees", kernel)
				}
				if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("kernel %s: round trip failed", kernel)
				}
				i := int(first) % (len(pt)/blockSize + 1)
				if got := a.DecryptBlocks(nil, nonce, ct[16*i:len(pt)], uint64(i)); !bytes.Equal(got, pt[16*i:]) {
					t.Fatalf("kernel %s: DecryptBlocks from block %d differs from Open", kernel, i)
				}
				bit := int(flip) % (8 * len(ct))
				ct[bit/8] ^= 1 << (bit % 8)
				if _, err := a.Open(nil, nonce, ct, ad); err == nil {
					t.Fatalf("kernel %s: flipped bit %d accepted", kernel, bit)
				}
			})
		}
	})
}
