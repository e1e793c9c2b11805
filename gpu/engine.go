package gpu

import (
	"crypto/subtle"
	"errors"
	"runtime"
	"sync"
	"unsafe"

	"github.com/faelabs/fae/internal/alias"
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

	// The call in progress: bytes of output delivered, and whether a
	// launch failed (flush).
	done   int
	failed bool
}

type slot struct {
	dev  uint64 // chunk bytes, input and output in place
	host []byte // pinned staging for the chunk
	// A batch launch's table (batchTable), on the device and pinned.
	table     uint64
	tableHost []byte
	// What the slot's launch delivers once its stream is synced: output
	// staged in host, the pieces' sums from tableHost, and the bytes of
	// input it covers.
	pending []pair
	sums    []*block
	sumOff  int
	bytes   int
}

// pair is a copy from src to dst, as long.
type pair struct{ dst, src []byte }

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
		if s.table, err = alloc(batchTableSize(chunk)); err != nil {
			return nil, err
		}
		for _, h := range []*[]byte{&s.host, &s.tableHost} {
			n := chunk
			if h == &s.tableHost {
				n = batchTableSize(chunk)
			}
			if *h, err = dev.hostAlloc(n); err != nil {
				return nil, err
			}
			hosts = append(hosts, *h)
		}
	}
	return e, nil
}

// run applies kernel k to the whole blocks of src (len(src) a multiple of
// 16, block j with index first+j) and writes dst (nil for a hash kernel,
// else as long as src, possibly src itself). aux is OCB's tables and the
// bitsliced round keys (keying.aux), kp the kernel's p_k (keying.params).
// It returns the sum that AEAD kernels reduce and, for a fallback to undo,
// how many bytes of dst from the start hold output when it fails (flush).
func (e *engine) run(k kernel, aux []byte, kp *[kBytes]byte, dst, src []byte, first uint32) (sum [16]byte, done int, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, err := e.begin(aux)
	defer func() { done, err = e.end(c, err) }()
	if err != nil {
		return sum, 0, err
	}
	if err = e.dev.copyHtoD(e.sum, sum[:], -1); err != nil {
		return sum, 0, err
	}
	// Pinned input and output move by DMA alone; other memory goes
	// through the slots' pinned staging buffers, and so does output over
	// its input, which then changes only where flush delivers.
	directIn, directOut := e.direct(dst, src)
	for ; len(src) > 0; c++ {
		i := c % 2
		s := &e.slots[i]
		if err = e.flush(i); err != nil {
			return sum, 0, err
		}
		n := min(len(src), e.chunk)
		in := src[:n]
		if !directIn {
			copyParallel(s.host[:n], in)
			in = s.host[:n]
		}
		if err = e.dev.copyHtoD(s.dev, in, i); err != nil {
			return sum, 0, err
		}
		blocks := n / 16
		threads, shift := launchShape(k, e.threads)
		grid, per := geometry(uint32(blocks), first, threads, e.maxCTAs, shift)
		a := launchArgs{dst: s.dev, src: s.dev, tables: e.tables, aux: e.aux, sum: e.sum,
			n: uint32(blocks), first: first, per: per, k: *kp, shared: k.sharedBytes()}
		if err = e.dev.launch(k.name(), grid, threads, i, &a); err != nil {
			return sum, 0, err
		}
		if dst != nil {
			out := dst[:n]
			if !directOut {
				s.pending = append(s.pending, pair{out, s.host[:n]})
				out = s.host[:n]
			}
			if err = e.dev.copyDtoH(out, s.dev, i); err != nil {
				return sum, 0, err
			}
			dst = dst[n:]
		}
		s.bytes = n
		src = src[n:]
		first += uint32(blocks)
	}
	if err = e.flushAll(c); err != nil {
		return sum, 0, err
	}
	if k.mask != maskNone {
		err = e.dev.copyDtoH(sum[:], e.sum, -1)
	}
	return sum, 0, err
}

// begin starts a call of run or runBatch: nothing delivered yet, aux on
// the device. It returns the number of launches so far, zero.
func (e *engine) begin(aux []byte) (int, error) {
	e.done, e.failed = 0, false
	if len(aux) > 0 {
		return 0, e.dev.copyHtoD(e.aux, aux, -1)
	}
	return 0, nil
}

// end finishes a call after c launches: both streams idle, whatever
// happened, and nothing more delivered after a failure. It returns the
// bytes delivered and the call's error.
func (e *engine) end(c int, err error) (int, error) {
	if err != nil {
		e.failed = true
	}
	if ferr := e.flushAll(c); err == nil {
		err = ferr
	}
	return e.done, err
}

// flushAll flushes both slots in the order of their launches, c launches
// so far.
func (e *engine) flushAll(c int) error {
	var err error
	for j := range e.slots {
		if ferr := e.flush((c + j) % 2); err == nil {
			err = ferr
		}
	}
	return err
}

// direct reports whether src and dst (nil for a hash kernel) move by DMA
// alone: each where it is pinned, dst only where it does not overlap src,
// so that a failure part way cannot leave src half overwritten.
func (e *engine) direct(dst, src []byte) (in, out bool) {
	return e.pinned(src), dst == nil || e.pinned(dst) && !alias.AnyOverlap(dst, src)
}

// flush waits for slot i's stream and delivers its output, sums and byte
// count, unless a launch failed in this call: launches are flushed in
// order, so what a call delivers is always a prefix of its input.
func (e *engine) flush(i int) error {
	s := &e.slots[i]
	err := e.dev.sync(i)
	if err != nil {
		e.failed = true
	}
	if !e.failed {
		copyPairs(s.pending)
		for j, p := range s.sums {
			subtle.XORBytes(p[:], p[:], s.tableHost[s.sumOff+16*j:][:16])
		}
		e.done += s.bytes
	}
	clear(s.pending)
	clear(s.sums)
	s.pending, s.sums, s.bytes = s.pending[:0], s.sums[:0], 0
	return err
}

// copyPairs makes the copies of ps, on all cores when they are large.
func copyPairs(ps []pair) {
	if len(ps) == 1 {
		copyParallel(ps[0].dst, ps[0].src)
		return
	}
	total := 0
	for _, p := range ps {
		total += len(p.dst)
	}
	n := min(runtime.GOMAXPROCS(0), total/(1<<20), len(ps))
	if n <= 1 {
		for _, p := range ps {
			copy(p.dst, p.src)
		}
		return
	}
	var wg sync.WaitGroup
	for w := range n {
		wg.Go(func() {
			for _, p := range ps[w*len(ps)/n : (w+1)*len(ps)/n] {
				copy(p.dst, p.src)
			}
		})
	}
	wg.Wait()
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
