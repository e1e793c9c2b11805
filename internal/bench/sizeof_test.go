//lint:file-ignore U1000 the test types exist for their memory layout

package bench

import (
	"testing"
	"unsafe"

	"github.com/faelabs/fae/ctr"
)

type leaf struct {
	a [16]byte
	b uint64
}

type node struct {
	k      [32]byte
	p      *leaf
	q      *leaf // the same leaf as p: counted once
	s      []uint32
	str    string
	i      any // a pointer in an interface
	boxed  any // a value boxed in an interface
	next   *node
	m      map[uint8]uint16
	f      func()
	unused *leaf
}

func TestContextSize(t *testing.T) {
	l := &leaf{}
	n := &node{p: l, q: l, s: make([]uint32, 2, 5), str: "hello", i: &leaf{}, boxed: [3]uint64{},
		m: map[uint8]uint16{1: 2, 3: 4}, f: func() {}}
	n.next = n // a cycle
	want := int(unsafe.Sizeof(node{})) +
		int(unsafe.Sizeof(leaf{})) + // p and q
		5*4 + // s, its capacity
		5 + // str
		int(unsafe.Sizeof(leaf{})) + // i
		3*8 + // boxed
		2*(1+2) // m, keys and elements
	if got := contextSize(n); got != want {
		t.Errorf("contextSize = %d, want %d", got, want)
	}

	// A value, not a pointer, counts its own size.
	if got, want := contextSize(leaf{}), int(unsafe.Sizeof(leaf{})); got != want {
		t.Errorf("contextSize(leaf{}) = %d, want %d", got, want)
	}
	if got := contextSize(nil); got != 0 {
		t.Errorf("contextSize(nil) = %d", got)
	}
}

// TestContextSizeCTR checks a real value: fae's AES-CTR holds at least the
// expanded AES-128 key, 11 round keys of 16 bytes.
func TestContextSizeCTR(t *testing.T) {
	s, err := ctr.New(make([]byte, 16), make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	if got := contextSize(s); got < 11*16 {
		t.Errorf("contextSize(AES-128-CTR) = %d, less than its round keys", got)
	}
}
