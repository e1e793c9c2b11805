package ccm

import (
	"bytes"
	stdaes "crypto/aes"
	"crypto/cipher"
	"errors"
	"fmt"
	"testing"

	"github.com/faelabs/fae/internal/aeadtest"
	"github.com/faelabs/fae/internal/aes"
)

// TestAEAD runs the conformance suite on every path, for each key size and
// a spread of nonce and tag sizes, and on NewFromBlock over crypto/aes. The
// suite seals messages of 1 MiB, which needs nonces of at most 12 bytes;
// TestLengthLimit covers 13.
func TestAEAD(t *testing.T) {
	params := []struct{ keySize, nonceSize, tagSize int }{
		{16, 12, 16}, {24, 7, 4}, {32, 11, 10}, {16, 8, 6}, {32, 12, 16},
	}
	paths.Run(t, func(t *testing.T) {
		for _, p := range params {
			t.Run(fmt.Sprintf("key%d_nonce%d_tag%d", p.keySize, p.nonceSize, p.tagSize), func(t *testing.T) {
				aeadtest.TestAEAD(t, func() (cipher.AEAD, error) {
					return NewWithSizes(make([]byte, p.keySize), p.nonceSize, p.tagSize)
				})
			})
		}
	})
	// Another cipher takes a scratch buffer from the heap per message.
	t.Run("NewFromBlock", func(t *testing.T) {
		aeadtest.TestAEAD(t, func() (cipher.AEAD, error) {
			b, err := stdaes.NewCipher(make([]byte, 16))
			if err != nil {
				return nil, err
			}
			return NewFromBlock(b, 12, 16)
		}, aeadtest.AllowAllocs())
	})
}

func TestNewErrors(t *testing.T) {
	for _, keySize := range []int{0, 15, 17, 31, 33} {
		_, err := New(make([]byte, keySize))
		if ks := aes.KeySizeError(0); !errors.As(err, &ks) || int(ks) != keySize {
			t.Errorf("New with a %d-byte key: error %v, want a wrapped KeySizeError", keySize, err)
		}
	}
	for nonceSize := range 20 {
		for tagSize := range 20 {
			ok := nonceSize >= 7 && nonceSize <= 13 && tagSize >= 4 && tagSize <= 16 && tagSize%2 == 0
			if _, err := NewWithSizes(make([]byte, 16), nonceSize, tagSize); (err == nil) != ok {
				t.Errorf("NewWithSizes with nonce %d, tag %d: error %v", nonceSize, tagSize, err)
			}
		}
	}
	b, _ := stdaes.NewCipher(make([]byte, 16))
	if _, err := NewFromBlock(b, 6, 16); err == nil {
		t.Error("NewFromBlock accepted a 6-byte nonce")
	}
	if _, err := NewFromBlock(smallBlock{b}, 12, 16); err == nil {
		t.Error("NewFromBlock accepted an 8-byte block")
	}
}

// TestNewDefaults checks that New is NewWithSizes with a 12-byte nonce and
// a 16-byte tag.
func TestNewDefaults(t *testing.T) {
	key := make([]byte, 16)
	a, err := New(key)
	if err != nil {
		t.Fatal(err)
	}
	if a.NonceSize() != 12 || a.Overhead() != 16 {
		t.Fatalf("New: nonce %d, tag %d; want 12, 16", a.NonceSize(), a.Overhead())
	}
	b, _ := NewWithSizes(key, 12, 16)
	nonce := make([]byte, 12)
	if x, y := a.Seal(nil, nonce, []byte("message"), nil), b.Seal(nil, nonce, []byte("message"), nil); !bytes.Equal(x, y) {
		t.Errorf("New seals %x, NewWithSizes(key, 12, 16) %x", x, y)
	}
}

type smallBlock struct{ cipher.Block }

func (smallBlock) BlockSize() int { return 8 }

// TestLengthLimit checks the largest message of a 13-byte nonce (2-byte
// length and counter fields) and that one byte more panics in Seal and fails
// in Open.
func TestLengthLimit(t *testing.T) {
	const max = 1<<16 - 1
	pt := make([]byte, max+1)
	paths.Run(t, func(t *testing.T) {
		a, _ := NewWithSizes(make([]byte, 16), 13, 16)
		nonce := make([]byte, 13)
		ct := a.Seal(nil, nonce, pt[:max], nil)
		if got, err := a.Open(nil, nonce, ct, nil); err != nil || !bytes.Equal(got, pt[:max]) {
			t.Fatalf("Open of %d bytes failed: %v", max, err)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Seal of %d bytes did not panic", max+1)
				}
			}()
			a.Seal(nil, nonce, pt, nil)
		}()
		if out, err := a.Open(nil, nonce, append(ct, 0), nil); err == nil || out != nil {
			t.Errorf("Open of %d bytes did not fail", max+1)
		}
	})
}

func TestPutADLen(t *testing.T) {
	for _, c := range []struct {
		l    uint64
		want string
	}{
		{1, "0001"},
		{1<<16 - 1<<8 - 1, "feff"},
		{1<<16 - 1<<8, "fffe0000ff00"},
		{1<<32 - 1, "fffeffffffff"},
		{1 << 32, "ffff0000000100000000"},
		{1<<64 - 1, "ffffffffffffffffffff"},
	} {
		var b [10]byte
		if got := fmt.Sprintf("%x", b[:putADLen(b[:], c.l)]); got != c.want {
			t.Errorf("putADLen(%d) = %s, want %s", c.l, got, c.want)
		}
	}
}
