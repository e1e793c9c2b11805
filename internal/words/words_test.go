package words

import (
	"bytes"
	"testing"
)

func TestLoadStore(t *testing.T) {
	p := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 99}
	x := Load(p)
	if x != (Block{0x0706050403020100, 0x0f0e0d0c0b0a0908}) {
		t.Fatalf("Load = %x", x)
	}
	if b := x.Bytes(); !bytes.Equal(b[:], p[:16]) {
		t.Errorf("Bytes = %x", b)
	}
	q := make([]byte, 17)
	q[16] = 99
	x.Store(q)
	if !bytes.Equal(q, p) {
		t.Errorf("Store wrote %x", q)
	}
	if y := x.Xor(Block{1, 2}); y != (Block{x.W0 ^ 1, x.W1 ^ 2}) {
		t.Errorf("Xor = %x", y)
	}
}

// TestPutMatches checks Put and Matches on every tag length, and that
// Matches rejects a difference in any bit.
func TestPutMatches(t *testing.T) {
	x := Load([]byte("0123456789abcdef"))
	for n := 8; n <= 16; n++ {
		p := make([]byte, n+1)
		p[n] = 0xee
		x.Put(p[:n])
		if string(p[:n]) != "0123456789abcdef"[:n] || p[n] != 0xee {
			t.Fatalf("Put(%d bytes) wrote %q", n, p)
		}
		if !x.Matches(p[:n]) {
			t.Fatalf("Matches(%d bytes) rejected its own prefix", n)
		}
		for bit := range 8 * n {
			p[bit/8] ^= 1 << (bit % 8)
			if x.Matches(p[:n]) {
				t.Fatalf("Matches(%d bytes) accepted bit %d flipped", n, bit)
			}
			p[bit/8] ^= 1 << (bit % 8)
		}
	}
}

// TestPartial checks LoadPartial and XorPartial on every length short of a
// block: neither reads nor writes past it.
func TestPartial(t *testing.T) {
	p := []byte("0123456789abcdef")
	x := Load(p)
	for n := range 16 {
		var want [16]byte
		copy(want[:], p[:n])
		if got := LoadPartial(p[:n:n]); got != Load(want[:]) {
			t.Fatalf("LoadPartial(%d bytes) = %x", n, got)
		}
		src := []byte("FEDCBA9876543210")
		dst := make([]byte, n+1)
		dst[n] = 0xee
		x.XorPartial(dst[:n], src[:n])
		for i := range n {
			if dst[i] != src[i]^p[i] {
				t.Fatalf("XorPartial(%d bytes) = %x", n, dst[:n])
			}
		}
		if dst[n] != 0xee {
			t.Fatalf("XorPartial(%d bytes) wrote past its output", n)
		}
	}
}

// TestEqual flips each bit of every length up to 40 bytes.
func TestEqual(t *testing.T) {
	for n := 0; n <= 40; n++ {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte(7*i + n)
		}
		b := append([]byte(nil), a...)
		if !Equal(a, b) {
			t.Fatalf("%d bytes: equal slices differ", n)
		}
		if n > 0 && Equal(a, b[:n-1]) {
			t.Fatalf("%d bytes: unequal lengths match", n)
		}
		for i := range 8 * n {
			b[i/8] ^= 1 << (i % 8)
			if Equal(a, b) {
				t.Fatalf("%d bytes: bit %d flipped matches", n, i)
			}
			b[i/8] ^= 1 << (i % 8)
		}
	}
}
