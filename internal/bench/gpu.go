package bench

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/gpu"
	"github.com/faelabs/fae/internal/gpukernel"
)

// GPUBatch and GPUBatchBytes are the batch rows' default: 1,048,576
// messages of 1500 bytes (packets) per SealBatch or OpenBatch call.
const (
	GPUBatch      = 1 << 20
	GPUBatchBytes = 1500
	// MaxGPUBatch bounds GPUConfig.Batch: 16M messages of 1500 bytes
	// take 24 GiB of host memory.
	MaxGPUBatch = 1 << 24
)

// GPUConfig is what RunGPU measures.
type GPUConfig struct {
	// Sizes are the lengths of the single-message rows; nil for
	// GPUSizes.
	Sizes []int
	// Batch is the number of messages of GPUBatchBytes per call of the
	// batch rows; 0 leaves them out.
	Batch int
	// Runs is the runs of each figure, of which the best is reported; 0
	// for 3.
	Runs int
	Log  io.Writer // notes, or nil
}

// GPUSizes are RunGPU's default lengths: 1 MiB to 4 GiB, 4 GiB only where
// an int holds it.
func GPUSizes() []int {
	s := []int{1 << 20, 16 << 20, 256 << 20, 1 << 30}
	if four := int64(4 << 30); int64(int(four)) == four {
		s = append(s, int(four))
	}
	return s
}

// gpuKinds are the two kinds of kernels, bitsliced (the default, constant
// time) and table-based, with their options.
var gpuKinds = []struct {
	name string
	opts []gpu.Option
}{{"bitsliced", nil}, {"tables", []gpu.Option{gpu.WithTables()}}}

// RunGPU measures package gpu with AES-128: every kernel alone on data in
// device memory (scope "kernel"), then CTR, OCB3 and RAOCB from host
// memory to host memory (scope "end-to-end"), from pinned memory and from
// Go memory, in place, then the batch rows, each with both kinds of
// kernels. It fails, with Available's error, when there is no usable GPU.
func RunGPU(c GPUConfig) (*Report, error) {
	if c.Batch < 0 || c.Batch > MaxGPUBatch {
		return nil, fmt.Errorf("bench --gpu: a batch of %d messages out of range 0..%d", c.Batch, MaxGPUBatch)
	}
	if err := gpu.Available(); err != nil {
		return nil, err
	}
	if c.Sizes == nil {
		c.Sizes = GPUSizes()
	}
	if c.Runs == 0 {
		c.Runs = 3
	}
	g := &gpuRun{cfg: c}
	for _, kind := range gpuKinds {
		if err := g.kernels(kind.name); err != nil {
			return nil, err
		}
	}
	for _, kind := range gpuKinds {
		if err := g.endToEnd(kind.name, kind.opts); err != nil {
			return nil, err
		}
	}
	var notes []string
	if n, err := gpu.Fallbacks(); n > 0 {
		// The figures of those calls are the CPU's: say so, keep the rest.
		notes = append(notes, fmt.Sprintf("the GPU failed during %d calls, which completed on the CPU: %v", n, err))
		if c.Log != nil {
			fmt.Fprintln(c.Log, notes[0])
		}
	}
	return &Report{
		Machine: Machine{CPU: cpuName(), Go: runtime.Version(), Cores: runtime.NumCPU()},
		Results: g.results,
		Trials:  c.Runs,
		Summary: []Summary{},
		Notes: append(notes, "GPU figures: the best of the runs; gbps is 10^9 bytes of text per second "+
			"(end to end: output apart from input, no AD)"),
	}, nil
}

type gpuRun struct {
	cfg     GPUConfig
	results []Result
}

func (g *gpuRun) add(alg, op string, bytes, batch int, kind, scope, mem string, d time.Duration) {
	n := float64(bytes) * float64(max(batch, 1))
	g.results = append(g.results, Result{Alg: alg, Impl: implFae, Op: op, Bytes: bytes, Batch: batch,
		GBps: round(n / d.Seconds() / 1e9), Kernel: kind, Scope: scope, Memory: mem})
	if g.cfg.Log != nil {
		fmt.Fprintf(g.cfg.Log, "%s %s %d x%d, %s kernels, %s %s: %.1f Gbit/s (%v)\n",
			alg, op, bytes, max(batch, 1), kind, scope, mem, 8*n/d.Seconds()/1e9, d)
	}
}

// kernels measures every kernel alone.
func (g *gpuRun) kernels(kind string) error {
	if gpukernel.Time == nil {
		return errors.New("bench --gpu: package gpu is not linked")
	}
	for _, op := range gpukernel.Ops {
		alg, o, _ := strings.Cut(op, "-")
		if o == "" {
			o = "seal"
		}
		for _, n := range g.cfg.Sizes {
			d, err := gpukernel.Time(op, kind == "tables", n&^15, g.cfg.Runs)
			if err != nil {
				return fmt.Errorf("bench --gpu: kernel %s, %d bytes: %w", op, n, err)
			}
			g.add(gpuAlgs[alg], o, n&^15, 0, kind, "kernel", "", d)
		}
	}
	return nil
}

// gpuAlgs names the algorithm of a kernel's mode.
var gpuAlgs = map[string]string{"ctr": "aes-128-ctr", "ocb3": "aes-128-ocb3", "raocb": "raocb-aes-128"}

