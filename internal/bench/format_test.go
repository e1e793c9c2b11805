package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleReport is a small report made up for the format tests.
func sampleReport() *Report {
	all := map[int]float64{44: 10, 552: 2, 576: 1.5, 1500: 1, 4096: 0.5, 16384: 0.4}
	var rs []Result
	rs = append(rs, sealRow("aes-128-ctr", implFae, map[int]float64{44: 5, 552: 1, 576: 1, 1500: 0.5, 4096: 0.2, 16384: 0.2}, 3.6)...)
	rs = append(rs, sealRow("aes-128-ocb3", implFae, all, 3.6)...)
	rs = append(rs, sealRow("aes-128-ocb3", implOpenSSL, map[int]float64{4096: 0.6, 16384: 0.5}, 3.6)...)
	for _, r := range sealRow("aes-128-ocb3", implFae, all, 3.6) {
		r.Op = "open"
		rs = append(rs, r)
	}
	for i := range rs {
		if rs[i].Impl != implOpenSSL {
			rs[i].Spread = ptr(0.01 * float64(i))
		}
	}
	sortResults(rs)
	ex := map[rowKey]extras{{"aes-128-ocb3", implFae}: {contextBytes: ptr(352), initCycles: ptr(310.0)}}
	return &Report{
		Machine: Machine{CPU: "Test CPU", GHz: 3.6, Go: "go1.26.8", Cores: 2},
		Results: rs,
		Summary: summarize(rs, ex, map[string]string{"aes-128-ocb3": "aes-128-ctr", "aes-128-ctr": "aes-128-ctr"}),
		Trials:  7,
		Notes:   []string{"a note"},
	}
}

func TestFormats(t *testing.T) {
	r := sampleReport()
	out := map[string]string{}
	for _, f := range Formats {
		var b bytes.Buffer
		if err := r.Write(&b, f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[f] = b.String()
	}
	if err := r.Write(new(bytes.Buffer), "xml"); err == nil {
		t.Error("format xml accepted")
	}

	var back Report
	if err := json.Unmarshal([]byte(out["json"]), &back); err != nil {
		t.Errorf("json: %v", err)
	} else if len(back.Results) != len(r.Results) || len(back.Summary) != len(r.Summary) || back.Machine != r.Machine {
		t.Errorf("json does not round-trip: %+v", back)
	}

	recs, err := csv.NewReader(strings.NewReader(out["csv"])).ReadAll()
	if err != nil {
		t.Fatalf("csv: %v", err)
	}
	if strings.Join(recs[0], ",") != "alg,impl,op,bytes,cpb,gbps,spread" || len(recs) != len(r.Results)+1 {
		t.Errorf("csv: header %v, %d records for %d results", recs[0], len(recs)-1, len(r.Results))
	}
	for _, rec := range recs[1:] {
		if (rec[6] == "") != (rec[1] == implOpenSSL) {
			t.Errorf("csv: spread %q for %s", rec[6], rec[1])
		}
	}

	for _, want := range []string{"Test CPU", "3.60 GHz", "aes-128-ocb3", "0.300", "1.70", "352", "310", "1.25x", "a note"} {
		if !strings.Contains(out["text"], want) {
			t.Errorf("text lacks %q:\n%s", want, out["text"])
		}
	}
	// Markdown tables: every table line has as many cells as its header.
	cells := -1
	for _, line := range strings.Split(out["md"], "\n") {
		if !strings.HasPrefix(line, "|") {
			cells = -1
			continue
		}
		n := strings.Count(line, "|")
		if cells < 0 {
			cells = n
		} else if n != cells {
			t.Errorf("md: %q has %d bars, the header %d", line, n, cells)
		}
	}
	if !strings.Contains(out["md"], "|--") {
		t.Error("md has no table")
	}
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := sampleReport()
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ name, format string }{{"table.md", "md"}, {"results.json", "json"}} {
		got, err := os.ReadFile(filepath.Join(dir, f.name))
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := r.Write(&want, f.format); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s is not the %s format", f.name, f.format)
		}
	}
}
