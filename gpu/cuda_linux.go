//go:build linux && (amd64 || arm64)

package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unsafe"

	"github.com/ebitengine/purego"
)

// The CUDA driver API, loaded at run time from libcuda.so.1 with purego:
// no cgo and no CUDA headers at build time. One goroutine, locked to its OS
// thread, owns the context and makes every driver call.

type cuResult int32

// driver holds the driver's functions (the _v2 entry points where the API
// has them, as cuda.h maps the plain names).
type driver struct {
	cuInit               func(flags uint32) cuResult
	cuDeviceGetCount     func(n *int32) cuResult
	cuDeviceGet          func(dev *int32, ordinal int32) cuResult
	cuDeviceGetName      func(name []byte, n int32, dev int32) cuResult
	cuDeviceGetAttribute func(v *int32, attr int32, dev int32) cuResult
	cuCtxCreate          func(ctx *uintptr, flags uint32, dev int32) cuResult
	cuCtxSynchronize     func() cuResult
	cuModuleLoadDataEx   func(mod *uintptr, image string, n uint32, opts []int32, vals []uintptr) cuResult
	cuModuleGetFunction  func(f *uintptr, mod uintptr, name string) cuResult
	cuFuncSetAttribute   func(f uintptr, attr int32, v int32) cuResult
	cuMemAlloc           func(p *uint64, n uint64) cuResult
	cuMemFree            func(p uint64) cuResult
	cuMemHostAlloc       func(p *unsafe.Pointer, n uint64, flags uint32) cuResult
	cuMemFreeHost        func(p unsafe.Pointer) cuResult
	cuMemcpyHtoD         func(dst uint64, src unsafe.Pointer, n uint64) cuResult
	cuMemcpyDtoH         func(dst unsafe.Pointer, src uint64, n uint64) cuResult
	cuMemcpyHtoDAsync    func(dst uint64, src unsafe.Pointer, n uint64, s uintptr) cuResult
	cuMemcpyDtoHAsync    func(dst unsafe.Pointer, src uint64, n uint64, s uintptr) cuResult
	cuStreamCreate       func(s *uintptr, flags uint32) cuResult
	cuStreamSynchronize  func(s uintptr) cuResult
	cuLaunchKernel       func(f uintptr, gx, gy, gz, bx, by, bz, shared uint32, s uintptr, params unsafe.Pointer, extra unsafe.Pointer) cuResult
	cuGetErrorString     func(r cuResult, s *unsafe.Pointer) cuResult
}

// CUDA constants (cuda.h).
const (
	attrMultiprocessorCount = 16
	funcMaxDynamicShared    = 8
	jitErrorLogBuffer       = 5
	jitErrorLogBufferSize   = 6
	jitLogSize              = 16 << 10
)

// Layout of the pinned launch parameters.
const (
	paramsPtrs = 64
	paramsBlob = 256
	paramsSize = paramsBlob + kBytes
)

type cuda struct {
	d       driver
	calls   chan func()
	name    string
	sms     int
	streams [2]uintptr
	funcs   map[string]uintptr
	params  unsafe.Pointer // pinned: argument values and the pointers to them
	log     unsafe.Pointer // pinned: the JIT error log
}

