// Package guard makes byte slices that abut inaccessible memory, so that a
// test faults on any read or write past the end, or before the start, of a
// buffer: out-of-bounds accesses that assembly, unsafe code and slices with
// spare capacity would otherwise let pass silently. It is for tests only.
package guard

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"
)

// A Side says which end of a slice touches a guard page.
type Side int

const (
	End   Side = iota // the byte after the slice's capacity is inaccessible
	Start             // the byte before the slice's first one is inaccessible
)

// Sides lists both sides, for loops.
var Sides = []Side{End, Start}

func (s Side) String() string {
	if s == Start {
		return "start"
	}
	return "end"
}

// A Region is memory for one guarded slice at a time: an inaccessible page,
// whole pages of data, and another inaccessible page.
type Region struct {
	p    unsafe.Pointer // the first byte after the leading guard page
	size int            // bytes between the guard pages
}

// errUnsupported is returned by mapGuarded where the system has no way to
// make pages inaccessible that this package knows.
var errUnsupported = errors.New("guard pages are not supported on " + runtime.GOOS)

// New returns a Region for slices of up to n bytes, unmapped when t and its
// subtests end. It skips t where guard pages are not supported.
func New(t testing.TB, n int) *Region {
	t.Helper()
	page := os.Getpagesize()
	size := (n + page - 1) / page * page
	p, unmap, err := mapGuarded(size, page)
	if errors.Is(err, errUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("guard: %v", err)
	}
	t.Cleanup(func() {
		if err := unmap(); err != nil {
			t.Errorf("guard: %v", err)
		}
	})
	return &Region{p, size}
}

// Slice returns n bytes of r, with capacity n, touching the guard page at
// side, even when n is 0. Slices from earlier calls share its memory. Their
// contents are whatever r last held.
func (r *Region) Slice(n int, side Side) []byte {
	if n < 0 || n > r.size {
		panic(fmt.Sprintf("guard: slice of %d bytes from a region of %d", n, r.size))
	}
	// unsafe.Slice, not slicing, so that an empty slice at the end points at
	// the guard page: r's memory is not the Go heap's.
	if side == Start {
		return unsafe.Slice((*byte)(r.p), n)
	}
	return unsafe.Slice((*byte)(unsafe.Add(r.p, r.size-n)), n)
}

// Copy returns a copy of b made by r.Slice.
func (r *Region) Copy(b []byte, side Side) []byte {
	s := r.Slice(len(b), side)
	copy(s, b)
	return s
}

// Fault runs f and returns an error if it touched inaccessible memory,
// rather than let the fault crash the program. Other panics pass through.
// Faults in goroutines that f starts still crash the program.
func Fault(f func()) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		e := recover()
		if e == nil {
			return
		}
		// A fault panics with a runtime.Error about an invalid memory
		// address; qemu-arm reports none, which the runtime takes for a nil
		// dereference.
		re, ok := e.(runtime.Error)
		if !ok || !strings.Contains(re.Error(), "invalid memory address") {
			panic(e)
		}
		if a, ok := e.(interface{ Addr() uintptr }); ok {
			err = fmt.Errorf("memory fault at address %#x", a.Addr())
		} else {
			err = errors.New("memory fault at an unreported address")
		}
	}()
	f()
	return nil
}

// Lengths returns the buffer lengths guard tests try: every length from 0
// to 600, which covers every partial block and tail of the kernels' strides,
// and ragged sizes around 4 KiB and 64 KiB. With -short (the emulated CI
// runs) it keeps 0 to 200 and one large length.
func Lengths() []int {
	n, large := 600, []int{4096 - 17, 4096 - 1, 4096 + 1, 4096 + 15, 4096 + 16 + 7, 65536 + 7}
	if testing.Short() {
		n, large = 200, []int{4096 + 16 + 7}
	}
	l := make([]int, 0, n+1+len(large))
	for i := 0; i <= n; i++ {
		l = append(l, i)
	}
	return append(l, large...)
}
