// Package gpukernel lets fae bench (internal/bench) time package gpu's
// kernels alone, on data already in device memory, which gpu's API does
// not expose: gpu sets Time when it is linked.
package gpukernel

import "time"

// Ops are the kernels Time takes: AES-CTR, and OCB3's and RAOCB's seal and
// open.
var Ops = []string{"ctr", "ocb3-seal", "ocb3-open", "raocb-seal", "raocb-open"}

// Time, when package gpu is linked, returns the best of runs launches of
// the AES-128 kernel of op (one of Ops) over n bytes of random data in
// device memory: the bitsliced kernel, or with tables the table-based one.
// It returns the error of gpu.Available when there is no usable GPU.
var Time func(op string, tables bool, n, runs int) (time.Duration, error)
