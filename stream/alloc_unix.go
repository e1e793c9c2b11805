//go:build unix

package stream

import (
	"math"
	"syscall"

	"golang.org/x/sys/unix"
)

// allocSlack is what the Go runtime may need beyond an allocation's size:
// it grows the heap in 64 MiB arenas, with their metadata.
const allocSlack = 80 << 20

// canAllocate maps and unmaps n bytes and allocSlack more, and returns the
// error if that fails. x/crypto/argon2 allocates its memory itself, and a Go
// allocation that fails ends the program with a stack dump; the limits that
// would make it fail (RLIMIT_AS, RLIMIT_DATA, an overcommit policy, a
// 32-bit address space) fail this mapping first, as an error.
func canAllocate(n uint64) error {
	if n > math.MaxInt-allocSlack {
		return syscall.ENOMEM
	}
	b, err := unix.Mmap(-1, 0, int(n)+allocSlack, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return err
	}
	return unix.Munmap(b)
}
