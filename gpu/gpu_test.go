package gpu

import (
	"bytes"
	"crypto/cipher"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/ctr"
	"github.com/faelabs/fae/gpu/internal/emu"
	"github.com/faelabs/fae/internal/aes"
	"github.com/faelabs/fae/ocb"
	"github.com/faelabs/fae/raocb"
)

// These tests need a GPU and skip cleanly without one; the emulator tests
// (emu_test.go) check the same kernels everywhere.

func needGPU(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		t.Skipf("no GPU: %v", err)
	}
}

func TestUnavailable(t *testing.T) {
	err := Available()
	if err == nil {
		t.Skip("a GPU is available")
	}
	if _, e := NewCTR(make([]byte, 16), make([]byte, 16)); !errors.Is(e, err) {
		t.Errorf("NewCTR: %v does not wrap %v", e, err)
	}
	if _, e := NewOCB(make([]byte, 16)); !errors.Is(e, err) {
		t.Errorf("NewOCB: %v does not wrap %v", e, err)
	}
	if _, e := NewRAOCB(make([]byte, 16)); !errors.Is(e, err) {
		t.Errorf("NewRAOCB: %v does not wrap %v", e, err)
	}
}

// gpuSizes are the message lengths tried on a GPU: around the chunk size
// and, with FAE_GPU_BIG=1, up to 1 GiB.
func gpuSizes() []int {
	s := []int{0, 1, 17, 4096 + 5, 1 << 20, cudaChunk - 16, cudaChunk + 33, 3*cudaChunk + 7}
	if os.Getenv("FAE_GPU_BIG") == "1" {
		s = append(s, 1<<30, 1<<30-3)
	}
	return s
}

// gpuOptions are the kernel choices the GPU tests take: the default
// (bitsliced) and the table-based kernels.
var gpuOptions = map[string][]Option{"bitsliced": nil, "tables": {WithTables()}}

func TestGPUCTR(t *testing.T) {
	needGPU(t)
	r := rand.NewChaCha8([32]byte{5})
	for kind, opts := range gpuOptions {
		for _, ks := range keySizes {
			key, iv := random(r, ks), random(r, 16)
			got, err := NewCTR(key, iv, opts...)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := ctr.New(key, iv)
			for _, n := range gpuSizes() {
				src := random(r, n)
				g, w := make([]byte, n), make([]byte, n)
				got.XORKeyStream(g, src)
				want.XORKeyStream(w, src)
				if !bytes.Equal(g, w) {
					t.Fatalf("%s, key %d, %d bytes: CTR differs", kind, ks, n)
				}
			}
		}
	}
}

func testGPUAEAD(t *testing.T, newGot func([]byte, ...Option) (batch.AEAD, error), newWant func([]byte) (cipher.AEAD, error), seed byte) {
	needGPU(t)
	r := rand.NewChaCha8([32]byte{seed})
	for kind, opts := range gpuOptions {
		for _, ks := range keySizes {
			key := random(r, ks)
			got, err := newGot(key, opts...)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := newWant(key)
			for _, n := range gpuSizes() {
				nonce, pt, ad := random(r, 12), random(r, n), random(r, n%1000)
				w := want.Seal(nil, nonce, pt, ad)
				if g := got.Seal(nil, nonce, pt, ad); !bytes.Equal(g, w) {
					t.Fatalf("%s, key %d, %d bytes: Seal differs", kind, ks, n)
				}
				p, err := got.Open(nil, nonce, w, ad)
				if err != nil || !bytes.Equal(p, pt) {
					t.Fatalf("%s, key %d, %d bytes: Open failed: %v", kind, ks, n, err)
				}
			}
		}
	}
}

func TestGPUOCB(t *testing.T) {
	testGPUAEAD(t, NewOCB, func(k []byte) (cipher.AEAD, error) { return ocb.New(k) }, 6)
}

func TestGPURAOCB(t *testing.T) {
	testGPUAEAD(t, NewRAOCB, func(k []byte) (cipher.AEAD, error) { return raocb.New(k) }, 7)
}

