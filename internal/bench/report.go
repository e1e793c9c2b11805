package bench

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// A Report is the outcome of Run. Its JSON encoding is the format of
// `fae bench --format json`. A figure that could not be measured (a length
// not run, OpenSSL's context size) is nil, null in JSON.
type Report struct {
	Machine Machine   `json:"machine"`
	Results []Result  `json:"results"`
	Summary []Summary `json:"summary"`
	ADBytes int       `json:"ad_bytes"` // associated data per message (OpenSSL: always 13)
	Trials  int       `json:"trials"`   // per figure, of which the median is reported
	Notes   []string  `json:"notes,omitempty"`
}

// Machine describes where the report was made.
type Machine struct {
	CPU   string  `json:"cpu"`
	GHz   float64 `json:"ghz"` // the median of the run's calibrations of the core clock
	Go    string  `json:"go"`
	Cores int     `json:"cores"`
}

// A Result is the speed of one operation on messages of one length.
type Result struct {
	Alg   string `json:"alg"`
	Impl  string `json:"impl"`
	Op    string `json:"op"`    // "seal" or "open"; AES-CTR's encryption is "seal"
	Bytes int    `json:"bytes"` // of each message
	// Batch is the number of messages of Bytes bytes per call of SealBatch
	// or OpenBatch, for which the other figures are; 0 for single messages.
	Batch int     `json:"batch,omitempty"`
	CPB   float64 `json:"cpb"`  // cycles per byte at GHz
	GHz   float64 `json:"ghz"`  // the core clock calibrated just before the algorithm ran
	GBps  float64 `json:"gbps"` // 10⁹ bytes per second
	// Spread is (max-min)/median of the trials; nil for OpenSSL, which
	// runs once.
	Spread *float64 `json:"spread"`
	// The GPU's results (RunGPU): the kernels, "bitsliced" or "tables";
	// the scope, "kernel" (the kernel alone on data in device memory) or
	// "end-to-end" (host memory to host memory); and for end-to-end the
	// host memory, "pinned" (gpu.AllocHost, moved by DMA) or "go" (staged).
	Kernel string `json:"kernel,omitempty"`
	Scope  string `json:"scope,omitempty"`
	Memory string `json:"memory,omitempty"`
}

// A Summary is the row of one implementation of one algorithm in the
// Krovetz–Rogaway table. Every figure is from Seal (for AES-CTR, from
// encryption).
type Summary struct {
	Alg  string `json:"alg"`
	Impl string `json:"impl"`
	// CPB4096 is cycles per byte on 4096-byte messages.
	CPB4096 *float64 `json:"cpb_4096"`
	// Overhead4096 is CPB4096 less that of fae's AES-CTR with a key of
	// the same size: the cost of authentication, for AES modes.
	Overhead4096 *float64 `json:"overhead_4096"`
	// IPI is the Internet Performance Index: 0.05·cpb(44) + 0.15·cpb(552)
	// + 0.20·cpb(576) + 0.60·cpb(1500).
	IPI *float64 `json:"ipi"`
	// IPIBatch is the IPI of SealBatch on batches of Batch messages (of
	// each length), with --batch.
	IPIBatch *float64 `json:"ipi_batch,omitempty"`
	// IPIMixed and IPIMixedBatch are the cycles per byte of Seal on each
	// message in turn, and of one SealBatch call, on Batch messages of the
	// IPI's four lengths, shuffled, as many of each as split their bytes
	// as the IPI's weights (ipiMix): the IPI of traffic that mixes them,
	// where IPI times each length apart.
	IPIMixed      *float64 `json:"ipi_mixed,omitempty"`
	IPIMixedBatch *float64 `json:"ipi_mixed_batch,omitempty"`
	Batch         int      `json:"batch,omitempty"`
	CPB16384      *float64 `json:"cpb_16384"`
	// ContextBytes is the memory of one keyed value (see the package doc).
	ContextBytes *int `json:"context_bytes"`
	// InitCycles is the time of the constructor, key setup included.
	InitCycles *float64 `json:"init_cycles"`
	GBps4096   *float64 `json:"gbps_4096"`
	// Speedup16384, in fae's rows only, holds for each peer implementation
	// of the algorithm its cpb_16384 divided by fae's: above 1, fae is
	// faster.
	Speedup16384 map[string]float64 `json:"speedup_16384,omitempty"`
}

// ipiWeights are the packet lengths and weights of the Internet
// Performance Index (McGrew and Viega, 2004; Krovetz and Rogaway, 2011).
var ipiWeights = []struct {
	bytes  int
	weight float64
}{{44, 0.05}, {552, 0.15}, {576, 0.20}, {1500, 0.60}}

// ipi returns the Internet Performance Index from cycles per byte by
// message length, and false if a length it needs is missing.
func ipi(cpb map[int]float64) (float64, bool) {
	sum := 0.0
	for _, w := range ipiWeights {
		c, ok := cpb[w.bytes]
		if !ok {
			return 0, false
		}
		sum += w.weight * c
	}
	return sum, true
}

