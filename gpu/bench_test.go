package gpu

import (
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/faelabs/fae/batch"
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

// benchKernels are the kernels timed, each bitsliced and table-based, with
// the rounds of AES-128 and AES-256.
var benchKernels = func() []kernel {
	var ks []kernel
	for _, k := range []kernel{
		{op: opCTR}, {op: opECB}, {op: opEnc, mask: maskOCB}, {op: opDec, mask: maskOCB},
		{op: opEnc, mask: maskRAOCB}, {op: opDec, mask: maskRAOCB},
	} {
		for _, r := range []int{10, 14} {
			t := k
			t.rounds = r
			s := t
			s.sliced = true
			ks = append(ks, s, t)
		}
	}
	return ks
}()

// BenchmarkKernel times one launch over device-resident random data (on
// zeros every thread would look up the same table words and the figures
// would flatter the table-based kernels) with random keys and constants.
func BenchmarkKernel(b *testing.B) {
	needGPU(b)
	e, _ := shared()
	r := rand.NewChaCha8([32]byte{9})
	data := random(r, 64<<20)
	if err := e.dev.copyHtoD(e.aux, random(r, auxTotal), -1); err != nil {
		b.Fatal(err)
	}
	for _, n := range benchSizes {
		buf, err := e.dev.alloc(n)
		if err != nil {
			b.Skip(err)
		}
		// Device memory is not freed: the process ends after the run.
		for off := 0; off < n; off += len(data) {
			if err := e.dev.copyHtoD(buf+uint64(off), data[:min(len(data), n-off)], -1); err != nil {
				b.Fatal(err)
			}
		}
		for _, k := range benchKernels {
			name := k.name()
			kp := new([kBytes]byte)
			copy(kp[:], random(r, kBytes))
			if k.sliced {
				// The bitsliced kernels take the rounds from p_k.
				name = fmt.Sprintf("%s_r%d", name, k.rounds)
				binary.LittleEndian.PutUint32(kp[:], uint32(k.rounds))
			}
			b.Run(name+"/"+benchName(n), func(b *testing.B) {
				blocks := uint32(n / 16)
				threads, shift := launchShape(k, e.threads)
				grid, per := geometry(blocks, 1, threads, e.maxCTAs, shift)
				a := launchArgs{dst: buf, src: buf, tables: e.tables, aux: e.aux, sum: e.sum,
					n: blocks, first: 1, per: per, k: *kp, shared: k.sharedBytes()}
				b.SetBytes(int64(n))
				for b.Loop() {
					if err := e.dev.launch(k.name(), grid, threads, 0, &a); err != nil {
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

// BenchmarkEndToEnd runs the public API from host memory to host memory,
// in place: Go memory (staged through pinned buffers) and memory from
// AllocHost (input moved by DMA, output staged since it overwrites the
// input; fae bench --gpu measures output apart from input, DMA alone).
func BenchmarkEndToEnd(b *testing.B) {
	needGPU(b)
	key, iv, nonce := make([]byte, 16), make([]byte, 16), make([]byte, 12)
	for _, kind := range []string{"bitsliced", "tables"} {
		opts := gpuOptions[kind]
		c, _ := NewCTR(key, iv, opts...)
		o, _ := NewOCB(key, opts...)
		r, _ := NewRAOCB(key, opts...)
		benchEndToEnd(b, kind, c, o, r, nonce)
	}
}

func benchEndToEnd(b *testing.B, kind string, c cipher.Stream, o, r cipher.AEAD, nonce []byte) {
	for _, mem := range []string{"go", "pinned"} {
		for _, n := range benchSizes {
			var buf []byte
			if mem == "go" {
				buf = make([]byte, n+16)
			} else {
				var err error
				if buf, err = AllocHost(n + 16); err != nil {
					b.Skip(err)
				}
			}
			b.Run(kind+"/ctr/"+mem+"/"+benchName(n), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					c.XORKeyStream(buf[:n], buf[:n])
				}
			})
			b.Run(kind+"/ocb/"+mem+"/"+benchName(n), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					o.Seal(buf[:0], nonce, buf[:n], nil)
				}
			})
			b.Run(kind+"/raocb/"+mem+"/"+benchName(n), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					r.Seal(buf[:0], nonce, buf[:n], nil)
				}
			})
			if mem == "pinned" {
				if err := FreeHost(buf); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkCopy measures pinned host memory to the device and back, one
// way at a time, and both ways at once in chunks on the engine's two
// streams (what an in-place end-to-end run must move: n bytes each way).
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
		b.Run("RoundTrip/"+benchName(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				for off, c := 0, 0; off < n; off, c = off+cudaChunk, c+1 {
					end := min(off+cudaChunk, n)
					d := dev + uint64(off)
					if err := e.dev.copyHtoD(d, host[off:end], c%2); err != nil {
						b.Fatal(err)
					}
					if err := e.dev.copyDtoH(host[off:end], d, c%2); err != nil {
						b.Fatal(err)
					}
				}
				if err := e.dev.sync(-1); err != nil {
					b.Fatal(err)
				}
			}
		})
		if err := e.dev.hostFree(host); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBatchHost times the host's side of SealBatch on 65536
// 1500-byte messages of Go memory, on a device that does nothing (no GPU
// needed): the per-message steps, the launches' tables and the staging
// copies, which bound a batch's speed on any GPU.
func BenchmarkBatchHost(b *testing.B) {
	e, err := newEngine(nullDevice{newEmuDevice()}, cudaChunk, cudaThreads, 132)
	if err != nil {
		b.Fatal(err)
	}
	o, _ := newOCB(e, make([]byte, 16), config{})
	const n, count = 1500, 1 << 16
	pts, cts, nonces := make([]byte, n*count), make([]byte, (n+16)*count), make([]byte, 12*count)
	msgs := make([]batch.Message, count)
	for i := range msgs {
		msgs[i] = batch.Message{Nonce: nonces[12*i:][:12], In: pts[i*n:][:n], Out: cts[i*(n+16):][:n+16]}
	}
	b.SetBytes(n * count)
	for b.Loop() {
		o.SealBatch(msgs)
	}
}
