package gpu

import (
	"errors"
	"runtime"
	"sync"
	"unsafe"
)

// device is what the modes need from a GPU: the CUDA driver (cuda_linux.go)
// or, in tests, the emulator (emudevice_test.go). Device addresses are
// uint64.
// Operations on stream 0 or 1 run in order, asynchronously until
// sync(stream), and copies on them must use host memory from hostAlloc;
// stream -1 means a synchronous copy from or to any memory.
type device interface {
	load(ptx string) error
	alloc(n int) (uint64, error)
	free(p uint64) error
	hostAlloc(n int) ([]byte, error) // pinned where the device has pinning
	hostFree(b []byte) error
	copyHtoD(dst uint64, src []byte, stream int) error
	copyDtoH(dst []byte, src uint64, stream int) error
	launch(name string, grid, block, stream int, args *launchArgs) error
	sync(stream int) error
}

// launchArgs are the parameters every kernel takes, in order (ptx.go),
// and the dynamic shared memory of the launch.
type launchArgs struct {
	dst, src, tables, aux, sum uint64
	n, first, per              uint32
	k                          [kBytes]byte
	shared                     int
}

// launchShape returns the threads per block of a launch of k, at most
// threads, and the log2 of the blocks of its groups (ptx.go, sliced.go).
func launchShape(k kernel, threads int) (int, uint) {
	if k.sliced {
		return min(threads, slicedThreads), slicedShift
	}
	return threads, 5
}

// geometry returns the grid of a launch of n blocks from index first with
// threads per block and at most maxCTAs blocks, and the groups of 1<<shift
// blocks that each warp takes.
func geometry(n, first uint32, threads, maxCTAs int, shift uint) (grid int, per uint32) {
	groups := int((uint64(first)+uint64(n)-1)>>shift - uint64(first>>shift) + 1)
	warps := threads / 32
	grid = min((groups+warps-1)/warps, maxCTAs)
	w := grid * warps
	return grid, uint32((groups + w - 1) / w)
}

// engine runs kernels over host buffers in chunks, on two streams so that
// one chunk's copies overlap the other's kernel. It serialises its callers.
type engine struct {
	mu      sync.Mutex
	dev     device
	chunk   int // bytes per launch, a multiple of 16
	threads int // per block, a power of two from 32 to maxThreads
	maxCTAs int // blocks per launch at most

	tables, aux, sum uint64
	slots            [2]slot
	hosts            [][]byte // from allocHost
}

type slot struct {
	dev     uint64 // chunk bytes, input and output in place
	host    []byte // pinned staging for the chunk
	pending []byte // where host goes once the slot's stream is synced
}

func newEngine(dev device, chunk, threads, maxCTAs int) (e *engine, err error) {
	if chunk <= 0 || chunk%16 != 0 || threads < 32 || threads > maxThreads || threads&(threads-1) != 0 || maxCTAs <= 0 {
		return nil, errors.New("gpu: bad engine geometry")
	}
	e = &engine{dev: dev, chunk: chunk, threads: threads, maxCTAs: maxCTAs}
	// A set-up that fails part way frees what it allocated: the device
	// and pinned memory outlive the failed engine otherwise.
	var devs []uint64
	var hosts [][]byte
	defer func() {
		if err == nil {
			return
		}
		for _, p := range devs {
			err = errors.Join(err, dev.free(p))
		}
		for _, h := range hosts {
			err = errors.Join(err, dev.hostFree(h))
		}
		e = nil
	}()
	alloc := func(n int) (uint64, error) {
		p, err := dev.alloc(n)
		if err == nil {
			devs = append(devs, p)
		}
		return p, err
	}
	if err = dev.load(module()); err != nil {
		return nil, err
	}
	if e.tables, err = alloc(tablesSize); err != nil {
		return nil, err
	}
	if err = dev.copyHtoD(e.tables, tables()[:], -1); err != nil {
		return nil, err
	}
	if e.aux, err = alloc(auxTotal); err != nil {
		return nil, err
	}
	if e.sum, err = alloc(16); err != nil {
		return nil, err
	}
	for i := range e.slots {
		s := &e.slots[i]
		if s.dev, err = alloc(chunk); err != nil {
			return nil, err
		}
		if s.host, err = dev.hostAlloc(chunk); err != nil {
			return nil, err
		}
		hosts = append(hosts, s.host)
	}
	return e, nil
}

