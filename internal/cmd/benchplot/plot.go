package main

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/faelabs/fae/internal/bench"
)

// writePlots writes cpb and ipi, each as SVG and PNG, into dir.
func writePlots(r *bench.Report, dir string) error {
	for _, f := range []struct {
		name string
		draw func(*bench.Report) (*figure, error)
	}{{"cpb", cpbFigure}, {"ipi", ipiFigure}} {
		fig, err := f.draw(r)
		if err != nil {
			return fmt.Errorf("plot %s: %v", f.name, err)
		}
		if fig == nil {
			continue // nothing to show
		}
		for _, ext := range []string{"svg", "png"} {
			if err := fig.save(filepath.Join(dir, f.name+"."+ext), ext); err != nil {
				return fmt.Errorf("plot %s: %v", f.name, err)
			}
		}
	}
	return nil
}

// palette holds colours that stay apart (Tableau 10), one per algorithm
// within a panel; bench.MaxPanelLines keeps a panel within them.
var palette = []color.Color{
	color.RGBA{0x4e, 0x79, 0xa7, 0xff}, color.RGBA{0xf2, 0x8e, 0x2b, 0xff},
	color.RGBA{0xe1, 0x57, 0x59, 0xff}, color.RGBA{0x59, 0xa1, 0x4f, 0xff},
	color.RGBA{0xb0, 0x7a, 0xa1, 0xff}, color.RGBA{0x9c, 0x75, 0x5f, 0xff},
	color.RGBA{0x76, 0xb7, 0xb2, 0xff}, color.RGBA{0xed, 0xc9, 0x48, 0xff},
}

// implStyle is how every panel draws an implementation: solid for fae's
// own code, a dash pattern of its own for each other, and its name in
// the legends.
type implStyle struct {
	name   string
	dashes []vg.Length
}

var implStyles = map[string]implStyle{
	"fae":        {"fae", nil},
	"go":         {"Go", []vg.Length{vg.Points(1.5), vg.Points(2)}},
	"x/crypto":   {"x/crypto", []vg.Length{vg.Points(7), vg.Points(2), vg.Points(1.5), vg.Points(2)}},
	"protonmail": {"ProtonMail", []vg.Length{vg.Points(4), vg.Points(2), vg.Points(1.5), vg.Points(2), vg.Points(1.5), vg.Points(2)}},
	"openssl":    {"OpenSSL", []vg.Length{vg.Points(6), vg.Points(3)}},
}

// batchDashes draws batched seals (bench.Line.Batch), in the panel that
// sets them beside single messages.
var batchDashes = []vg.Length{vg.Points(5), vg.Points(2.5)}

func styleOf(impl string) implStyle {
	if s, ok := implStyles[impl]; ok {
		return s
	}
	return implStyle{impl, []vg.Length{vg.Points(1), vg.Points(1)}}
}

// Sizes of the figures, in points of text and inches of panel.
const (
	panelCols   = 3
	panelWidth  = 3.7 * vg.Inch
	panelHeight = 4.1 * vg.Inch
	titleSize   = 13
	headSize    = 11
	textSize    = 10
)

// A figure is a grid of panels under a title.
type figure struct {
	title  string
	panels [][]*panel // rows, the last one perhaps short
	width  vg.Length
	height vg.Length // of one row
}

// A panel is a plot under its title and legend, which stand above the
// plot, never over its data.
type panel struct {
	title  string
	plot   *plot.Plot
	legend []legendEntry
}

type legendEntry struct {
	label, group string // entries of a group stay in one column if they can
	thumb        plot.Thumbnailer
}

