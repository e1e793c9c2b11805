package aes

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"testing"
)

// FuzzKernelsAgree checks every kernel against crypto/aes, and so against
// each other, in ECB (both directions) and CTR, for fuzzed keys, data and
// counter blocks. wrap&3 moves the counter block to wrap>>2 blocks below a
// carry into its high half (1) or below the wrap to zero at 2^128 (2).
func FuzzKernelsAgree(f *testing.F) {
	ff := bytes.Repeat([]byte{0xff}, 32)
	f.Add(uint8(0), []byte("0123456789abcdef"), []byte("a short message"), []byte{}, uint8(0))
	f.Add(uint8(1), ff[:24], make([]byte, 200), ff[:16], uint8(0))
	f.Add(uint8(2), ff, bytes.Repeat([]byte("0123456789"), 70), append(make([]byte, 8), ff[:8]...), uint8(0))
	f.Add(uint8(0), ff[:16], make([]byte, 1100), []byte{}, uint8(1|20<<2))
	f.Add(uint8(2), ff[:16], make([]byte, 1100), []byte{}, uint8(2|40<<2))
	f.Fuzz(func(t *testing.T, size uint8, keyBytes, data, ivBytes []byte, wrap uint8) {
		key := make([]byte, keySizes[int(size)%len(keySizes)])
		copy(key, keyBytes)
		var iv [16]byte
		copy(iv[:], ivBytes)
		switch wrap & 3 {
		case 1:
			binary.BigEndian.PutUint64(iv[8:], ^uint64(wrap>>2))
		case 2:
			binary.BigEndian.PutUint64(iv[:8], ^uint64(0))
			binary.BigEndian.PutUint64(iv[8:], ^uint64(wrap>>2))
		}
		ref, err := stdaes.NewCipher(key)
		if err != nil {
			t.Fatal(err)
		}
		blocks := data[:len(data)&^(BlockSize-1)]
		wantECB := make([]byte, len(blocks))
		for i := 0; i < len(blocks); i += BlockSize {
			ref.Encrypt(wantECB[i:], blocks[i:])
		}
		wantCTR := make([]byte, len(data))
		cipher.NewCTR(ref, iv[:]).XORKeyStream(wantCTR, data)
		wantNext := addCounter(iv, uint64(len(data)+BlockSize-1)/BlockSize)

		got := make([]byte, len(data))
		paths.Each(func(name string) {
			b, err := New(key)
			if err != nil {
				t.Fatal(err)
			}
			b.EncryptBlocks(got, blocks)
			if !bytes.Equal(got[:len(blocks)], wantECB) {
				t.Fatalf("%s: EncryptBlocks differs from crypto/aes", name)
			}
			b.DecryptBlocks(got, wantECB)
			if !bytes.Equal(got[:len(blocks)], blocks) {
				t.Fatalf("%s: DecryptBlocks differs from crypto/aes", name)
			}
			next := iv
			b.XORKeyStreamAt(got, data, &next)
			if !bytes.Equal(got, wantCTR) {
				t.Fatalf("%s: XORKeyStreamAt differs from crypto/cipher.NewCTR", name)
			}
			if next != wantNext {
				t.Fatalf("%s: next counter %x, want %x", name, next, wantNext)
			}
		})
	})
}
