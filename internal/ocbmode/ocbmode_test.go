package ocbmode

import (
	"testing"

	"github.com/faelabs/fae/internal/words"
)

func TestDouble(t *testing.T) {
	// x^127 doubles to the reduction polynomial's low terms; 1 doubles to x.
	for _, c := range []struct{ in, want [16]byte }{
		{[16]byte{0: 0x80}, [16]byte{15: 0x87}},
		{[16]byte{15: 1}, [16]byte{15: 2}},
		{[16]byte{7: 0x80}, [16]byte{6: 1}},
		{[16]byte{8: 0x80, 15: 0x81}, [16]byte{7: 1, 14: 1, 15: 2}},
	} {
		if got := Double(words.Load(c.in[:])).Bytes(); got != c.want {
			t.Errorf("Double(%x) = %x, want %x", c.in, got, c.want)
		}
	}
}

func TestPadded(t *testing.T) {
	p := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
	for n := range p {
		var want [16]byte
		copy(want[:], p[:n])
		want[n] = 0x80
		if got := Padded(p[:n]).Bytes(); got != want {
			t.Errorf("Padded(%d bytes) = %x, want %x", n, got, want)
		}
	}
}

// TestOffsetAt checks the Gray-code offsets against RFC 7253's chain
// Offset_i = Offset_{i-1} ^ L_ntz(i), across an index with more trailing
// zeros than the table holds.
func TestOffsetAt(t *testing.T) {
	_, l := Ls(words.Block{W0: 0x0123456789abcdef, W1: 0xfedcba9876543210})
	off0 := words.Block{W0: 42, W1: 7}
	for _, start := range []uint64{0, 1000, 1<<NumL - 3, 1<<(NumL+2) - 5} {
		off := OffsetAt(&l, off0, start)
		for i := start + 1; i < start+10; i++ {
			tz := 0
			for j := i; j&1 == 0; j >>= 1 {
				tz++
			}
			off = off.Xor(LAt(&l, tz))
			if got := OffsetAt(&l, off0, i); got != off {
				t.Fatalf("OffsetAt(%d) = %x, want %x", i, got, off)
			}
		}
	}
}

// TestLimits checks RAOCB's limits (docs/raocb.md) at their edges: a
// message's tag uses index m+3 < 2^30, associated data of a full blocks
// indices up to a-1, and a final partial block index a+1.
func TestLimits(t *testing.T) {
	const maxBlocks = 1<<30 - 4
	for _, c := range []struct {
		first, n uint64
		ok       bool
	}{
		{0, 16 * maxBlocks, true},
		{0, 16*maxBlocks - 15, true},
		{0, 16*maxBlocks + 1, false},
		{maxBlocks - 1, 16, true},
		{maxBlocks - 1, 17, false},
		{maxBlocks, 0, true},
		{maxBlocks, 1, false},
		{maxBlocks + 1, 0, false},
		{1 << 63, 16, false},
		{0, 1 << 63, false},
	} {
		if got := RangeFits(c.first, c.n); got != c.ok {
			t.Errorf("RangeFits(%d, %d) = %v, want %v", c.first, c.n, got, c.ok)
		}
	}
	for _, c := range []struct {
		n  uint64
		ok bool
	}{
		{0, true}, {16 << 30, true}, {16<<30 - 17, true}, {16<<30 - 16 - 15, true},
		{16<<30 - 16, true}, {16<<30 - 15, false}, {16<<30 - 1, false}, {16<<30 + 1, false},
	} {
		if got := ADFits(c.n); got != c.ok {
			t.Errorf("ADFits(%d) = %v, want %v", c.n, got, c.ok)
		}
		if uint64(int(c.n)) != c.n { // 32-bit int
			continue
		}
		if got := Fits(0, int(c.n)); got != c.ok {
			t.Errorf("Fits(0, %d) = %v, want %v", c.n, got, c.ok)
		}
	}
	if TagIndex(16*maxBlocks) != 1<<30-1 {
		t.Errorf("TagIndex of the longest message = %d, want 2^30-1", TagIndex(16*maxBlocks))
	}
}

// TestKtopInput checks KtopInput against RFC 7253's byte-wise definition:
// bottom is the last byte's low 6 bits, and the block is Nonce without them.
func TestKtopInput(t *testing.T) {
	nonce := []byte{0xb0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0xff}
	for size := 1; size <= len(nonce); size++ {
		n := Nonce(nonce[len(nonce)-size:], 16)
		want := n.Bytes()
		bottom := uint(want[15] & 63)
		want[15] &^= 63
		in, gotBottom := KtopInput(n)
		if in.Bytes() != want || gotBottom != bottom {
			t.Errorf("nonce of %d bytes: KtopInput = %x, %d; want %x, %d", size, in.Bytes(), gotBottom, want, bottom)
		}
	}
}