// ipiMix returns the lengths of a batch of n messages of the IPI's lengths
// whose bytes split as its weights: as many messages of each length as its
// weight over its length, in proportion (of 64: 34 of 44 bytes, 8 of 552,
// 10 of 576 and 12 of 1500), rounded to n by largest remainders, and
// shuffled, the same on every run.
func ipiMix(n int) []int {
	share := make([]float64, len(ipiWeights))
	total := 0.0
	for i, w := range ipiWeights {
		share[i] = w.weight / float64(w.bytes)
		total += share[i]
	}
	counts := make([]int, len(ipiWeights))
	left := n
	for i := range share {
		share[i] *= float64(n) / total
		counts[i] = int(share[i])
		left -= counts[i]
	}
	for ; left > 0; left-- {
		best := 0
		for i := range share {
			if share[i]-float64(counts[i]) > share[best]-float64(counts[best]) {
				best = i
			}
		}
		counts[best]++
	}
	var lengths []int
	for i, c := range counts {
		for range c {
			lengths = append(lengths, ipiWeights[i].bytes)
		}
	}
	r := rand.New(rand.NewPCG(44, 1500))
	r.Shuffle(len(lengths), func(i, j int) { lengths[i], lengths[j] = lengths[j], lengths[i] })
	return lengths
}

type rowKey struct{ alg, impl string }

// extras are the figures of a row that are not per message length.
type extras struct {
	contextBytes *int
	initCycles   *float64
	ipiMixed     [2]*float64 // single calls, SealBatch
}

// summarize computes the Summary of every (alg, impl) in results, in the
// order of their first appearance. ctrRef maps an algorithm's name to the
// name of the AES-CTR row its overhead is measured against.
func summarize(results []Result, ex map[rowKey]extras, ctrRef map[string]string) []Summary {
	cpb := map[rowKey]map[int]float64{}
	gbps := map[rowKey]map[int]float64{}
	batched := map[rowKey]map[int]float64{}
	batchOf := map[rowKey]int{}
	var keys []rowKey
	for _, r := range results {
		if r.Op != "seal" {
			continue
		}
		if r.Batch > 0 {
			k := rowKey{r.Alg, r.Impl}
			if batched[k] == nil {
				batched[k] = map[int]float64{}
			}
			batched[k][r.Bytes], batchOf[k] = r.CPB, r.Batch
			continue
		}
		k := rowKey{r.Alg, r.Impl}
		if cpb[k] == nil {
			cpb[k], gbps[k] = map[int]float64{}, map[int]float64{}
			keys = append(keys, k)
		}
		cpb[k][r.Bytes], gbps[k][r.Bytes] = r.CPB, r.GBps
	}
	at := func(m map[int]float64, n int) *float64 {
		if v, ok := m[n]; ok {
			return &v
		}
		return nil
	}
	var out []Summary
	for _, k := range keys {
		s := Summary{Alg: k.alg, Impl: k.impl,
			CPB4096: at(cpb[k], 4096), CPB16384: at(cpb[k], 16384), GBps4096: at(gbps[k], 4096),
			ContextBytes: ex[k].contextBytes, InitCycles: ex[k].initCycles}
		if ref, ok := ctrRef[k.alg]; ok && s.CPB4096 != nil {
			if c := at(cpb[rowKey{ref, implFae}], 4096); c != nil {
				s.Overhead4096 = ptr(round(*s.CPB4096 - *c))
			}
		}
		if v, ok := ipi(cpb[k]); ok {
			s.IPI = ptr(round(v))
		}
		if v, ok := ipi(batched[k]); ok {
			s.IPIBatch, s.Batch = ptr(round(v)), batchOf[k]
		}
		if m := ex[k].ipiMixed; m[1] != nil {
			s.IPIMixed, s.IPIMixedBatch, s.Batch = m[0], m[1], batchOf[k]
		}
		out = append(out, s)
	}
	for i := range out {
		f := &out[i]
		if f.Impl != implFae || f.CPB16384 == nil {
			continue
		}
		for _, p := range out {
			if p.Alg == f.Alg && p.Impl != implFae && p.CPB16384 != nil {
				if f.Speedup16384 == nil {
					f.Speedup16384 = map[string]float64{}
				}
				f.Speedup16384[p.Impl] = round(*p.CPB16384 / *f.CPB16384)
			}
		}
	}
	return out
}

// sortResults orders results by algorithm, implementation (fae first),
// single messages before batches, operation (seal first) and length.
func sortResults(rs []Result) {
	slices.SortStableFunc(rs, func(a, b Result) int {
		return cmp.Or(
			cmp.Compare(a.Alg, b.Alg),
			cmp.Compare(slices.Index(Impls, a.Impl), slices.Index(Impls, b.Impl)),
			cmp.Compare(a.Batch, b.Batch),
			cmp.Compare(b.Op, a.Op), // "seal" before "open"
			cmp.Compare(a.Bytes, b.Bytes),
		)
	})
}

func ptr[T any](v T) *T { return &v }

// round keeps four significant digits, more than any measurement here
// deserves, so that the JSON stays readable.
func round(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return x
	}
	scale := math.Pow(10, 3-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*scale) / scale
}