// TestGPUBatch runs testBatch on the GPU, both kinds of kernels, then a
// batch of many messages of mixed lengths against the CPU packages.
func TestGPUBatch(t *testing.T) {
	needGPU(t)
	r := rand.NewChaCha8([32]byte{11})
	key := random(r, 16)
	pinned, err := AllocHost(16 << 10)
	if err != nil {
		t.Fatal(err)
	}
	defer FreeHost(pinned)
	wo, _ := ocb.New(key)
	wr, _ := raocb.New(key)
	for kind, opts := range gpuOptions {
		o, err := NewOCB(key, opts...)
		if err != nil {
			t.Fatal(err)
		}
		ra, _ := NewRAOCB(key, opts...)
		testBatch(t, kind+" ocb", o, wo, r, pinned)
		testBatch(t, kind+" raocb", ra, wr, r, pinned)
		for name, pair := range map[string][2]batch.AEAD{"ocb": {o, wo}, "raocb": {ra, wr}} {
			msgs := make([]batch.Message, 20000)
			want := make([]batch.Message, len(msgs))
			for k := range msgs {
				n := int(r.Uint64() % 3001)
				m := batch.Message{Nonce: random(r, 12), AD: random(r, int(r.Uint64()%64)), In: random(r, n), Out: make([]byte, n+16)}
				msgs[k], want[k] = m, m
				want[k].Out = make([]byte, n+16)
			}
			pair[0].SealBatch(msgs)
			pair[1].SealBatch(want)
			for k := range msgs {
				if !bytes.Equal(msgs[k].Out, want[k].Out) {
					t.Fatalf("%s %s: a batch of %d: message %d differs", kind, name, len(msgs), k)
				}
			}
		}
	}
	if n, err := Fallbacks(); n != 0 {
		t.Fatalf("%d calls fell back to the CPU: %v", n, err)
	}
}

