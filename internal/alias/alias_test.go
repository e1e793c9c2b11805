package alias

import "testing"

// TestOverlap runs the boundaries: adjacent slices, a shared first or last
// byte, the same start, empty slices inside another.
func TestOverlap(t *testing.T) {
	b := make([]byte, 32)
	for _, c := range []struct {
		x, y         []byte
		any, inexact bool
	}{
		{b[0:8], b[8:16], false, false},
		{b[8:16], b[0:8], false, false},
		{b[0:9], b[8:16], true, true},
		{b[8:16], b[15:20], true, true},
		{b[0:8], b[0:8], true, false},
		{b[0:8], b[0:16], true, false},
		{b[4:4], b[0:8], false, false},
		{b[0:8], b[4:4], false, false},
		{b[0:0], b[0:8], false, false},
		{nil, b, false, false},
		{b[0:8], make([]byte, 8), false, false},
	} {
		if got := AnyOverlap(c.x, c.y); got != c.any {
			t.Errorf("AnyOverlap(b[%d:%d], b[%d:%d]) = %v", off(b, c.x), off(b, c.x)+len(c.x), off(b, c.y), off(b, c.y)+len(c.y), got)
		}
		if got := InexactOverlap(c.x, c.y); got != c.inexact {
			t.Errorf("InexactOverlap(b[%d:%d], b[%d:%d]) = %v", off(b, c.x), off(b, c.x)+len(c.x), off(b, c.y), off(b, c.y)+len(c.y), got)
		}
	}
}

// off is x's offset in b, or -1.
func off(b, x []byte) int {
	for i := range b {
		if cap(x) > 0 && &b[i] == &x[:1][0] {
			return i
		}
	}
	return -1
}