// openCUDA loads the driver and makes a context on device 0.
func openCUDA() (*cuda, error) {
	lib, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("gpu: no CUDA driver (libcuda.so.1): %w", err)
	}
	c := &cuda{calls: make(chan func()), funcs: map[string]uintptr{}}
	for _, f := range []struct {
		ptr  any
		name string
	}{
		{&c.d.cuInit, "cuInit"}, {&c.d.cuDeviceGetCount, "cuDeviceGetCount"},
		{&c.d.cuDeviceGet, "cuDeviceGet"}, {&c.d.cuDeviceGetName, "cuDeviceGetName"},
		{&c.d.cuDeviceGetAttribute, "cuDeviceGetAttribute"}, {&c.d.cuCtxCreate, "cuCtxCreate_v2"},
		{&c.d.cuCtxSynchronize, "cuCtxSynchronize"}, {&c.d.cuModuleLoadDataEx, "cuModuleLoadDataEx"},
		{&c.d.cuModuleGetFunction, "cuModuleGetFunction"}, {&c.d.cuFuncSetAttribute, "cuFuncSetAttribute"},
		{&c.d.cuMemAlloc, "cuMemAlloc_v2"}, {&c.d.cuMemFree, "cuMemFree_v2"},
		{&c.d.cuMemHostAlloc, "cuMemHostAlloc"}, {&c.d.cuMemFreeHost, "cuMemFreeHost"}, {&c.d.cuMemcpyHtoD, "cuMemcpyHtoD_v2"},
		{&c.d.cuMemcpyDtoH, "cuMemcpyDtoH_v2"}, {&c.d.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"},
		{&c.d.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"}, {&c.d.cuStreamCreate, "cuStreamCreate"},
		{&c.d.cuStreamSynchronize, "cuStreamSynchronize"}, {&c.d.cuLaunchKernel, "cuLaunchKernel"},
		{&c.d.cuGetErrorString, "cuGetErrorString"},
	} {
		sym, err := purego.Dlsym(lib, f.name)
		if err != nil {
			return nil, fmt.Errorf("gpu: CUDA driver lacks %s: %w", f.name, err)
		}
		purego.RegisterFunc(f.ptr, sym)
	}
	started := make(chan error)
	go c.serve(started)
	if err := <-started; err != nil {
		return nil, err
	}
	return c, nil
}

// serve runs on its own OS thread for the life of the process: the thread
// where the context is current.
func (c *cuda) serve(started chan<- error) {
	runtime.LockOSThread()
	err := c.init()
	started <- err
	if err != nil {
		return
	}
	for f := range c.calls {
		f()
	}
}

func (c *cuda) init() error {
	if r := c.d.cuInit(0); r != 0 {
		return c.errorf(r, "cuInit")
	}
	var n, dev int32
	if r := c.d.cuDeviceGetCount(&n); r != 0 {
		return c.errorf(r, "cuDeviceGetCount")
	}
	if n == 0 {
		return errors.New("gpu: the CUDA driver finds no device")
	}
	if r := c.d.cuDeviceGet(&dev, 0); r != 0 {
		return c.errorf(r, "cuDeviceGet")
	}
	name := make([]byte, 256)
	if r := c.d.cuDeviceGetName(name, int32(len(name)), dev); r == 0 {
		c.name, _, _ = strings.Cut(string(name), "\x00")
	}
	var sms int32
	if r := c.d.cuDeviceGetAttribute(&sms, attrMultiprocessorCount, dev); r != 0 {
		return c.errorf(r, "cuDeviceGetAttribute")
	}
	c.sms = int(sms)
	var ctx uintptr
	if r := c.d.cuCtxCreate(&ctx, 0, dev); r != 0 {
		return c.errorf(r, "cuCtxCreate")
	}
	for i := range c.streams {
		if r := c.d.cuStreamCreate(&c.streams[i], 0); r != 0 {
			return c.errorf(r, "cuStreamCreate")
		}
	}
	if r := c.d.cuMemHostAlloc(&c.params, paramsSize, 0); r != 0 {
		return c.errorf(r, "cuMemHostAlloc")
	}
	if r := c.d.cuMemHostAlloc(&c.log, jitLogSize, 0); r != 0 {
		return c.errorf(r, "cuMemHostAlloc")
	}
	return nil
}

// do runs f on the context's thread.
func (c *cuda) do(f func() error) error {
	done := make(chan error, 1)
	c.calls <- func() { done <- f() }
	return <-done
}

func (c *cuda) errorf(r cuResult, call string) error {
	var s unsafe.Pointer
	msg := "unknown error"
	if c.d.cuGetErrorString(r, &s) == 0 && s != nil {
		msg = cString(s, 256)
	}
	return fmt.Errorf("gpu: %s: %s (CUDA error %d)", call, msg, r)
}

// cString copies the NUL-terminated string at p, at most n bytes of it.
func cString(p unsafe.Pointer, n int) string {
	b := unsafe.Slice((*byte)(p), n)
	s, _, _ := strings.Cut(string(b), "\x00")
	return s
}

func (c *cuda) load(ptx string) error {
	return c.do(func() error {
		var mod uintptr
		opts := []int32{jitErrorLogBuffer, jitErrorLogBufferSize}
		vals := []uintptr{uintptr(c.log), jitLogSize}
		clear(unsafe.Slice((*byte)(c.log), jitLogSize))
		if r := c.d.cuModuleLoadDataEx(&mod, ptx+"\x00", uint32(len(opts)), opts, vals); r != 0 {
			return fmt.Errorf("%w; JIT log: %s", c.errorf(r, "cuModuleLoadDataEx"), cString(c.log, jitLogSize))
		}
		for _, k := range allKernels() {
			var f uintptr
			if r := c.d.cuModuleGetFunction(&f, mod, k.name()+"\x00"); r != 0 {
				return c.errorf(r, "cuModuleGetFunction "+k.name())
			}
			if r := c.d.cuFuncSetAttribute(f, funcMaxDynamicShared, int32(k.sharedBytes())); r != 0 {
				return c.errorf(r, "cuFuncSetAttribute "+k.name())
			}
			c.funcs[k.name()] = f
		}
		return nil
	})
}

func (c *cuda) alloc(n int) (uint64, error) {
	var p uint64
	err := c.do(func() error {
		if r := c.d.cuMemAlloc(&p, uint64(n)); r != 0 {
			return c.errorf(r, "cuMemAlloc")
		}
		return nil
	})
	return p, err
}

func (c *cuda) free(p uint64) error {
	return c.do(func() error {
		if r := c.d.cuMemFree(p); r != 0 {
			return c.errorf(r, "cuMemFree")
		}
		return nil
	})
}

func (c *cuda) hostAlloc(n int) ([]byte, error) {
	var p unsafe.Pointer
	err := c.do(func() error {
		if r := c.d.cuMemHostAlloc(&p, uint64(n), 0); r != 0 {
			return c.errorf(r, "cuMemHostAlloc")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return unsafe.Slice((*byte)(p), n), nil
}

func (c *cuda) hostFree(b []byte) error {
	return c.do(func() error {
		if r := c.d.cuMemFreeHost(unsafe.Pointer(unsafe.SliceData(b))); r != 0 {
			return c.errorf(r, "cuMemFreeHost")
		}
		return nil
	})
}

func (c *cuda) copyHtoD(dst uint64, src []byte, stream int) error {
	if len(src) == 0 {
		return nil
	}
	return c.do(func() error {
		p := unsafe.Pointer(unsafe.SliceData(src))
		var r cuResult
		if stream >= 0 {
			r = c.d.cuMemcpyHtoDAsync(dst, p, uint64(len(src)), c.streams[stream])
		} else {
			r = c.d.cuMemcpyHtoD(dst, p, uint64(len(src)))
		}
		if r != 0 {
			return c.errorf(r, "cuMemcpyHtoD")
		}
		return nil
	})
}

func (c *cuda) copyDtoH(dst []byte, src uint64, stream int) error {
	if len(dst) == 0 {
		return nil
	}
	return c.do(func() error {
		p := unsafe.Pointer(unsafe.SliceData(dst))
		var r cuResult
		if stream >= 0 {
			r = c.d.cuMemcpyDtoHAsync(p, src, uint64(len(dst)), c.streams[stream])
		} else {
			r = c.d.cuMemcpyDtoH(p, src, uint64(len(dst)))
		}
		if r != 0 {
			return c.errorf(r, "cuMemcpyDtoH")
		}
		return nil
	})
}

func (c *cuda) launch(name string, grid, block, stream int, a *launchArgs) error {
	return c.do(func() error {
		f, ok := c.funcs[name]
		if !ok {
			return fmt.Errorf("gpu: no kernel %s", name)
		}
		// The driver reads the arguments through an array of pointers to
		// them, all in pinned memory that the Go collector never sees: 8
		// values, 9 pointers, the byte array.
		vals := unsafe.Slice((*uint64)(c.params), 8)
		ptrs := unsafe.Slice((*uintptr)(unsafe.Add(c.params, paramsPtrs)), 9)
		for i, v := range []uint64{a.dst, a.src, a.tables, a.aux, a.sum, uint64(a.n), uint64(a.first), uint64(a.per)} {
			vals[i] = v
			ptrs[i] = uintptr(unsafe.Pointer(&vals[i]))
		}
		blob := unsafe.Add(c.params, paramsBlob)
		copy(unsafe.Slice((*byte)(blob), kBytes), a.k[:])
		ptrs[8] = uintptr(blob)
		r := c.d.cuLaunchKernel(f, uint32(grid), 1, 1, uint32(block), 1, 1, uint32(a.shared), c.streams[stream], unsafe.Add(c.params, paramsPtrs), nil)
		if r != 0 {
			return c.errorf(r, "cuLaunchKernel")
		}
		return nil
	})
}

// sync waits for a stream, or for the whole context when stream is -1.
func (c *cuda) sync(stream int) error {
	return c.do(func() error {
		if stream < 0 {
			if r := c.d.cuCtxSynchronize(); r != 0 {
				return c.errorf(r, "cuCtxSynchronize")
			}
			return nil
		}
		if r := c.d.cuStreamSynchronize(c.streams[stream]); r != 0 {
			return c.errorf(r, "cuStreamSynchronize")
		}
		return nil
	})
}
