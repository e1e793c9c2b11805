package gpu

import (
	"errors"
	"fmt"
	"sync"

	"github.com/faelabs/fae/gpu/internal/emu"
)

// emuDevice is a device made of the emulator, for tests of the generated
// kernels and of the modes' host code. Everything runs at once; streams
// only order what is already ordered.
type emuDevice struct {
	mod *emu.Module
	mem *emu.Memory
}

func newEmuDevice() *emuDevice { return &emuDevice{mem: emu.NewMemory()} }

// parsed holds the modules parsed so far, by their text: the tests make
// many engines, and parsing takes a tenth of a second.
var parsed sync.Map

func (d *emuDevice) load(ptx string) error {
	if m, ok := parsed.Load(ptx); ok {
		d.mod = m.(*emu.Module)
		return nil
	}
	m, err := emu.Parse(ptx)
	if err != nil {
		return err
	}
	parsed.Store(ptx, m)
	d.mod = m
	return nil
}

func (d *emuDevice) alloc(n int) (uint64, error) { return d.mem.Alloc(n), nil }

func (d *emuDevice) free(p uint64) error { return d.mem.Free(p) }

func (d *emuDevice) hostAlloc(n int) ([]byte, error) { return make([]byte, n), nil }

func (d *emuDevice) hostFree([]byte) error { return nil }

func (d *emuDevice) copyHtoD(dst uint64, src []byte, _ int) error {
	b, err := d.mem.Slice(dst, len(src))
	copy(b, src)
	return err
}

func (d *emuDevice) copyDtoH(dst []byte, src uint64, _ int) error {
	b, err := d.mem.Slice(src, len(dst))
	copy(dst, b)
	return err
}

func (d *emuDevice) launch(name string, grid, block, _ int, a *launchArgs) error {
	if d.mod == nil {
		return fmt.Errorf("emulator: launch of %s before load", name)
	}
	return d.mod.Launch(d.mem, name, grid, block, a.shared,
		[]uint64{a.dst, a.src, a.tables, a.aux, a.sum, uint64(a.n), uint64(a.first), uint64(a.per)}, a.k[:])
}

func (d *emuDevice) sync(int) error { return nil }

// failingDevice is the emulator failing from its launch number failAt on
// (0 the first), at the launch or, as an asynchronous failure would, at
// the next sync of its stream, the launch not run.
type failingDevice struct {
	*emuDevice
	launches, failAt int
	atSync           bool
	failed           [2]bool // the streams' pending failures
}

var errEmulatedFailure = errors.New("emulated device failure")

func (d *failingDevice) launch(name string, grid, block, stream int, a *launchArgs) error {
	d.launches++
	if d.launches <= d.failAt {
		return d.emuDevice.launch(name, grid, block, stream, a)
	}
	if !d.atSync {
		return errEmulatedFailure
	}
	d.failed[stream] = true
	return nil
}

func (d *failingDevice) sync(stream int) error {
	if stream >= 0 && d.failed[stream] {
		return errEmulatedFailure
	}
	return nil
}

// nullDevice is a device that moves and computes nothing, for timing the
// host's side of the engine alone.
type nullDevice struct{ *emuDevice }

func (nullDevice) launch(string, int, int, int, *launchArgs) error { return nil }
func (nullDevice) copyHtoD(uint64, []byte, int) error              { return nil }
func (nullDevice) copyDtoH([]byte, uint64, int) error              { return nil }
