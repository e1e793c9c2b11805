package gpu

import (
	"errors"
	"sync"
)

// device is what the modes need from a GPU: the CUDA driver (cuda_linux.go)
// or, in tests, the emulator (emudevice.go). Device addresses are uint64.
// Operations on stream 0 or 1 run in order, asynchronously until
// sync(stream), and copies on them must use host memory from hostAlloc;
// stream -1 means a synchronous copy from or to any memory.
type device interface {
	load(ptx string) error
	alloc(n int) (uint64, error)
	hostAlloc(n int) ([]byte, error) // pinned where the device has pinning
	copyHtoD(dst uint64, src []byte, stream int) error
	copyDtoH(dst []byte, src uint64, stream int) error
	launch(name string, grid, block, stream int, args *launchArgs) error
	sync(stream int) error
}

// launchArgs are the parameters every kernel takes, in order (ptx.go).
type launchArgs struct {
	dst, src, keys, tables, aux, sum uint64
	n, first                         uint32
}

// Layout of the engine's aux buffer: the mode's constants, then the round
// keys.
const (
	auxSize    = 2048
	keysOffset = 1024
)

// engine runs kernels over host buffers in chunks, on two streams so that
// one chunk's copies overlap the other's kernel. It serialises its callers.
type engine struct {
	mu      sync.Mutex
	dev     device
	chunk   int // bytes per launch, a multiple of 16
	threads int // per block, a power of two up to maxThreads
	maxCTAs int // blocks per launch at most

	tables, aux, sum uint64
	slots            [2]slot
}

type slot struct {
	dev     uint64 // chunk bytes, input and output in place
	host    []byte // pinned staging for the chunk
	pending []byte // where host goes once the slot's stream is synced
}

func newEngine(dev device, chunk, threads, maxCTAs int) (*engine, error) {
	e := &engine{dev: dev, chunk: chunk, threads: threads, maxCTAs: maxCTAs}
	if chunk <= 0 || chunk%16 != 0 || threads <= 0 || threads > maxThreads || threads&(threads-1) != 0 || maxCTAs <= 0 {
		return nil, errors.New("gpu: bad engine geometry")
	}
	if err := dev.load(generate(allKernels())); err != nil {
		return nil, err
	}
	var err error
	if e.tables, err = dev.alloc(tablesSize); err != nil {
		return nil, err
	}
	if err = dev.copyHtoD(e.tables, tables()[:], -1); err != nil {
		return nil, err
	}
	if e.aux, err = dev.alloc(auxSize); err != nil {
		return nil, err
	}
	if e.sum, err = dev.alloc(16); err != nil {
		return nil, err
	}
	for i := range e.slots {
		s := &e.slots[i]
		if s.dev, err = dev.alloc(chunk); err != nil {
			return nil, err
		}
		if s.host, err = dev.hostAlloc(chunk); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// run applies kernel k to the whole blocks of src (len(src) a multiple of
// 16, block j with index first+j) and writes dst (nil for a hash kernel,
// else as long as src, possibly src itself). aux is the mode's constants,
// keys the round keys. It returns the sum that AEAD kernels reduce.
func (e *engine) run(k kernel, aux, keys []byte, dst, src []byte, first uint32) (sum [16]byte, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var head [auxSize]byte
	copy(head[:], aux)
	copy(head[keysOffset:], keys)
	if err = e.dev.copyHtoD(e.aux, head[:], -1); err != nil {
		return sum, err
	}
	if err = e.dev.copyHtoD(e.sum, sum[:], -1); err != nil {
		return sum, err
	}
	defer func() {
		// Leave both streams idle, whatever happened.
		for i := range e.slots {
			if serr := e.flush(i); err == nil {
				err = serr
			}
		}
	}()
	for c := 0; len(src) > 0; c++ {
		i := c % 2
		if err = e.flush(i); err != nil {
			return sum, err
		}
		s := &e.slots[i]
		n := min(len(src), e.chunk)
		copy(s.host, src[:n])
		if err = e.dev.copyHtoD(s.dev, s.host[:n], i); err != nil {
			return sum, err
		}
		blocks := n / 16
		grid := min((blocks+e.threads-1)/e.threads, e.maxCTAs)
		a := launchArgs{dst: s.dev, src: s.dev, keys: e.aux + keysOffset, tables: e.tables,
			aux: e.aux, sum: e.sum, n: uint32(blocks), first: first}
		if err = e.dev.launch(k.name(), grid, e.threads, i, &a); err != nil {
			return sum, err
		}
		if dst != nil {
			if err = e.dev.copyDtoH(s.host[:n], s.dev, i); err != nil {
				return sum, err
			}
			s.pending = dst[:n]
			dst = dst[n:]
		}
		src = src[n:]
		first += uint32(blocks)
	}
	for i := range e.slots {
		if err = e.flush(i); err != nil {
			return sum, err
		}
	}
	if k.mask != maskNone {
		err = e.dev.copyDtoH(sum[:], e.sum, -1)
	}
	return sum, err
}

// flush waits for slot i's stream and delivers its output.
func (e *engine) flush(i int) error {
	s := &e.slots[i]
	if err := e.dev.sync(i); err != nil {
		s.pending = nil
		return err
	}
	copy(s.pending, s.host)
	s.pending = nil
	return nil
}
