//go:build !unix

package guard

import "unsafe"

func mapGuarded(n, page int) (p unsafe.Pointer, unmap func() error, err error) {
	return nil, nil, errUnsupported
}