// TestWritePTX checks that the generated module is the same on every call,
// parses and holds every kernel once, and writes it to $FAE_PTX_OUT for
// ptxas and cuobjdump on a machine with the CUDA tools
// (scripts/gpu-check.sh).
func TestWritePTX(t *testing.T) {
	ptx := module()
	if generate(allKernels()) != ptx {
		t.Fatal("generate is not deterministic")
	}
	m, err := emu.Parse(ptx)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, k := range allKernels() {
		want = append(want, k.name())
		if n := strings.Count(ptx, ".entry "+k.name()+"("); n != 1 {
			t.Errorf("%s: %d entries, want 1", k.name(), n)
		}
	}
	slices.Sort(want)
	if got := m.Kernels(); !slices.Equal(got, want) {
		t.Errorf("kernels %v, want %v", got, want)
	}
	out := os.Getenv("FAE_PTX_OUT")
	if out == "" {
		return
	}
	if err := os.WriteFile(out, []byte(ptx), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != ptx {
		t.Fatalf("%s does not hold the module: %v", out, err)
	}
}

// TestGPUPinned runs the modes on memory from AllocHost, which moves by
// DMA alone, over several chunks.
func TestGPUPinned(t *testing.T) {
	needGPU(t)
	r := rand.NewChaCha8([32]byte{8})
	n := 3*cudaChunk + 7
	in, err := AllocHost(n + 16)
	if err != nil {
		t.Fatal(err)
	}
	defer FreeHost(in)
	out, err := AllocHost(n + 16)
	if err != nil {
		t.Fatal(err)
	}
	defer FreeHost(out)
	key, iv, nonce := random(r, 16), random(r, 16), random(r, 12)
	pt := random(r, n)
	copy(in, pt)
	want := make([]byte, n)
	c, _ := ctr.New(key, iv)
	c.XORKeyStream(want, pt)
	g, _ := NewCTR(key, iv)
	g.XORKeyStream(out[:n], in[:n])
	if !bytes.Equal(out[:n], want) {
		t.Fatal("CTR on pinned memory differs")
	}
	o, _ := ocb.New(key)
	ra, _ := raocb.New(key)
	for _, pair := range []struct {
		got  func([]byte, ...Option) (batch.AEAD, error)
		want cipher.AEAD
	}{{NewOCB, o}, {NewRAOCB, ra}} {
		got, _ := pair.got(key)
		w := pair.want.Seal(nil, nonce, pt, nil)
		if s := got.Seal(out[:0], nonce, in[:n], nil); !bytes.Equal(s, w) {
			t.Fatal("Seal on pinned memory differs")
		}
		copy(in, w)
		if p, err := got.Open(out[:0], nonce, in[:len(w)], nil); err != nil || !bytes.Equal(p, pt) {
			t.Fatalf("Open on pinned memory failed: %v", err)
		}
		copy(in, pt)
	}
}

// TestKeyErrorWraps checks that a wrong key length's error keeps its type.
func TestKeyErrorWraps(t *testing.T) {
	key := make([]byte, 15)
	for name, f := range map[string]func() error{
		"CTR":   func() error { _, err := newCTR(nil, key, make([]byte, 16), config{}); return err },
		"OCB":   func() error { _, err := newOCB(nil, key, config{}); return err },
		"RAOCB": func() error { _, err := newRAOCB(nil, key, config{}); return err },
	} {
		if ks := aes.KeySizeError(0); !errors.As(f(), &ks) || ks != 15 {
			t.Errorf("%s: error %v, want a wrapped KeySizeError(15)", name, f())
		}
	}
}

// stepDevice is the emulator failing its call number fail (from 0) of
// load, alloc, hostAlloc and copyHtoD, and keeping count of the memory
// allocated and not freed.
type stepDevice struct {
	*emuDevice
	calls, fail int
	devs        map[uint64]bool
	hosts       int
}

var errStep = errors.New("injected failure")

func (d *stepDevice) step() error {
	d.calls++
	if d.calls-1 == d.fail {
		return errStep
	}
	return nil
}

func (d *stepDevice) load(ptx string) error {
	if err := d.step(); err != nil {
		return err
	}
	return d.emuDevice.load(ptx)
}

func (d *stepDevice) alloc(n int) (uint64, error) {
	if err := d.step(); err != nil {
		return 0, err
	}
	p, err := d.emuDevice.alloc(n)
	d.devs[p] = true
	return p, err
}

func (d *stepDevice) free(p uint64) error {
	if !d.devs[p] {
		return fmt.Errorf("free of %#x, not allocated", p)
	}
	delete(d.devs, p)
	return d.emuDevice.free(p)
}

func (d *stepDevice) hostAlloc(n int) ([]byte, error) {
	if err := d.step(); err != nil {
		return nil, err
	}
	d.hosts++
	return d.emuDevice.hostAlloc(n)
}

func (d *stepDevice) hostFree(b []byte) error {
	d.hosts--
	return d.emuDevice.hostFree(b)
}

func (d *stepDevice) copyHtoD(dst uint64, src []byte, stream int) error {
	if err := d.step(); err != nil {
		return err
	}
	return d.emuDevice.copyHtoD(dst, src, stream)
}

// TestEngineSetUpFailureFrees fails newEngine's set-up at each of its
// device calls in turn and checks that it returns the failure and frees
// the device and pinned memory it had allocated.
func TestEngineSetUpFailureFrees(t *testing.T) {
	for fail := 0; ; fail++ {
		d := &stepDevice{emuDevice: newEmuDevice(), fail: fail, devs: map[uint64]bool{}}
		e, err := newEngine(d, 16*64, 32, 1)
		if err == nil {
			// Every call succeeded: the set-up makes fail calls.
			if fail < 9 {
				t.Errorf("set-up made %d device calls, want 9 or more", fail)
			}
			return
		}
		if e != nil || !errors.Is(err, errStep) {
			t.Errorf("call %d failing: newEngine = %v, %v; want nil and an error wrapping %v", fail, e, err, errStep)
		}
		if len(d.devs) != 0 || d.hosts != 0 || d.mem.Allocations() != 0 {
			t.Errorf("call %d failing: %d device and %d pinned allocations left", fail, len(d.devs), d.hosts)
		}
	}
}
