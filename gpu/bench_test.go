package gpu

import (
	"strconv"
	"testing"
)

// Benchmarks for a GPU (they skip without one): kernel-only throughput on
// device-resident data, end to end from host memory to host memory, and
// the copy bandwidth between pinned host memory and the device. b.SetBytes
// makes the MB/s column the figure; scripts/gpu-check.sh converts it to
// Gbit/s.

var benchSizes = []int{1 << 20, 16 << 20, 256 << 20, 1 << 30}

// fourGiB is a variable so that 32-bit builds, where it does not fit an
// int, still compile; they leave that size out.
var fourGiB int64 = 4 << 30

func init() {
	if int64(int(fourGiB)) == fourGiB {
		benchSizes = append(benchSizes, int(fourGiB))
	}
}

func benchName(n int) string {
	if n >= 1<<30 {
		return strconv.Itoa(n>>30) + "GiB"
	}
	return strconv.Itoa(n>>20) + "MiB"
}

var benchKernels = []kernel{
	{opCTR, maskNone, 10}, {opCTR, maskNone, 14}, {opECB, maskNone, 10},
	{opEnc, maskOCB, 10}, {opEnc, maskRAOCB, 10}, {opEnc, maskRAOCB, 12},
}

func BenchmarkKernel(b *testing.B) {
	needGPU(b)
	e, _ := shared()
	for _, k := range benchKernels {
		for _, n := range benchSizes {
			b.Run(k.name()+"/"+benchName(n), func(b *testing.B) {
				buf, err := e.dev.alloc(n)
				if err != nil {
					b.Skip(err)
				}
				// Device memory is not freed: the process ends after the run.
				blocks := n / 16
				a := launchArgs{dst: buf, src: buf, keys: e.aux + keysOffset, tables: e.tables,
					aux: e.aux, sum: e.sum, n: uint32(blocks)}
				grid := min((blocks+e.threads-1)/e.threads, e.maxCTAs)
				b.SetBytes(int64(n))
				for b.Loop() {
					if err := e.dev.launch(k.name(), grid, e.threads, 0, &a); err != nil {
						b.Fatal(err)
					}
					if err := e.dev.sync(-1); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkEndToEnd(b *testing.B) {
	needGPU(b)
	key, iv, nonce := make([]byte, 16), make([]byte, 16), make([]byte, 12)
	c, _ := NewCTR(key, iv)
	o, _ := NewOCB(key)
	r, _ := NewRAOCB(key)
	for _, n := range benchSizes {
		buf := make([]byte, n+16)
		b.Run("ctr/"+benchName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				c.XORKeyStream(buf[:n], buf[:n])
			}
		})
		b.Run("ocb/"+benchName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				o.Seal(buf[:0], nonce, buf[:n], nil)
			}
		})
		b.Run("raocb/"+benchName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				r.Seal(buf[:0], nonce, buf[:n], nil)
			}
		})
	}
}

func BenchmarkCopy(b *testing.B) {
	needGPU(b)
	e, _ := shared()
	for _, n := range benchSizes {
		host, err := e.dev.hostAlloc(n)
		if err != nil {
			b.Skip(err)
		}
		dev, err := e.dev.alloc(n)
		if err != nil {
			b.Skip(err)
		}
		b.Run("HtoD/"+benchName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if err := e.dev.copyHtoD(dev, host, 0); err != nil {
					b.Fatal(err)
				}
				if err := e.dev.sync(0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("DtoH/"+benchName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if err := e.dev.copyDtoH(host, dev, 0); err != nil {
					b.Fatal(err)
				}
				if err := e.dev.sync(0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