// cpbFigure draws the report's panels as small multiples on shared
// logarithmic axes, so that a line's height means the same in every panel.
func cpbFigure(r *bench.Report) (*figure, error) {
	panels := r.Panels()
	if len(panels) == 0 {
		return nil, nil
	}
	xmin, xmax, ymin, ymax := math.Inf(1), 0.0, math.Inf(1), 0.0
	for _, p := range panels {
		for _, l := range p.Lines {
			for i, n := range l.Bytes {
				xmin, xmax = min(xmin, float64(n)), max(xmax, float64(n))
				ymin, ymax = min(ymin, l.CPB[i]), max(ymax, l.CPB[i])
			}
		}
	}
	if ymin <= 0 {
		return nil, fmt.Errorf("a figure of %v cycles per byte has no place on a logarithmic axis", ymin)
	}
	if xmin == xmax { // one length: widen the axis around it
		xmin, xmax = xmin/2, xmax*2
	}
	fig := &figure{
		title:  fmt.Sprintf("Seal, cycles per byte by message length: %s, %.2f GHz, %s", r.Machine.CPU, r.Machine.GHz, r.Machine.Go),
		width:  panelCols * panelWidth,
		height: panelHeight,
	}
	for i, pn := range panels {
		p := plot.New()
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = lengthTicks{}, decadeTicks{}
		p.X.Min, p.X.Max = xmin, xmax
		p.Y.Min, p.Y.Max = ymin/1.25, ymax*1.25
		setTextSize(p)
		if i+panelCols >= len(panels) { // no panel below
			p.X.Label.Text = "message length (bytes)"
		}
		if i%panelCols == 0 {
			p.Y.Label.Text = "cycles per byte"
		}
		p.Add(plotter.NewGrid())
		tile := &panel{title: pn.Title, plot: p}
		var algs []string
		for _, l := range pn.Lines {
			if !slices.Contains(algs, l.Alg) {
				algs = append(algs, l.Alg)
			}
			xys := make(plotter.XYs, len(l.Bytes))
			for j, n := range l.Bytes {
				xys[j] = plotter.XY{X: float64(n), Y: l.CPB[j]}
			}
			c := palette[slices.Index(algs, l.Alg)%len(palette)]
			st := styleOf(l.Impl)
			label := l.Alg + " (" + st.name + ")"
			if l.Batch > 0 { // beside the same code's single messages, solid
				st.dashes = batchDashes
				label = fmt.Sprintf("%s (%s, %d per call)", l.Alg, st.name, l.Batch)
			}
			if len(xys) == 1 { // OpenSSL in a quick run: one length
				s, err := plotter.NewScatter(xys)
				if err != nil {
					return nil, err
				}
				s.Color, s.Shape, s.Radius = c, draw.CrossGlyph{}, vg.Points(4)
				p.Add(s)
				tile.legend = append(tile.legend, legendEntry{label, l.Alg, s})
				continue
			}
			ln, err := plotter.NewLine(xys)
			if err != nil {
				return nil, err
			}
			ln.Color, ln.Dashes, ln.Width = c, st.dashes, vg.Points(1.6)
			p.Add(ln)
			tile.legend = append(tile.legend, legendEntry{label, l.Alg, ln})
		}
		if i%panelCols == 0 {
			fig.panels = append(fig.panels, nil)
		}
		fig.panels[len(fig.panels)-1] = append(fig.panels[len(fig.panels)-1], tile)
	}
	return fig, nil
}

func setTextSize(p *plot.Plot) {
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Tick.Label.Font.Size = vg.Points(textSize)
		a.Label.TextStyle.Font.Size = vg.Points(textSize)
	}
}

