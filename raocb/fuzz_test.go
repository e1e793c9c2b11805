package raocb

import (
	"bytes"
	"io"
	"testing"

	"github.com/faelabs/fae/internal/ocbmode"
)

// FuzzRoundTrip seals and opens fuzzed messages on every path: all must
// agree with each other and with the plain model ref, round-trip, reject a
// flipped bit anywhere in ciphertext or tag, in Open and in NewReaderAt,
// and encrypt and decrypt any run of blocks as Seal and Open do, also at
// the block index that at picks anywhere in the domain, where the kernels'
// masks must still agree with ref's.
func FuzzRoundTrip(f *testing.F) {
	f.Add(make([]byte, 16), []byte("nonce"), []byte("plaintext"), []byte("ad"), uint8(16), uint16(3), uint16(0), uint32(0))
	f.Add(make([]byte, 32), make([]byte, 15), make([]byte, 1000), []byte{}, uint8(8), uint16(8000), uint16(17), uint32(1<<30-100))
	f.Add(make([]byte, 24), make([]byte, 1), make([]byte, 531), make([]byte, 17), uint8(13), uint16(100), uint16(5), uint32(1<<16-3))
	f.Fuzz(func(t *testing.T, key, nonce, pt, ad []byte, tagSize uint8, flip, first uint16, at uint32) {
		if k := len(key); k != 16 && k != 24 && k != 32 {
			return
		}
		if len(nonce) < MinNonceSize || len(nonce) > MaxNonceSize || tagSize < MinTagSize || tagSize > MaxTagSize {
			return
		}
		r := newRef(key, int(tagSize))
		want := r.seal(nonce, pt, ad)
		high := uint64(at) % (ocbmode.MaxIndex - 4 - ocbmode.NumBlocks(uint64(len(pt))) + 1)
		wantHigh, _ := r.blocks(r.base(nonce), pt, high, false)
		i := int(first) % (len(pt)/blockSize + 1)
		paths.Each(func(path string) {
			a, err := NewWithSizes(key, len(nonce), int(tagSize))
			if err != nil {
				t.Fatal(err)
			}
			ct := a.Seal(nil, nonce, pt, ad)
			if !bytes.Equal(ct, want) {
				t.Fatalf("path %s disagrees with the model", path)
			}
			if got, err := a.Open(nil, nonce, ct, ad); err != nil || !bytes.Equal(got, pt) {
				t.Fatalf("path %s: round trip failed", path)
			}
			if got := a.EncryptBlocks(nil, nonce, pt[16*i:], uint64(i)); !bytes.Equal(got, ct[16*i:len(pt)]) {
				t.Fatalf("path %s: EncryptBlocks from block %d differs from Seal", path, i)
			}
			if got := a.DecryptBlocks(nil, nonce, ct[16*i:len(pt)], uint64(i)); !bytes.Equal(got, pt[16*i:]) {
				t.Fatalf("path %s: DecryptBlocks from block %d differs from Open", path, i)
			}
			got := a.EncryptBlocks(nil, nonce, pt, high)
			if !bytes.Equal(got, wantHigh) {
				t.Fatalf("path %s: EncryptBlocks from block %d disagrees with the model", path, high)
			}
			if got := a.DecryptBlocks(got[:0], nonce, got, high); !bytes.Equal(got, pt) {
				t.Fatalf("path %s: DecryptBlocks from block %d does not undo EncryptBlocks", path, high)
			}
			ra, err := NewReaderAt(a, nonce, bytes.NewReader(ct), int64(len(ct)), ad)
			if err != nil {
				t.Fatalf("path %s: NewReaderAt: %v", path, err)
			}
			off := int((uint64(first) + uint64(at)) % uint64(len(pt)+1))
			p := make([]byte, len(pt)-off+int(at%20))
			if n, err := ra.ReadAt(p, int64(off)); n != len(pt)-off || !bytes.Equal(p[:n], pt[off:]) || err != nil && err != io.EOF {
				t.Fatalf("path %s: ReadAt(%d bytes, %d) = %d, %v: wrong bytes", path, len(p), off, n, err)
			}
			bit := int(flip) % (8 * len(ct))
			ct[bit/8] ^= 1 << (bit % 8)
			if _, err := a.Open(nil, nonce, ct, ad); err == nil {
				t.Fatalf("path %s: flipped bit %d accepted", path, bit)
			}
			if _, err := NewReaderAt(a, nonce, bytes.NewReader(ct), int64(len(ct)), ad); err == nil {
				t.Fatalf("path %s: NewReaderAt accepted flipped bit %d", path, bit)
			}
		})
	})
}
