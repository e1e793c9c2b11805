// Package alias reports overlap of byte slices, as crypto/internal/alias does
// for the standard library.
package alias

import "unsafe"

// AnyOverlap reports whether x and y share memory at any index.
func AnyOverlap(x, y []byte) bool {
	return len(x) > 0 && len(y) > 0 &&
		uintptr(unsafe.Pointer(unsafe.SliceData(x))) < uintptr(unsafe.Pointer(unsafe.SliceData(y)))+uintptr(len(y)) &&
		uintptr(unsafe.Pointer(unsafe.SliceData(y))) < uintptr(unsafe.Pointer(unsafe.SliceData(x)))+uintptr(len(x))
}

// InexactOverlap reports whether x and y share memory at any index other than
// the same one: exact overlap (in-place use) is allowed, any other is not.
func InexactOverlap(x, y []byte) bool {
	return unsafe.SliceData(x) != unsafe.SliceData(y) && AnyOverlap(x, y)
}

// SliceForAppend extends in by n bytes, reusing its array when it has room,
// and returns the whole slice and the n new bytes: the dst handling of
// cipher.AEAD's Seal and Open.
func SliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	tail = head[len(in):]
	return
}
