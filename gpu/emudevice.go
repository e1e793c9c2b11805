package gpu

import "fmt"

// emuDevice is a device made of the emulator, for tests of the generated
// kernels and of the modes' host code. Everything runs at once; streams
// only order what is already ordered.
type emuDevice struct {
	mod *emuModule
	mem *emuMemory
}

func newEmuDevice() *emuDevice { return &emuDevice{mem: newEmuMemory()} }

func (d *emuDevice) load(ptx string) error {
	m, err := parsePTX(ptx)
	d.mod = m
	return err
}

func (d *emuDevice) alloc(n int) (uint64, error) { return d.mem.alloc(n), nil }

func (d *emuDevice) hostAlloc(n int) ([]byte, error) { return make([]byte, n), nil }

func (d *emuDevice) hostFree([]byte) error { return nil }

func (d *emuDevice) copyHtoD(dst uint64, src []byte, _ int) (err error) {
	defer recoverFault(&err)
	copy(d.mem.slice(dst, len(src)), src)
	return nil
}

func (d *emuDevice) copyDtoH(dst []byte, src uint64, _ int) (err error) {
	defer recoverFault(&err)
	copy(dst, d.mem.slice(src, len(dst)))
	return nil
}

func (d *emuDevice) launch(name string, grid, block, _ int, a *launchArgs) error {
	return d.mod.launch(d.mem, name, grid, block, sharedSize,
		[]uint64{a.dst, a.src, a.tables, a.aux, a.sum, uint64(a.n), uint64(a.first), uint64(a.per)}, a.k[:])
}

func (d *emuDevice) sync(int) error { return nil }

func recoverFault(err *error) {
	if r := recover(); r != nil {
		f, ok := r.(emuFault)
		if !ok {
			panic(r)
		}
		*err = fmt.Errorf("emulator: %s", f.msg)
	}
}
