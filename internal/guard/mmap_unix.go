//go:build unix

package guard

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// mapGuarded maps n bytes of read-write memory, n a multiple of page, between
// two inaccessible pages, and returns the address of the n bytes and a
// function that unmaps the whole mapping.
func mapGuarded(n, page int) (p unsafe.Pointer, unmap func() error, err error) {
	mem, err := unix.Mmap(-1, 0, page+n+page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	unmap = func() error { return unix.Munmap(mem) }
	for _, g := range [][]byte{mem[:page], mem[page+n:]} {
		if err := unix.Mprotect(g, unix.PROT_NONE); err != nil {
			unmap()
			return nil, nil, err
		}
	}
	return unsafe.Pointer(&mem[page]), unmap, nil
}