// run applies kernel k to the whole blocks of src (len(src) a multiple of
// 16, block j with index first+j) and writes dst (nil for a hash kernel,
// else as long as src, possibly src itself). aux is OCB's tables and the
// bitsliced round keys (keying.aux), kp the kernel's p_k (keying.params).
// It returns the sum that AEAD kernels reduce.
func (e *engine) run(k kernel, aux []byte, kp *[kBytes]byte, dst, src []byte, first uint32) (sum [16]byte, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(aux) > 0 {
		if err = e.dev.copyHtoD(e.aux, aux, -1); err != nil {
			return sum, err
		}
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
	// Pinned input and output move by DMA alone; other memory goes
	// through the slots' pinned staging buffers.
	direct := e.pinned(src) && (dst == nil || e.pinned(dst))
	for c := 0; len(src) > 0; c++ {
		i := c % 2
		s := &e.slots[i]
		n := min(len(src), e.chunk)
		in := src[:n]
		if !direct {
			if err = e.flush(i); err != nil {
				return sum, err
			}
			copyParallel(s.host[:n], in)
			in = s.host[:n]
		}
		if err = e.dev.copyHtoD(s.dev, in, i); err != nil {
			return sum, err
		}
		blocks := n / 16
		threads, shift := launchShape(k, e.threads)
		grid, per := geometry(uint32(blocks), first, threads, e.maxCTAs, shift)
		a := launchArgs{dst: s.dev, src: s.dev, tables: e.tables, aux: e.aux, sum: e.sum,
			n: uint32(blocks), first: first, per: per, k: *kp, shared: k.sharedBytes()}
		if err = e.dev.launch(k.name(), grid, threads, i, &a); err != nil {
			return sum, err
		}
		if dst != nil {
			out := dst[:n]
			if !direct {
				out, s.pending = s.host[:n], out
			}
			if err = e.dev.copyDtoH(out, s.dev, i); err != nil {
				return sum, err
			}
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
	copyParallel(s.pending, s.host[:len(s.pending)])
	s.pending = nil
	return nil
}

// copyParallel copies src to dst (as long), in pieces on all cores when it
// is large: one core copies about 10 GB/s, a fifth of what a PCIe 5 link
// moves.
func copyParallel(dst, src []byte) {
	const piece = 4 << 20
	n := min(runtime.GOMAXPROCS(0), len(src)/piece)
	if n <= 1 {
		copy(dst, src)
		return
	}
	step := (len(src)/n + 63) &^ 63
	var wg sync.WaitGroup
	for off := 0; off < len(src); off += step {
		end := min(off+step, len(src))
		wg.Go(func() { copy(dst[off:end], src[off:end]) })
	}
	wg.Wait()
}

// allocHost returns n bytes of pinned host memory that run moves by DMA
// alone.
func (e *engine) allocHost(n int) ([]byte, error) {
	b, err := e.dev.hostAlloc(n)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.hosts = append(e.hosts, b)
	e.mu.Unlock()
	return b, nil
}

// freeHost frees memory from allocHost.
func (e *engine) freeHost(b []byte) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, h := range e.hosts {
		if len(b) > 0 && len(h) > 0 && &b[0] == &h[0] {
			if err := e.dev.hostFree(h); err != nil {
				return err
			}
			e.hosts = append(e.hosts[:i], e.hosts[i+1:]...)
			return nil
		}
	}
	return errors.New("gpu: FreeHost of memory not from AllocHost")
}

// pinned reports whether b lies within memory from allocHost; e.mu is
// held.
func (e *engine) pinned(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	for _, h := range e.hosts {
		q := uintptr(unsafe.Pointer(unsafe.SliceData(h)))
		if p >= q && p+uintptr(len(b)) <= q+uintptr(len(h)) {
			return true
		}
	}
	return false
}