// ipiFigure draws the Internet Performance Index of every row as a dot on
// a logarithmic axis, fastest at the top, coloured by implementation.
func ipiFigure(r *bench.Report) (*figure, error) {
	var rows []bench.Summary
	for _, s := range r.Summary {
		if s.IPI != nil && *s.IPI > 0 {
			rows = append(rows, s)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	// The first row is drawn at the bottom.
	slices.SortStableFunc(rows, func(a, b bench.Summary) int { return cmp.Compare(*b.IPI, *a.IPI) })
	names := make([]string, len(rows))
	lo, hi := math.Inf(1), 0.0
	for i, s := range rows {
		names[i] = s.Alg + " (" + styleOf(s.Impl).name + ")"
		lo, hi = min(lo, *s.IPI), max(hi, *s.IPI)
	}
	p := plot.New()
	p.X.Label.Text = "cycles per byte, packet-weighted: 0.05·cpb(44) + 0.15·cpb(552) + 0.20·cpb(576) + 0.60·cpb(1500)"
	p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, decadeTicks{}
	p.X.Min, p.X.Max = lo/1.25, hi*1.25
	setTextSize(p)
	p.Add(plotter.NewGrid())
	tile := &panel{plot: p}
	for i, impl := range bench.Impls {
		var xys plotter.XYs
		for j, s := range rows {
			if s.Impl == impl {
				xys = append(xys, plotter.XY{X: *s.IPI, Y: float64(j)})
			}
		}
		if len(xys) == 0 {
			continue
		}
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		s.Color, s.Shape, s.Radius = palette[i%len(palette)], draw.CircleGlyph{}, vg.Points(4)
		p.Add(s)
		tile.legend = append(tile.legend, legendEntry{styleOf(impl).name, impl, s})
	}
	p.NominalY(names...)
	return &figure{
		title:  fmt.Sprintf("Internet Performance Index of Seal (lower is faster): %s, %.2f GHz", r.Machine.CPU, r.Machine.GHz),
		panels: [][]*panel{{tile}},
		width:  9 * vg.Inch,
		height: max(4*vg.Inch, vg.Length(len(rows))*vg.Points(15)+vg.Inch),
	}, nil
}

// lengthTicks marks the powers of 2 on the length axis and labels those
// of 4, or all of them on an axis too short for two such labels, as
// bench.SizeLabel writes them.
type lengthTicks struct{}

func (lengthTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	labels := 0
	for n, b := 1, 0; float64(n) <= hi; n, b = n*2, b+1 {
		if float64(n) < lo {
			continue
		}
		t := plot.Tick{Value: float64(n)}
		if b%2 == 0 {
			t.Label = bench.SizeLabel(n)
			labels++
		}
		ts = append(ts, t)
	}
	if labels < 2 {
		for i := range ts {
			ts[i].Label = bench.SizeLabel(int(ts[i].Value))
		}
	}
	return ts
}

// decadeTicks labels 1, 2 and 5 times each power of ten, and marks the
// other multiples, so that a logarithmic axis reads without counting; on
// an axis too short for two such labels, it labels every mark.
type decadeTicks struct{}

func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	labels := 0
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, e)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || m == 2 || m == 5 {
				t.Label = decimal(v, e)
				labels++
			}
			ts = append(ts, t)
		}
	}
	if labels < 2 {
		for i := range ts {
			ts[i].Label = decimal(ts[i].Value, math.Floor(math.Log10(ts[i].Value)))
		}
	}
	return ts
}

// decimal writes v, a multiple of 10^e, with the digits that takes.
func decimal(v, e float64) string {
	return strconv.FormatFloat(v, 'f', max(0, -int(e)), 64)
}

// legendColumns lays entries out in at most cols columns of rows each,
// in order, keeping a group (the implementations of one algorithm) in one
// column where it fits, and reports whether they fit.
func legendColumns(entries []legendEntry, rows, cols int) ([][]legendEntry, bool) {
	var out [][]legendEntry
	for _, group := range groups(entries) {
		n := len(out)
		if n == 0 || len(out[n-1])+len(group) > rows && len(group) <= rows {
			out = append(out, nil) // a fresh column for the group
			n++
		}
		for _, e := range group {
			if len(out[n-1]) == rows {
				out = append(out, nil)
				n++
			}
			out[n-1] = append(out[n-1], e)
		}
	}
	return out, len(out) <= cols
}

// legendRows returns the fewest rows, no fewer than the largest group, in
// which legendColumns fits entries into cols columns.
func legendRows(entries []legendEntry, cols int) int {
	rows := (len(entries) + cols - 1) / cols
	for _, g := range groups(entries) {
		rows = max(rows, len(g))
	}
	for _, ok := legendColumns(entries, rows, cols); !ok; _, ok = legendColumns(entries, rows, cols) {
		rows++
	}
	return rows
}

