package lea

import (
	"crypto/rand"
	"encoding/binary"
	"testing"

	"github.com/faelabs/fae/internal/testkit"
)

func TestKeySizes(t *testing.T) {
	for n := range 65 {
		b, err := New(make([]byte, n))
		ok := n == 16 || n == 24 || n == 32
		if ok != (err == nil) {
			t.Errorf("New with a %d-byte key: error %v", n, err)
		}
		if !ok {
			if _, isKSE := err.(KeySizeError); !isKSE || err.Error() == "" {
				t.Errorf("New with a %d-byte key: error %#v, want a KeySizeError", n, err)
			}
			continue
		}
		if b.BlockSize() != BlockSize {
			t.Errorf("BlockSize() = %d", b.BlockSize())
		}
		if b.rounds != 24+(n-16)/2 {
			t.Errorf("%d-byte key: %d rounds", n, b.rounds)
		}
	}
}

func TestPanics(t *testing.T) {
	b, _ := New(make([]byte, 16))
	buf := make([]byte, 64)
	testkit.MustPanic(t, "Encrypt of a short block", func() { b.Encrypt(buf, buf[:15]) })
	testkit.MustPanic(t, "Encrypt to a short block", func() { b.Encrypt(buf[:15], buf[16:32]) })
	testkit.MustPanic(t, "Decrypt of a short block", func() { b.Decrypt(buf, buf[:15]) })
	testkit.MustPanic(t, "Encrypt with inexact overlap", func() { b.Encrypt(buf[1:], buf) })
	testkit.MustPanic(t, "Decrypt with inexact overlap", func() { b.Decrypt(buf[1:], buf) })
	testkit.MustPanic(t, "EncryptBlocks of a partial block", func() { b.EncryptBlocks(buf, buf[:17]) })
	testkit.MustPanic(t, "EncryptBlocks to a short dst", func() { b.EncryptBlocks(buf[:16], buf[32:64]) })
	testkit.MustPanic(t, "EncryptBlocks with inexact overlap", func() { b.EncryptBlocks(buf[16:], buf[:32]) })
	testkit.MustPanic(t, "DecryptBlocks with inexact overlap", func() { b.DecryptBlocks(buf[16:], buf[:32]) })
	testkit.MustPanic(t, "CTRBlocks of a partial block", func() { b.CTRBlocks(buf, buf[:17], 0, 0) })
	testkit.MustPanic(t, "CTRBlocks with inexact overlap", func() { b.CTRBlocks(buf[16:], buf[:32], 0, 0) })

	// Exact overlap and a longer dst are fine.
	b.Encrypt(buf, buf)
	b.EncryptBlocks(buf, buf[:32])
	b.CTRBlocks(buf, buf[:32], 0, 0)
}

// TestEncryptWords compares EncryptWords and Encrypt, which run in assembly
// with any vector kernel, with the generic code.
func TestEncryptWords(t *testing.T) {
	paths.Run(t, func(t *testing.T) {
		for _, keySize := range []int{16, 24, 32} {
			key := make([]byte, keySize)
			rand.Read(key)
			b, _ := New(key)
			for range 100 {
				var in, want, got [16]byte
				rand.Read(in[:])
				encryptBlocksGeneric(b, want[:], in[:])
				w0, w1 := b.EncryptWords(binary.LittleEndian.Uint64(in[:8]), binary.LittleEndian.Uint64(in[8:]))
				binary.LittleEndian.PutUint64(got[:8], w0)
				binary.LittleEndian.PutUint64(got[8:], w1)
				if got != want {
					t.Fatalf("%d-byte key: EncryptWords(%x) = %x, want %x", keySize, in, got, want)
				}
				b.Encrypt(got[:], in[:])
				if got != want {
					t.Fatalf("%d-byte key: Encrypt(%x) = %x, want %x", keySize, in, got, want)
				}
			}
		}
	})
}

// TestNoAllocs checks the methods the modes call in their loops, on stack
// buffers as the modes pass them.
func TestNoAllocs(t *testing.T) {
	b, _ := New(make([]byte, 16))
	heap := make([]byte, 1000*BlockSize)
	var w0, w1 uint64
	for name, f := range map[string]func(){
		"Encrypt": func() {
			var buf [BlockSize]byte
			b.Encrypt(buf[:], buf[:])
		},
		"EncryptBlocks": func() {
			var buf [7 * BlockSize]byte
			b.EncryptBlocks(buf[:], buf[:])
			b.EncryptBlocks(heap, heap)
		},
		"DecryptBlocks": func() {
			var buf [7 * BlockSize]byte
			b.DecryptBlocks(buf[:], buf[:])
			b.DecryptBlocks(heap, heap)
		},
		"CTRBlocks": func() {
			var buf [7 * BlockSize]byte
			b.CTRBlocks(buf[:], buf[:], 1, 2)
			b.CTRBlocks(heap, heap, 1, 2)
		},
		"EncryptWords": func() { w0, w1 = b.EncryptWords(w0, w1) },
	} {
		if n := testing.AllocsPerRun(10, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}
