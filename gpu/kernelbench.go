package gpu

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/faelabs/fae/internal/gpukernel"
)

func init() { gpukernel.Time = timeKernel }

// kernelOps are gpukernel.Ops's kernels.
var kernelOps = map[string]kernel{
	"ctr":        {op: opCTR},
	"ocb3-seal":  {op: opEnc, mask: maskOCB},
	"ocb3-open":  {op: opDec, mask: maskOCB},
	"raocb-seal": {op: opEnc, mask: maskRAOCB},
	"raocb-open": {op: opDec, mask: maskRAOCB},
}

// timeKernel is gpukernel.Time: launches of one kernel over device-resident
// random data (on zeros every thread would look up the same table words
// and the figures would flatter the table-based kernels) with random keys
// and constants.
func timeKernel(op string, tables bool, n, runs int) (time.Duration, error) {
	e, err := shared()
	if err != nil {
		return 0, err
	}
	return e.timeKernel(op, tables, n, runs)
}

func (e *engine) timeKernel(op string, tables bool, n, runs int) (time.Duration, error) {
	k, ok := kernelOps[op]
	if !ok || n <= 0 || n%16 != 0 || n/16 > maxLaunchBlocks || runs <= 0 {
		return 0, fmt.Errorf("gpu: no kernel %q of %d bytes (known: %v)", op, n, slices.Sorted(maps.Keys(kernelOps)))
	}
	k.rounds, k.sliced = 10, !tables
	if !tables {
		k.rounds = 0
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	junk := make([]byte, max(auxTotal, kBytes, min(n, 64<<20)))
	rand.Read(junk)
	if err := e.dev.copyHtoD(e.aux, junk[:auxTotal], -1); err != nil {
		return 0, err
	}
	buf, err := e.dev.alloc(n)
	if err != nil {
		return 0, err
	}
	defer e.dev.free(buf)
	for off := 0; off < n; off += len(junk) {
		if err := e.dev.copyHtoD(buf+uint64(off), junk[:min(len(junk), n-off)], -1); err != nil {
			return 0, err
		}
	}
	kp := new([kBytes]byte)
	copy(kp[:], junk)
	if !tables {
		binary.LittleEndian.PutUint32(kp[:], 10) // the bitsliced kernels' rounds
	}
	blocks := uint32(n / 16)
	threads, shift := launchShape(k, e.threads)
	grid, per := geometry(blocks, 1, threads, e.maxCTAs, shift)
	a := launchArgs{dst: buf, src: buf, tables: e.tables, aux: e.aux, sum: e.sum,
		n: blocks, first: 1, per: per, k: *kp, shared: k.sharedBytes()}
	best := time.Duration(1<<63 - 1)
	for range runs + 1 { // the first run warms up
		t := time.Now()
		if err := e.dev.launch(k.name(), grid, threads, 0, &a); err != nil {
			return 0, err
		}
		if err := e.dev.sync(-1); err != nil {
			return 0, err
		}
		best = min(best, time.Since(t))
	}
	return best, nil
}