// groups splits entries into runs of the same group.
func groups(entries []legendEntry) [][]legendEntry {
	var out [][]legendEntry
	for i, e := range entries {
		if i == 0 || e.group != entries[i-1].group {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], e)
	}
	return out
}

// save writes the figure as an image of the format ext, its panels
// aligned in a grid so that their axes line up. Each panel's title and
// legend take a band above its plot, as tall in every panel; the legend
// runs in two columns where its entries fit.
func (f *figure) save(name, ext string) error {
	cols := len(f.panels[0])
	text := func(size float64) draw.TextStyle {
		return draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, vg.Points(size)),
			Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YTop}
	}
	head := text(headSize)
	newLegend := func() plot.Legend {
		leg := plot.NewLegend()
		leg.Top, leg.Left = true, true
		leg.TextStyle.Font.Size = vg.Points(textSize)
		leg.ThumbnailWidth = vg.Points(24)
		leg.Padding = vg.Points(1.5)
		return leg
	}
	const gap = 10 // points between legend columns
	// The widest and tallest entry, as plot.Legend measures them.
	var entryW, entryH vg.Length
	for _, row := range f.panels {
		for _, p := range row {
			leg := newLegend()
			for _, e := range p.legend {
				r := leg.TextStyle.Rectangle(" " + e.label)
				entryW, entryH = max(entryW, leg.ThumbnailWidth+r.Max.X), max(entryH, r.Max.Y+leg.Padding)
			}
		}
	}
	// As many columns as fit beside one another over a plot's data.
	legCols := max(1, int((f.width/vg.Length(cols)-vg.Points(48)+vg.Points(gap))/(entryW+vg.Points(gap))))
	legRows := 0
	for _, row := range f.panels {
		for _, p := range row {
			legRows = max(legRows, legendRows(p.legend, legCols))
		}
	}
	headH := vg.Length(0)
	if f.panels[0][0].title != "" {
		headH = head.Height("Mg") * 1.5
	}
	band := headH + vg.Length(legRows)*entryH
	if legRows > 0 {
		band += vg.Points(8)
	}

	titleH := vg.Points(2.5 * titleSize)
	h := titleH + vg.Length(len(f.panels))*f.height
	c, err := draw.NewFormattedCanvas(f.width, h, ext)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	dc.FillText(text(titleSize), vg.Point{X: f.width / 2, Y: h - vg.Points(0.6*titleSize)}, f.title)

	grid := make([][]*plot.Plot, len(f.panels))
	for i, row := range f.panels {
		grid[i] = make([]*plot.Plot, cols)
		for j, p := range row {
			grid[i][j] = p.plot
		}
	}
	tiles := draw.Tiles{Rows: len(grid), Cols: cols, PadTop: titleH, PadX: vg.Points(14), PadY: vg.Points(14),
		PadLeft: vg.Points(6), PadRight: vg.Points(10), PadBottom: vg.Points(6)}
	canvases := plot.Align(grid, tiles, dc)
	for i, row := range f.panels {
		for j, p := range row {
			pc := draw.Crop(canvases[i][j], 0, 0, 0, -band)
			p.plot.Draw(pc)
			data := p.plot.DataCanvas(pc)
			// The title sits on the legend, and the legend on the
			// plot: a short legend leaves its room above the title.
			columns, _ := legendColumns(p.legend, legRows, legCols)
			rows := 0
			for _, col := range columns {
				rows = max(rows, len(col))
			}
			top := data.Max.Y + band - vg.Length(legRows-rows)*entryH
			dc.FillText(head, vg.Point{X: (data.Min.X + data.Max.X) / 2, Y: top}, p.title)
			for k, col := range columns {
				leg := newLegend()
				for _, e := range col {
					leg.Add(e.label, e.thumb)
				}
				x := data.Min.X + vg.Length(k)*(entryW+vg.Points(gap))
				leg.Draw(draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
					Min: vg.Point{X: x, Y: data.Max.Y}, Max: vg.Point{X: x + entryW, Y: top - headH}}})
			}
		}
	}
	out, err := os.Create(name)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