// best returns the shortest of runs calls of f.
func (g *gpuRun) best(f func()) time.Duration {
	d := time.Duration(1<<63 - 1)
	for range g.cfg.Runs {
		t := time.Now()
		f()
		d = min(d, time.Since(t))
	}
	return d
}

// endToEnd measures the public API, host memory to host memory, output
// apart from input (the DMA path where both are pinned).
func (g *gpuRun) endToEnd(kind string, opts []gpu.Option) error {
	key, nonce := make([]byte, 16), make([]byte, 12)
	c, err := gpu.NewCTR(key, make([]byte, 16), opts...)
	if err != nil {
		return err
	}
	o, err := gpu.NewOCB(key, opts...)
	if err != nil {
		return err
	}
	r, err := gpu.NewRAOCB(key, opts...)
	if err != nil {
		return err
	}
	aeads := []gpuAEAD{{"aes-128-ocb3", o}, {"raocb-aes-128", r}}
	for _, mem := range []string{"pinned", "go"} {
		for _, n := range g.cfg.Sizes {
			pt, ct, free, err := hostBuffers(mem, n, n+16)
			if err != nil {
				return err
			}
			g.add("aes-128-ctr", "seal", n, 0, kind, "end-to-end", mem, g.best(func() { c.XORKeyStream(ct[:n], pt) }))
			for _, a := range aeads {
				g.add(a.alg, "seal", n, 0, kind, "end-to-end", mem, g.best(func() { a.a.Seal(ct[:0], nonce, pt, nil) }))
				var openErr error
				g.add(a.alg, "open", n, 0, kind, "end-to-end", mem, g.best(func() { _, openErr = a.a.Open(pt[:0], nonce, ct, nil) }))
				if openErr != nil {
					return fmt.Errorf("bench --gpu: %s: %w", a.alg, openErr)
				}
			}
			if err := free(); err != nil {
				return err
			}
		}
		if g.cfg.Batch > 0 {
			if err := g.batches(kind, mem, aeads); err != nil {
				return err
			}
		}
	}
	return nil
}

type gpuAEAD struct {
	alg string
	a   batch.AEAD
}

// batches measures SealBatch and OpenBatch of cfg.Batch messages of
// GPUBatchBytes each, the texts laid end to end and the ciphertexts with
// their tags apart.
func (g *gpuRun) batches(kind, mem string, aeads []gpuAEAD) error {
	const n = GPUBatchBytes
	pts, cts, free, err := hostBuffers(mem, g.cfg.Batch*n, g.cfg.Batch*(n+16))
	if err != nil {
		return err
	}
	defer free()
	nonces := make([]byte, 12*g.cfg.Batch)
	seal, open := make([]batch.Message, g.cfg.Batch), make([]batch.Message, g.cfg.Batch)
	for i := range seal {
		pt, ct := pts[i*n:][:n], cts[i*(n+16):][:n+16]
		seal[i] = batch.Message{Nonce: nonces[12*i:][:12], In: pt, Out: ct}
		open[i] = batch.Message{Nonce: seal[i].Nonce, In: ct, Out: pt}
	}
	for _, a := range aeads {
		g.add(a.alg, "seal", n, g.cfg.Batch, kind, "end-to-end", mem, g.best(func() { a.a.SealBatch(seal) }))
		ok := true
		g.add(a.alg, "open", n, g.cfg.Batch, kind, "end-to-end", mem, g.best(func() { ok = a.a.OpenBatch(open) }))
		if !ok {
			return fmt.Errorf("bench --gpu: %s: OpenBatch failed", a.alg)
		}
	}
	return nil
}

// hostBuffers returns buffers of n and m bytes, pinned or Go memory, and
// the func that frees them.
func hostBuffers(mem string, n, m int) ([]byte, []byte, func() error, error) {
	if mem == "go" {
		return make([]byte, n), make([]byte, m), func() error { return nil }, nil
	}
	a, err := gpu.AllocHost(n)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bench --gpu: %w", err)
	}
	b, err := gpu.AllocHost(m)
	if err != nil {
		return nil, nil, nil, errors.Join(fmt.Errorf("bench --gpu: %w", err), gpu.FreeHost(a))
	}
	return a, b, func() error { return errors.Join(gpu.FreeHost(a), gpu.FreeHost(b)) }, nil
}

// WriteGPU writes r, from RunGPU, as a text table: one line per figure in
// Gbit/s, bitsliced and table kernels side by side.
func (r *Report) WriteGPU(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "alg\top\tbytes\tbatch\tscope\tmemory\tbitsliced Gbit/s\ttables Gbit/s\t")
	type key struct {
		alg, op, scope, mem string
		bytes, batch        int
	}
	tables := map[key]float64{}
	for _, res := range r.Results {
		if res.Kernel == "tables" {
			tables[key{res.Alg, res.Op, res.Scope, res.Memory, res.Bytes, res.Batch}] = res.GBps
		}
	}
	for _, res := range r.Results {
		if res.Kernel != "bitsliced" {
			continue
		}
		t := "-"
		if v, ok := tables[key{res.Alg, res.Op, res.Scope, res.Memory, res.Bytes, res.Batch}]; ok {
			t = fmt.Sprintf("%.1f", 8*v)
		}
		b, mem := "-", res.Memory
		if res.Batch > 0 {
			b = fmt.Sprint(res.Batch)
		}
		if mem == "" {
			mem = "device"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%.1f\t%s\t\n", res.Alg, res.Op, res.Bytes, b, res.Scope, mem, 8*res.GBps, t)
	}
	return tw.Flush()
}
