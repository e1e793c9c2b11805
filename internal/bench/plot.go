package bench

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// WriteDir writes the report into dir, which it creates if need be:
// table.md (the Markdown tables), results.json (the JSON format), and as
// SVG and PNG: cpb (cycles per byte of Seal against message length, one
// line per fae algorithm, AES-CTR dashed, as in Krovetz and Rogaway's
// plots), peers (the same for every implementation of the algorithms that
// have peers: a colour per algorithm, a dash pattern per implementation)
// and ipi (a bar of IPI per algorithm and implementation). A plot with
// nothing to show, such as ipi without the IPI's lengths, is left out.
func (r *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	for _, f := range []struct{ name, format string }{{"table.md", "md"}, {"results.json", "json"}} {
		if err := r.writeFile(filepath.Join(dir, f.name), f.format); err != nil {
			return err
		}
	}
	plots := []struct {
		name string
		make func() (*plot.Plot, *plot.Legend, vg.Length, error)
	}{
		{"cpb", r.cpbPlot},
		{"peers", r.peersPlot},
		{"ipi", r.ipiPlot},
	}
	for _, p := range plots {
		pl, leg, h, err := p.make()
		if err != nil {
			return fmt.Errorf("bench: plot %s: %v", p.name, err)
		}
		if pl == nil {
			continue // nothing to show
		}
		for _, ext := range []string{"svg", "png"} {
			if err := savePlot(pl, leg, h, filepath.Join(dir, p.name+"."+ext), ext); err != nil {
				return fmt.Errorf("bench: plot %s: %v", p.name, err)
			}
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

// palette holds ten colours that stay apart (Tableau 10); series beyond
// ten change their dash pattern too.
var palette = []color.Color{
	color.RGBA{0x4e, 0x79, 0xa7, 0xff}, color.RGBA{0xf2, 0x8e, 0x2b, 0xff},
	color.RGBA{0xe1, 0x57, 0x59, 0xff}, color.RGBA{0x76, 0xb7, 0xb2, 0xff},
	color.RGBA{0x59, 0xa1, 0x4f, 0xff}, color.RGBA{0xed, 0xc9, 0x48, 0xff},
	color.RGBA{0xb0, 0x7a, 0xa1, 0xff}, color.RGBA{0xff, 0x9d, 0xa7, 0xff},
	color.RGBA{0x9c, 0x75, 0x5f, 0xff}, color.RGBA{0xba, 0xb0, 0xac, 0xff},
}

func paletteColor(i int) color.Color { return palette[i%len(palette)] }

// A series is the Seal figures of one implementation of one algorithm.
type series struct {
	alg, impl string
	xys       plotter.XYs
}

// sealSeries returns the series of the results that keep says to, in the
// report's order.
func (r *Report) sealSeries(keep func(alg, impl string) bool) []series {
	var out []series
	for _, res := range r.Results {
		if res.Op != "seal" || !keep(res.Alg, res.Impl) {
			continue
		}
		if n := len(out); n == 0 || out[n-1].alg != res.Alg || out[n-1].impl != res.Impl {
			out = append(out, series{alg: res.Alg, impl: res.Impl})
		}
		s := &out[len(out)-1]
		s.xys = append(s.xys, plotter.XY{X: float64(res.Bytes), Y: res.CPB})
	}
	return out
}

func (r *Report) cpbPlot() (*plot.Plot, *plot.Legend, vg.Length, error) {
	ss := r.sealSeries(func(_, impl string) bool { return impl == implFae })
	style := func(i int, s series) (color.Color, []vg.Length) {
		dashes := plotutil.Dashes(i / len(palette))
		if strings.HasSuffix(s.alg, "-ctr") {
			dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		}
		return paletteColor(i), dashes
	}
	return r.linePlot("Seal, fae's algorithms", ss, false, func(s series) string { return s.alg }, style)
}

func (r *Report) peersPlot() (*plot.Plot, *plot.Legend, vg.Length, error) {
	withPeers := map[string]bool{}
	for _, res := range r.Results {
		if res.Impl != implFae {
			withPeers[res.Alg] = true
		}
	}
	ss := r.sealSeries(func(alg, _ string) bool { return withPeers[alg] })
	var algs []string
	for _, s := range ss {
		if !slices.Contains(algs, s.alg) {
			algs = append(algs, s.alg)
		}
	}
	style := func(_ int, s series) (color.Color, []vg.Length) {
		return paletteColor(slices.Index(algs, s.alg)), plotutil.Dashes(slices.Index(implOrder, s.impl))
	}
	return r.linePlot("Seal, fae and its peers", ss, true, func(s series) string { return s.alg + " (" + s.impl + ")" }, style)
}

// linePlot draws cycles per byte against message length on a log scale.
// With logY the vertical axis is logarithmic too; otherwise it is linear
// and stops above the largest figure at 512 bytes or more, cutting off the
// steep start of the short messages, as Krovetz's plots do.
func (r *Report) linePlot(title string, ss []series, logY bool, label func(series) string,
	style func(int, series) (color.Color, []vg.Length)) (*plot.Plot, *plot.Legend, vg.Length, error) {
	if len(ss) == 0 {
		return nil, nil, 0, nil
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %s, %.2f GHz", title, r.Machine.CPU, r.Machine.GHz)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "message length (bytes)"
	p.Y.Label.Text = "cycles per byte"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = lengthTicks{}
	p.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	bottom, top, bulk := math.Inf(1), 0.0, 0.0
	for i, s := range ss {
		for _, xy := range s.xys {
			bottom, top = min(bottom, xy.Y), max(top, xy.Y)
			if xy.X >= 512 {
				bulk = max(bulk, xy.Y)
			}
		}
		var thumb plot.Thumbnailer
		if len(s.xys) == 1 {
			pts, err := plotter.NewScatter(s.xys)
			if err != nil {
				return nil, nil, 0, err
			}
			pts.Color, _ = style(i, s)
			p.Add(pts)
			thumb = pts
		} else {
			l, err := plotter.NewLine(s.xys)
			if err != nil {
				return nil, nil, 0, err
			}
			l.Color, l.Dashes = style(i, s)
			l.Width = vg.Points(1.5)
			p.Add(l)
			thumb = l
		}
		leg.Add(label(s), thumb)
	}
	switch {
	case logY && bottom > 0:
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Min, p.Y.Max = bottom/1.2, top*1.2
	case bulk > 0:
		p.Y.Min, p.Y.Max = 0, 1.15*bulk
	default:
		p.Y.Min, p.Y.Max = 0, 1.15*top
	}
	return p, &leg, 5 * vg.Inch, nil
}

// lengthTicks marks the powers of 4 on the length axis, labelled as
// sizeLabel writes them.
type lengthTicks struct{}

func (lengthTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for n := 1; float64(n) <= max; n *= 2 {
		if float64(n) < min {
			continue
		}
		t := plot.Tick{Value: float64(n)}
		if bitsLen(n)%2 == 1 {
			t.Label = sizeLabel(n)
		}
		ts = append(ts, t)
	}
	return ts
}

// bitsLen is the position of n's highest set bit, counting from 1.
func bitsLen(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// ipiPlot draws a bar of IPI for every algorithm and implementation,
// fastest at the top, coloured by implementation.
func (r *Report) ipiPlot() (*plot.Plot, *plot.Legend, vg.Length, error) {
	var rows []Summary
	for _, s := range r.Summary {
		if s.IPI != nil {
			rows = append(rows, s)
		}
	}
	if len(rows) == 0 {
		return nil, nil, 0, nil
	}
	// The bar chart draws its first value at the bottom.
	slices.SortStableFunc(rows, func(a, b Summary) int { return cmp.Compare(*b.IPI, *a.IPI) })
	names := make([]string, len(rows))
	for i, s := range rows {
		names[i] = s.Alg + " (" + s.Impl + ")"
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Internet Performance Index of Seal: %s, %.2f GHz", r.Machine.CPU, r.Machine.GHz)
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text = "cycles per byte, packet-weighted (lower is faster)"
	p.Add(plotter.NewGrid())
	leg := plot.NewLegend()
	for i, impl := range implOrder {
		vals := make(plotter.Values, len(rows))
		any := false
		for j, s := range rows {
			if s.Impl == impl {
				vals[j], any = *s.IPI, true
			}
		}
		if !any {
			continue
		}
		bars, err := plotter.NewBarChart(vals, vg.Points(10))
		if err != nil {
			return nil, nil, 0, err
		}
		bars.Horizontal = true
		bars.Color = paletteColor(i)
		bars.LineStyle.Width = 0
		p.Add(bars)
		leg.Add(impl, bars)
	}
	p.NominalY(names...)
	p.X.Min = 0
	return p, &leg, max(5*vg.Inch, vg.Length(len(rows))*vg.Points(16)+vg.Inch), nil
}

// savePlot writes p, h tall, with leg to its right when there is one, as
// an image of the format ext; a long legend makes the image taller.
func savePlot(p *plot.Plot, leg *plot.Legend, h vg.Length, name, ext string) error {
	w := 9 * vg.Inch
	var legW vg.Length
	if leg != nil {
		leg.Top, leg.Left = true, true
		probe, err := draw.NewFormattedCanvas(w, h, ext)
		if err != nil {
			return err
		}
		rect := leg.Rectangle(draw.New(probe))
		legW = rect.Max.X - rect.Min.X + vg.Points(12)
		h = max(h, rect.Max.Y-rect.Min.Y+vg.Inch/2)
		w += legW
	}
	c, err := draw.NewFormattedCanvas(w, h, ext)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	p.Draw(draw.Crop(dc, 0, -legW, 0, 0))
	if leg != nil {
		leg.Draw(draw.Crop(dc, w-legW+vg.Points(6), 0, 0, -vg.Points(30)))
	}
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
