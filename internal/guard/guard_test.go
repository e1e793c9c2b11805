package guard

import (
	"crypto/aes"
	"crypto/cipher"
	"testing"
	"unsafe"
)

func TestSlice(t *testing.T) {
	r := New(t, 5000)
	for _, side := range Sides {
		for _, n := range []int{0, 1, 4095, 4096, 4097, 5000} {
			s := r.Slice(n, side)
			if len(s) != n || cap(s) != n {
				t.Fatalf("%v, %d bytes: len %d, cap %d", side, n, len(s), cap(s))
			}
			for i := range s {
				s[i] = byte(i)
			}
		}
	}
}

// TestFault checks that the byte just past each side is inaccessible and
// that Fault reports touching it.
func TestFault(t *testing.T) {
	r := New(t, 100)
	for _, n := range []int{0, 1, 100} {
		// The byte after the end, and the one before the start.
		end := unsafe.Add(unsafe.Pointer(unsafe.SliceData(r.Slice(n, End))), n)
		start := unsafe.Add(unsafe.Pointer(unsafe.SliceData(r.Slice(n, Start))), -1)
		for _, p := range []*byte{(*byte)(end), (*byte)(start)} {
			if err := Fault(func() { _ = *p }); err == nil {
				t.Errorf("%d bytes: reading %p did not fault", n, p)
			}
			if err := Fault(func() { *p = 1 }); err == nil {
				t.Errorf("%d bytes: writing %p did not fault", n, p)
			}
		}
	}
	if err := Fault(func() {}); err != nil {
		t.Errorf("Fault of a function that touches nothing: %v", err)
	}
}

func TestFaultPassesPanics(t *testing.T) {
	defer func() {
		if recover() != "boom" {
			t.Errorf("Fault did not pass the panic through")
		}
	}()
	Fault(func() { panic("boom") })
}

// TestAEADGCM runs TestAEAD on the standard library's GCM, which is known
// to stay within its buffers when the tag is 16 bytes.
func TestAEADGCM(t *testing.T) {
	b, err := aes.NewCipher(make([]byte, 16))
	if err != nil {
		t.Fatal(err)
	}
	a, err := cipher.NewGCM(b)
	if err != nil {
		t.Fatal(err)
	}
	TestAEAD(t, a, 0)
}
