package raocb

import "syscall"

// adviseHugePages asks Linux to back p, not yet touched, with transparent
// huge pages (which THP's "madvise" setting grants only on request), and
// reports whether it agreed to consider it.
func adviseHugePages(p []byte) bool {
	const huge = 2 << 20
	return syscall.Madvise(p[:len(p)&^(huge-1)], syscall.MADV_HUGEPAGE) == nil
}
