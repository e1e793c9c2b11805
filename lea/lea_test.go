package lea

import (
	"bytes"
	"crypto/rand"
	"testing"

	"github.com/faelabs/fae/internal/testkit"
)

func TestNewCipherKeySizes(t *testing.T) {
	for n := range 65 {
		b, err := NewCipher(make([]byte, n))
		ok := n == 16 || n == 24 || n == 32
		if ok != (err == nil) {
			t.Errorf("NewCipher with a %d-byte key: error %v", n, err)
		}
		if !ok {
			if _, isKSE := err.(KeySizeError); !isKSE || err.Error() == "" {
				t.Errorf("NewCipher with a %d-byte key: error %#v, want a KeySizeError", n, err)
			}
			continue
		}
		if b.BlockSize() != BlockSize {
			t.Errorf("BlockSize() = %d", b.BlockSize())
		}
	}
	if _, err := NewCTR(make([]byte, 17), make([]byte, 16)); err == nil {
		t.Error("NewCTR accepted a 17-byte key")
	}
	for _, n := range []int{0, 8, 12, 15, 17, 32} {
		if _, err := NewCTR(make([]byte, 16), make([]byte, n)); err == nil {
			t.Errorf("NewCTR accepted a %d-byte IV", n)
		}
	}
}

// TestNoKeyReference checks that changing the key after NewCipher and
// NewCTR changes nothing.
func TestNoKeyReference(t *testing.T) {
	key, iv := make([]byte, 16), make([]byte, 16)
	rand.Read(key)
	b, _ := NewCipher(key)
	s, _ := NewCTR(key, iv)
	want, ks := make([]byte, 16), make([]byte, 16)
	b.Encrypt(want, make([]byte, 16))
	clear(key)
	got := make([]byte, 16)
	b.Encrypt(got, make([]byte, 16))
	s.XORKeyStream(ks, make([]byte, 16))
	if !bytes.Equal(got, want) || !bytes.Equal(ks, want) {
		t.Error("the cipher depends on the key slice after NewCipher or NewCTR")
	}
}

// bulk is the interface through which modes find LEA's extra methods.
type bulk interface {
	EncryptBlocks(dst, src []byte)
	DecryptBlocks(dst, src []byte)
	EncryptWords(w0, w1 uint64) (uint64, uint64)
}

// TestPanics checks the stream's misuse panics; the block's are
// internal/lea's TestPanics, on the same type NewCipher returns.
func TestPanics(t *testing.T) {
	b, _ := NewCipher(make([]byte, 16))
	c := b.(bulk)
	buf := make([]byte, 64)
	s, _ := NewCTR(make([]byte, 16), make([]byte, 16))
	testkit.MustPanic(t, "XORKeyStream to a short dst", func() { s.XORKeyStream(buf[:10], buf[32:43]) })
	testkit.MustPanic(t, "XORKeyStream with inexact overlap", func() { s.XORKeyStream(buf[1:], buf[:40]) })

	// Exact overlap and a longer dst are fine.
	b.Encrypt(buf, buf)
	c.EncryptBlocks(buf, buf[:32])
	s.XORKeyStream(buf, buf[:40])
}

// TestNoAllocs checks the methods the modes call in their loops, through
// interfaces as the modes do.
func TestNoAllocs(t *testing.T) {
	b, _ := NewCipher(make([]byte, 16))
	c := b.(bulk)
	s, _ := NewCTR(make([]byte, 16), make([]byte, 16))
	buf := make([]byte, 1000*BlockSize+7)
	var w0, w1 uint64
	for name, f := range map[string]func(){
		"Encrypt":       func() { b.Encrypt(buf, buf) },
		"EncryptBlocks": func() { c.EncryptBlocks(buf, buf[:(len(buf)/BlockSize-3)*BlockSize]) },
		"DecryptBlocks": func() { c.DecryptBlocks(buf, buf[:(len(buf)/BlockSize-3)*BlockSize]) },
		"XORKeyStream":  func() { s.XORKeyStream(buf, buf) },
		"EncryptWords":  func() { w0, w1 = c.EncryptWords(w0, w1) },
	} {
		if n := testing.AllocsPerRun(10, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}
