package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Formats are the names Write accepts.
var Formats = []string{"text", "md", "csv", "json"}

// Write writes the report in one of Formats: "text", aligned tables for a
// terminal; "md", the same tables in Markdown; "csv", one line per Result;
// "json", the Report itself. Batched figures (--batch) are rows of their
// own ("seal x64"), a column of the summary (the batched IPI) and of the
// CSV.
func (r *Report) Write(w io.Writer, format string) error {
	switch format {
	case "text":
		return r.writeTables(w, false)
	case "md":
		return r.writeTables(w, true)
	case "csv":
		return r.writeCSV(w)
	case "json":
		e := json.NewEncoder(w)
		e.SetIndent("", "  ")
		return e.Encode(r)
	}
	return fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(Formats, ", "))
}

// noisy is the spread above which the tables mark a figure with '*'.
const noisy = 0.10

// WriteDir writes the report into dir, which it creates if need be:
// table.md, the Markdown tables, and results.json, the JSON format, from
// which internal/cmd/benchplot draws the plots.
func (r *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	for _, f := range []struct{ name, format string }{{"table.md", "md"}, {"results.json", "json"}} {
		if err := r.writeFile(filepath.Join(dir, f.name), f.format); err != nil {
			return err
		}
	}
	return nil
}

func (r *Report) writeFile(name, format string) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := r.Write(f, format); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (r *Report) writeTables(w io.Writer, md bool) error {
	m := r.Machine
	ad := "no associated data"
	if r.ADBytes > 0 {
		ad = fmt.Sprintf("%d bytes of associated data", r.ADBytes)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fae bench: %s, %d cores, core clock %.2f GHz (calibrated), %s\n", m.CPU, m.Cores, m.GHz, m.Go)
	if md {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Messages with %s; each figure is the median of %d trials. Summary figures are for Seal; "+
		"overhead is over fae's AES-CTR with the same key size; \"vs\" columns are a peer's cycles per byte "+
		"at 16 KiB divided by fae's (above 1: fae is faster).", ad, r.Trials)
	if n := r.batch(); n > 0 {
		fmt.Fprintf(&b, " Rows \"seal x%[1]d\" and \"open x%[1]d\", and the column \"IPI x%[1]d\", are of "+
			"SealBatch and OpenBatch on %[1]d messages of each length per call. \"IPI mixed\" is of %[1]d messages "+
			"of the IPI's lengths shuffled, as many of each as split their bytes as its weights, sealed one "+
			"at a time, \"IPI mixed x%[1]d\" of the same in one SealBatch call.", n)
	}
	b.WriteString("\n\n")
	r.summaryTable().write(&b, md)
	b.WriteString("\n")
	t, all := r.resultTable()
	title := "Cycles per byte by message length"
	if !all {
		title += " (some lengths; the JSON and CSV formats have all)"
	}
	fmt.Fprintf(&b, "%s; * marks a spread (max-min)/median over %.0f%%:\n\n", title, 100*noisy)
	t.write(&b, md)
	if len(r.Notes) > 0 {
		b.WriteString("\nNotes:\n")
		if md {
			b.WriteString("\n")
		}
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) summaryTable() *table {
	var vs []string
	for _, impl := range Impls {
		for _, s := range r.Summary {
			if _, ok := s.Speedup16384[impl]; ok && !slices.Contains(vs, impl) {
				vs = append(vs, impl)
			}
		}
	}
	batch := r.batch()
	t := &table{left: 2, header: []string{"algorithm", "impl", "cpb 4096", "overhead", "IPI", "cpb 16384", "GB/s 4096", "context bytes", "key setup cycles"}}
	if batch > 0 {
		t.header = slices.Insert(t.header, 5, fmt.Sprintf("IPI x%d", batch), "IPI mixed", fmt.Sprintf("IPI mixed x%d", batch))
	}
	for _, impl := range vs {
		t.header = append(t.header, "vs "+impl)
	}
	for _, s := range r.Summary {
		row := []string{s.Alg, s.Impl, optCPB(s.CPB4096), optCPB(s.Overhead4096), optCPB(s.IPI), optCPB(s.CPB16384),
			optCPB(s.GBps4096), "-", "-"}
		if s.ContextBytes != nil {
			row[7] = strconv.Itoa(*s.ContextBytes)
		}
		if s.InitCycles != nil {
			row[8] = strconv.FormatFloat(*s.InitCycles, 'f', 0, 64)
		}
		if batch > 0 {
			row = slices.Insert(row, 5, optCPB(s.IPIBatch), optCPB(s.IPIMixed), optCPB(s.IPIMixedBatch))
		}
		for _, impl := range vs {
			if x, ok := s.Speedup16384[impl]; ok {
				row = append(row, strconv.FormatFloat(x, 'f', 2, 64)+"x")
			} else {
				row = append(row, "")
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// batch returns the messages per call of r's batched figures (--batch), 0
// when it has none.
func (r *Report) batch() int {
	for _, res := range r.Results {
		if res.Batch > 0 {
			return res.Batch
		}
	}
	return 0
}

// maxColumns is the most lengths the table of results shows; with more
// (--full), it shows defaultSizes.
const maxColumns = 24

// resultTable returns the cycles per byte of every result, one row per
// algorithm, implementation and operation, and whether it shows every
// length.
func (r *Report) resultTable() (*table, bool) {
	var sizes []int
	for _, res := range r.Results {
		if !slices.Contains(sizes, res.Bytes) {
			sizes = append(sizes, res.Bytes)
		}
	}
	slices.Sort(sizes)
	all := len(sizes) <= maxColumns
	if !all {
		sizes = slices.DeleteFunc(sizes, func(n int) bool { return !slices.Contains(defaultSizes, n) })
	}
	t := &table{left: 3, header: []string{"algorithm", "impl", "op"}}
	for _, n := range sizes {
		t.header = append(t.header, SizeLabel(n))
	}
	var row []string
	var last [3]string
	for _, res := range r.Results {
		op := res.Op
		if res.Batch > 0 {
			op += " x" + strconv.Itoa(res.Batch)
		}
		if k := [3]string{res.Alg, res.Impl, op}; k != last {
			last = k
			row = append([]string{res.Alg, res.Impl, op}, slices.Repeat([]string{"-"}, len(sizes))...)
			t.rows = append(t.rows, row)
		}
		if i := slices.Index(sizes, res.Bytes); i >= 0 {
			cell := formatCPB(res.CPB)
			if res.Spread != nil && *res.Spread > noisy {
				cell += "*"
			}
			row[3+i] = cell
		}
	}
	return t, all
}

// SizeLabel writes a length as the tables and plots do: 1500, 4K.
func SizeLabel(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return strconv.Itoa(n/1024) + "K"
	}
	return strconv.Itoa(n)
}

// formatCPB writes a figure with about three significant digits.
func formatCPB(x float64) string {
	a := x
	if a < 0 {
		a = -a
	}
	switch {
	case a < 1:
		return strconv.FormatFloat(x, 'f', 3, 64)
	case a < 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case a < 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

func optCPB(x *float64) string {
	if x == nil {
		return "-"
	}
	return formatCPB(*x)
}

// A table is rendered as aligned text or as Markdown; its first left
// columns are text, aligned left, the others numbers, aligned right.
type table struct {
	header []string
	rows   [][]string
	left   int
}

func (t *table) write(b *strings.Builder, md bool) {
	width := make([]int, len(t.header))
	for _, row := range append([][]string{t.header}, t.rows...) {
		for i, c := range row {
			width[i] = max(width[i], len(c))
		}
	}
	line := func(row []string) {
		for i, c := range row {
			pad := strings.Repeat(" ", width[i]-len(c))
			switch {
			case md:
				b.WriteString("| ")
			case i > 0:
				b.WriteString("  ")
			}
			if i < t.left {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
			if md {
				b.WriteString(" ")
			}
		}
		if md {
			b.WriteString("|")
		}
		b.WriteString("\n")
	}
	line(t.header)
	if md {
		for i, w := range width {
			if i < t.left {
				b.WriteString("|:" + strings.Repeat("-", w+1))
			} else {
				b.WriteString("|" + strings.Repeat("-", w+1) + ":")
			}
		}
		b.WriteString("|\n")
	}
	for _, row := range t.rows {
		line(row)
	}
}

func (r *Report) writeCSV(w io.Writer) error {
	// The batch column, messages per call (empty for single messages),
	// is there when some figure is of batches.
	batched := r.batch() > 0
	cw := csv.NewWriter(w)
	header := []string{"alg", "impl", "op", "bytes", "cpb", "gbps", "spread"}
	if batched {
		header = append(header, "batch")
	}
	cw.Write(header)
	for _, res := range r.Results {
		spread := ""
		if res.Spread != nil {
			spread = strconv.FormatFloat(*res.Spread, 'g', -1, 64)
		}
		line := []string{res.Alg, res.Impl, res.Op, strconv.Itoa(res.Bytes),
			strconv.FormatFloat(res.CPB, 'g', -1, 64), strconv.FormatFloat(res.GBps, 'g', -1, 64), spread}
		if batched {
			b := ""
			if res.Batch > 0 {
				b = strconv.Itoa(res.Batch)
			}
			line = append(line, b)
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}
