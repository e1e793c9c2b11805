//go:build !(linux && (amd64 || arm64))

package gpu

import "errors"

// cuda is the driver where fae has none: only Linux on amd64 and arm64 load
// libcuda.so.1.
type cuda struct {
	device
	name string
	sms  int
}

func openCUDA() (*cuda, error) {
	return nil, errors.New("gpu: the CUDA driver is supported on Linux (amd64, arm64) only")
}
