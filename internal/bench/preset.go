package bench

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A Preset is a named selection of algorithms and lengths that reproduces a
// published comparison, with a table of its own beside the published
// figures.
type Preset struct {
	Name   string
	Doc    string
	Algs   []string
	Sizes  []int
	Source string
	// Published holds the source's figures in GB/s, by "alg/impl".
	Published map[string]float64
}

// presets lists every preset.
var presets = []Preset{{
	Name:   "rocca",
	Doc:    "the rust-rocca-s benchmark: 16384-byte messages, bytes per second",
	Algs:   []string{"aes-256-gcm", "aes-128-gcm", "chacha20-poly1305", "aegis-128l", "rocca-s", "aes-128-ocb3"},
	Sizes:  []int{16384},
	Source: "rust-rocca-s on an AMD EPYC 7543 (its ROCCA-S and AEGIS-128L, and OpenSSL's aes128-ocb)",
	Published: map[string]float64{
		"rocca-s/fae":          5.09,
		"aegis-128l/fae":       5.08,
		"aes-128-ocb3/openssl": 8.93,
	},
}}

// LookupPreset returns the preset called name.
func LookupPreset(name string) (Preset, bool) {
	for _, p := range presets {
		if p.Name == name {
			return p, true
		}
	}
	return Preset{}, false
}

// PresetNames returns the presets' names, for messages.
func PresetNames() string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// WritePreset writes p's table: the Seal throughput of every row at p's
// longest length, in bytes per second and GB/s, beside the published
// figure where the source has one (for fae's rows, the source's own
// implementation of the algorithm). Batched rows (--batch) say "fae x64".
func (r *Report) WritePreset(w io.Writer, p Preset, md bool) error {
	n := p.Sizes[len(p.Sizes)-1]
	t := &table{
		header: []string{"algorithm", "impl", "bytes/s", "GB/s", "cpb", "published GB/s"},
		left:   2,
	}
	for _, res := range r.Results {
		if res.Op != "seal" || res.Bytes != n {
			continue
		}
		impl, pub := res.Impl, "-"
		if g, ok := p.Published[res.Alg+"/"+res.Impl]; ok && res.Batch == 0 {
			pub = strconv.FormatFloat(g, 'f', 2, 64)
		}
		if res.Batch > 0 {
			impl += " x" + strconv.Itoa(res.Batch)
		}
		t.rows = append(t.rows, []string{res.Alg, impl,
			strconv.FormatFloat(res.GBps*1e9, 'f', 0, 64),
			strconv.FormatFloat(res.GBps, 'f', 2, 64),
			strconv.FormatFloat(res.CPB, 'f', 3, 64), pub})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fae bench --preset %s: %s\n%s, core clock %.2f GHz; published: %s.\n\n",
		p.Name, p.Doc, r.Machine.CPU, r.Machine.GHz, p.Source)
	t.write(&b, md)
	for _, note := range r.Notes {
		b.WriteString("- " + note + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
