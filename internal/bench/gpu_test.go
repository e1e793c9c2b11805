package bench

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/faelabs/fae/gpu"
)

// TestRunGPUWithout checks RunGPU's errors where there is no GPU: the
// reason from gpu.Available, on one line, and a batch out of range before
// that.
func TestRunGPUWithout(t *testing.T) {
	if _, err := RunGPU(GPUConfig{Batch: MaxGPUBatch + 1}); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("a batch of %d: error %v", MaxGPUBatch+1, err)
	}
	avail := gpu.Available()
	if avail == nil {
		t.Skip("a GPU is present")
	}
	_, err := RunGPU(GPUConfig{Batch: 4, Sizes: []int{1 << 20}})
	if err == nil || err.Error() != avail.Error() || strings.Contains(err.Error(), "\n") {
		t.Errorf("RunGPU: error %q, want %q", err, avail)
	}
}

// TestWriteGPU checks the GPU table (bitsliced and table kernels side by
// side, in Gbit/s) and the JSON fields kernel, scope and batch.
func TestWriteGPU(t *testing.T) {
	r := &Report{Results: []Result{
		{Alg: "aes-128-ctr", Impl: implFae, Op: "seal", Bytes: 1 << 20, GBps: 400, Kernel: "bitsliced", Scope: "kernel"},
		{Alg: "aes-128-ctr", Impl: implFae, Op: "seal", Bytes: 1 << 20, GBps: 500, Kernel: "tables", Scope: "kernel"},
		{Alg: "aes-128-ocb3", Impl: implFae, Op: "open", Bytes: 1500, Batch: 1 << 20, GBps: 40, Kernel: "bitsliced", Scope: "end-to-end", Memory: "pinned"},
	}}
	var b bytes.Buffer
	if err := r.WriteGPU(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := [][]string{
		{"alg", "op", "bytes", "batch", "scope", "memory", "bitsliced", "Gbit/s", "tables", "Gbit/s"},
		{"aes-128-ctr", "seal", "1048576", "-", "kernel", "device", "3200.0", "4000.0"},
		{"aes-128-ocb3", "open", "1500", "1048576", "end-to-end", "pinned", "320.0", "-"},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), b.String())
	}
	for i, w := range want {
		if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("line %d: %q, want %q", i, got, w)
		}
	}
	b.Reset()
	if err := r.Write(&b, "json"); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(b.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	if g := j.Results[2]; g["kernel"] != "bitsliced" || g["scope"] != "end-to-end" || g["batch"] != float64(1<<20) || g["memory"] != "pinned" {
		t.Errorf("JSON result %v", g)
	}
	if _, ok := j.Results[0]["batch"]; ok {
		t.Error("JSON: a single-message result has a batch")
	}
}
