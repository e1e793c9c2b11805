package bench

import (
	"fmt"
	"maps"
	"slices"
	"testing"
)

// fullReport returns a report with a Seal figure or two for every row a
// run of every algorithm makes: the registry's, the peers', OpenSSL's.
func fullReport(t *testing.T) *Report {
	t.Helper()
	p, err := makePlan(nil)
	if err != nil {
		t.Fatal(err)
	}
	r := new(Report)
	for _, s := range p.subjects {
		for _, n := range []int{4096, 16} {
			r.Results = append(r.Results, Result{Alg: s.alg, Impl: s.impl, Op: "seal", Bytes: n, CPB: 1})
		}
		r.Results = append(r.Results, Result{Alg: s.alg, Impl: s.impl, Op: "open", Bytes: 16, CPB: 1})
	}
	for _, c := range p.openssl {
		r.Results = append(r.Results, Result{Alg: c.alg, Impl: implOpenSSL, Op: "seal", Bytes: 16384, CPB: 1})
	}
	return r
}

func TestPanels(t *testing.T) {
	r := fullReport(t)
	panels := r.Panels()
	if len(panels) != len(panelSpecs) {
		t.Errorf("%d panels of %d", len(panels), len(panelSpecs))
	}
	plotted := map[[2]string]bool{}
	for _, p := range panels {
		if len(p.Lines) == 0 || len(p.Lines) > MaxPanelLines {
			t.Errorf("panel %q has %d lines, want 1 to %d", p.Title, len(p.Lines), MaxPanelLines)
		}
		seen := map[[2]string]bool{}
		for _, l := range p.Lines {
			k := [2]string{l.Alg, l.Impl}
			if seen[k] {
				t.Errorf("panel %q draws %s (%s) twice", p.Title, l.Alg, l.Impl)
			}
			seen[k], plotted[k] = true, true
			if len(l.Bytes) != len(l.CPB) || !slices.IsSorted(l.Bytes) {
				t.Errorf("panel %q: line %s (%s) has lengths %v and figures %v", p.Title, l.Alg, l.Impl, l.Bytes, l.CPB)
			}
		}
	}

	// Krovetz and Rogaway's four modes, each once, as the registry runs
	// them (never a peer's or OpenSSL's in place of the registry's).
	four := panels[0]
	var algs []string
	for _, l := range four.Lines {
		algs = append(algs, l.Alg)
		if want := registeredImpl(l.Alg); l.Alg != "aes-128-ctr" && l.Impl != want || l.Alg == "aes-128-ctr" && l.Impl != implFae {
			t.Errorf("panel %q draws %s (%s), not the registry's", four.Title, l.Alg, l.Impl)
		}
	}
	if want := []string{"aes-128-ccm", "aes-128-gcm", "aes-128-ocb3", "aes-128-ctr"}; !slices.Equal(algs, want) {
		t.Errorf("panel %q draws %v, want %v", four.Title, algs, want)
	}

	// Every row is drawn somewhere but AES-192's, which the tables have.
	for _, res := range r.Results {
		k := [2]string{res.Alg, res.Impl}
		if unplotted := slices.Contains([]string{"aes-192-ocb3", "raocb-aes-192", "aes-192-gcm", "aes-192-ctr"}, res.Alg); plotted[k] == unplotted {
			t.Errorf("%s (%s): plotted %v", res.Alg, res.Impl, plotted[k])
		}
	}
}

// TestPanelsOfPartialRun checks that a run of a few algorithms gets only
// the panels that show them, and that a panel of whole families takes
// every implementation of each algorithm, fae's first.
func TestPanelsOfPartialRun(t *testing.T) {
	r := &Report{Results: []Result{
		{Alg: "aes-128-ocb3", Impl: implOpenSSL, Op: "seal", Bytes: 16384, CPB: 0.5},
		{Alg: "aes-128-ocb3", Impl: implFae, Op: "seal", Bytes: 64, CPB: 2},
		{Alg: "aes-128-ocb3", Impl: implFae, Op: "seal", Bytes: 16, CPB: 4},
		{Alg: "aes-128-ocb3", Impl: implFae, Op: "open", Bytes: 16, CPB: 9},
		{Alg: "aes-128-ctr", Impl: implFae, Op: "seal", Bytes: 16, CPB: 1},
	}}
	got := map[string][]Line{}
	for _, p := range r.Panels() {
		got[p.Title] = p.Lines
	}
	titles := slices.Sorted(maps.Keys(got))
	want := []string{"AES-CTR, the reference", "Krovetz and Rogaway's four modes, AES-128",
		"LEA, beside AES-128-OCB3", "OCB3 and RAOCB, AES-128"}
	if !slices.Equal(titles, want) {
		t.Fatalf("panels %q, want %q", titles, want)
	}
	ocb := got["OCB3 and RAOCB, AES-128"]
	if len(ocb) != 2 || ocb[0].Impl != implFae || ocb[1].Impl != implOpenSSL ||
		!slices.Equal(ocb[0].Bytes, []int{16, 64}) || !slices.Equal(ocb[0].CPB, []float64{4, 2}) {
		t.Errorf("OCB3 panel: %+v", ocb)
	}
	if lea := got["LEA, beside AES-128-OCB3"]; len(lea) != 1 || lea[0].Impl != implFae {
		t.Errorf("LEA panel: %+v", lea)
	}
	if len((&Report{}).Panels()) != 0 {
		t.Error("an empty report has panels")
	}
}

// TestPanelsOfBatches checks that batched seals (--batch) stay out of the
// panels of single messages and make a last panel of their own, each
// beside the same code's single messages, batchFirst's algorithms first,
// within MaxPanelLines.
func TestPanelsOfBatches(t *testing.T) {
	r := new(Report)
	for _, alg := range []string{"aegis-256", "aes-128-gcm", "aes-128-ocb3", "rocca-s"} {
		for _, batch := range []int{0, 8} {
			for _, n := range []int{16, 64} {
				r.Results = append(r.Results, Result{Alg: alg, Impl: implFae, Op: "seal", Bytes: n, Batch: batch, CPB: 1})
			}
		}
	}
	r.Results = append(r.Results, Result{Alg: "aes-128-gcm", Impl: implGo, Op: "seal", Bytes: 16, CPB: 1})
	panels := r.Panels()
	last := panels[len(panels)-1]
	if last.Title != "Batches of 8 messages per call (dashed) beside single messages" {
		t.Fatalf("last panel %q", last.Title)
	}
	var got []string
	for _, l := range last.Lines {
		got = append(got, fmt.Sprintf("%s/%s/%d", l.Alg, l.Impl, l.Batch))
		if !slices.Equal(l.Bytes, []int{16, 64}) {
			t.Errorf("line %s (batch %d): lengths %v", l.Alg, l.Batch, l.Bytes)
		}
	}
	want := []string{"aes-128-ocb3/fae/0", "aes-128-ocb3/fae/8", "aegis-256/fae/0", "aegis-256/fae/8", "aes-128-gcm/fae/0", "aes-128-gcm/fae/8"}
	if !slices.Equal(got, want) {
		t.Errorf("batch panel draws %q, want %q", got, want)
	}
	for _, p := range panels[:len(panels)-1] {
		for _, l := range p.Lines {
			if l.Batch != 0 {
				t.Errorf("panel %q draws a batched line of %s", p.Title, l.Alg)
			}
		}
	}
}
