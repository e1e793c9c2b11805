package raocb

import (
	"bytes"
	"syscall"
	"testing"

	"github.com/faelabs/fae/internal/impl/impltest"
)

// TestGuardPages seals and opens on every path with the nonce at the
// start of a page and a message's last byte at the end of one, each next to
// an inaccessible page: the masked loads and stores of the message kernels
// around the nonce and a final partial block must touch nothing else.
func TestGuardPages(t *testing.T) {
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip(err)
	}
	defer syscall.Munmap(mem)
	for _, guard := range [][]byte{mem[:page], mem[2*page:]} {
		if err := syscall.Mprotect(guard, syscall.PROT_NONE); err != nil {
			t.Skip(err)
		}
	}
	buf := mem[page : 2*page : 2*page]
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	key := make([]byte, 16)
	for _, nonceSize := range []int{1, 12, 15} {
		for _, n := range []int{17, 31, 513, 1000} {
			nonce, pt := buf[:nonceSize], buf[len(buf)-n:]
			orig := bytes.Clone(pt)
			var want []byte
			impltest.Generic(func() {
				a, _ := NewWithSizes(key, nonceSize, TagSize)
				want = a.Seal(nil, nonce, pt, nil)
			})
			paths.Each(func(path string) {
				a, _ := NewWithSizes(key, nonceSize, TagSize)
				if ct := a.Seal(nil, nonce, pt, nil); !bytes.Equal(ct, want) {
					t.Fatalf("%s: nonce %d, msg %d: Seal differs from generic", path, nonceSize, n)
				}
				// Opened into the end of the page, over pt itself.
				got, err := a.Open(pt[:0:n], nonce, want, nil)
				if err != nil || !bytes.Equal(got, orig) {
					t.Fatalf("%s: nonce %d, msg %d: Open failed: %v", path, nonceSize, n, err)
				}
			})
		}
	}
}
