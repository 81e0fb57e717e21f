// Package benchplot draws benchmark results as SVG charts: grouped bars,
// one group per workload and size, one bar per implementation (nugo,
// Numba, CUDA C ...), in two panels, kernel time and throughput, each on
// a logarithmic scale when the values span more than a factor of 30. It
// draws with gonum/plot; nugo bench -plot, nugo plot (gpu-check's chart)
// and bench/cpu use it.
package benchplot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Bar is one implementation's measurement of one workload.
type Bar struct {
	Group    string  // the workload and its size, as the x axis shows it: "primes 10⁶"
	Impl     string  // the implementation: "nugo", "Numba", "CUDA C"
	Seconds  float64 // the kernel's time
	Elements float64 // the results it computes, for the throughput (0: no throughput bar)
}

// Chart is what a chart shows besides its bars.
type Chart struct {
	Title    string // the first line: what was measured
	Subtitle string // the second: the machine, the date, the command
}

// colors are the implementations' colors, in order of first appearance.
var colors = []color.RGBA{
	{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, // blue
	{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, // orange
	{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, // green
	{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, // red
	{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, // purple
}

// Write draws bars as an SVG of width × height points into w.
func (c Chart) Write(w io.Writer, bars []Bar, width, height vg.Length) error {
	var groups, impls []string
	for _, b := range bars {
		if b.Seconds <= 0 || math.IsNaN(b.Seconds) || math.IsInf(b.Seconds, 0) {
			return fmt.Errorf("benchplot: %s on %s: time %v; want a positive time", b.Impl, b.Group, b.Seconds)
		}
		if !slices.Contains(groups, b.Group) {
			groups = append(groups, b.Group)
		}
		if !slices.Contains(impls, b.Impl) {
			impls = append(impls, b.Impl)
		}
	}
	if len(groups) == 0 {
		return errors.New("benchplot: no results to draw")
	}
	timePanel, err := panel(groups, impls, bars, "kernel time: lower is better", "s", func(b Bar) float64 { return b.Seconds })
	if err != nil {
		return err
	}
	panels := []*plot.Plot{timePanel}
	if slices.ContainsFunc(bars, func(b Bar) bool { return b.Elements > 0 }) {
		tp, err := panel(groups, impls, bars, "throughput (results per second): higher is better", "/s", func(b Bar) float64 {
			if b.Elements <= 0 {
				return 0
			}
			return b.Elements / b.Seconds
		})
		if err != nil {
			return err
		}
		panels = append(panels, tp)
	}
	timePanel.Title.Text = c.Title + "\n"
	if c.Subtitle != "" {
		timePanel.Title.Text += c.Subtitle + "\n"
	}
	timePanel.Title.Text += "kernel time: lower is better"
	for _, p := range panels[1:] {
		p.Legend = plot.NewLegend() // one legend, in the first panel
	}

	canvas := vgsvg.New(width, height)
	dc := draw.New(canvas)
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 2 * vg.Millimeter}
	grid := make([][]*plot.Plot, len(panels))
	for i, p := range panels {
		grid[i] = []*plot.Plot{p}
	}
	for i, row := range plot.Align(grid, tiles, dc) {
		panels[i].Draw(row[0])
	}
	var buf bytes.Buffer
	if _, err := canvas.WriteTo(&buf); err != nil {
		return fmt.Errorf("benchplot: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// panel is one grouped bar chart of value(b), on a log scale (bars drawn
// as the logarithm above the lowest decade, labelled in the values' units)
// when the values span more than a factor of 30.
func panel(groups, impls []string, bars []Bar, label, unit string, value func(Bar) float64) (*plot.Plot, error) {
	lo, hi := math.Inf(1), 0.0
	for _, b := range bars {
		if v := value(b); v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	p := plot.New()
	p.Title.Text = label
	p.NominalX(groups...)
	p.X.Min, p.X.Max = -0.6, float64(len(groups))-0.4
	// Top left, thumbnails before names: a renderer whose font is wider
	// than gonum/plot measured makes names run right, not into the bars'
	// colors.
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = 2 * vg.Millimeter
	logScale := hi/lo > 30
	floor := 0.0
	p.Y.Min = 0
	if logScale {
		floor = math.Floor(math.Log10(lo))
		top := math.Ceil(math.Log10(hi))
		p.Y.Tick.Marker = decades{floor: floor, top: top, unit: unit}
		p.Y.Max = top - floor + 0.6 // room for the legend above the bars
		p.Y.Label.Text = "log scale"
	} else {
		p.Y.Tick.Marker = siTicks{unit: unit}
		p.Y.Max = hi * 1.25
	}
	barWidth := vg.Points(min(14, 200/float64(len(groups)*len(impls))))
	for k, impl := range impls {
		values := make(plotter.Values, len(groups))
		for _, b := range bars {
			if b.Impl != impl {
				continue
			}
			v := value(b)
			if v <= 0 {
				continue
			}
			if logScale {
				v = math.Log10(v) - floor + 0.05 // the lowest decade's bar stays visible
			}
			values[slices.Index(groups, b.Group)] = v
		}
		bc, err := plotter.NewBarChart(values, barWidth)
		if err != nil {
			return nil, fmt.Errorf("benchplot: %w", err)
		}
		bc.Color = colors[k%len(colors)]
		bc.LineStyle.Width = 0
		bc.Offset = barWidth * vg.Length(float64(k)-float64(len(impls)-1)/2)
		p.Add(bc)
		p.Legend.Add(impl, bc)
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// decades labels a log-space axis at each power of ten.
type decades struct {
	floor, top float64
	unit       string
}

// Ticks implements plot.Ticker.
func (d decades) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	for e := d.floor; e <= d.top+0.5; e++ {
		ticks = append(ticks, plot.Tick{Value: e - d.floor, Label: si(math.Pow(10, e)) + d.unit})
	}
	return ticks
}

// siTicks labels a linear axis with SI prefixes.
type siTicks struct{ unit string }

// Ticks implements plot.Ticker.
func (s siTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = si(ticks[i].Value) + s.unit
		}
	}
	return ticks
}

// si writes v with an SI prefix: 1.5 m, 20 µ, 3 G.
func si(v float64) string {
	if v == 0 {
		return "0 "
	}
	prefixes := []struct {
		scale float64
		p     string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}, {1e-3, "m"}, {1e-6, "µ"}, {1e-9, "n"}}
	for _, p := range prefixes {
		if math.Abs(v) >= p.scale*0.999 {
			return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.3g", v/p.scale), ".0"), ".00") + " " + p.p
		}
	}
	return fmt.Sprintf("%.3g ", v)
}

// ImplNames maps the implementations' names in result files to the
// chart's.
var ImplNames = map[string]string{"nugo": "nugo", "numba": "Numba", "cuda": "CUDA C"}

// FromJSONLines reads bench/gpu's JSON lines (nugo bench -json, bench/numba,
// bench/cuda, gpu-check's results.jsonl): one bar per line with a kernel
// time, the lines that report errors skipped and counted. The
// device-to-device copy (d2d) is a reference, not a workload, and left out.
func FromJSONLines(r io.Reader) (bars []Bar, errorLines int, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, 0, err
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var rec struct {
			Impl     string   `json:"impl"`
			Workload string   `json:"workload"`
			N        int      `json:"n"`
			KernelMS *float64 `json:"kernel_ms"`
			Error    string   `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, errorLines, fmt.Errorf("line %d: %w", i+1, err)
		}
		if rec.Error != "" || rec.KernelMS == nil || *rec.KernelMS <= 0 {
			errorLines++
			continue
		}
		if rec.Workload == "d2d" {
			continue
		}
		name := ImplNames[rec.Impl]
		if name == "" {
			name = rec.Impl
		}
		elements := float64(rec.N)
		if rec.Workload == "logs" {
			elements *= elements // an n×n array
		}
		bars = append(bars, Bar{Group: GroupName(rec.Workload, rec.N), Impl: name, Seconds: *rec.KernelMS / 1e3, Elements: elements})
	}
	return bars, errorLines, nil
}

// GroupName writes a workload and its size for the x axis: "primes 10⁷",
// "logs 10⁴×10⁴" for an n×n array, "vecadd 3000".
func GroupName(workload string, n int) string {
	size := fmt.Sprint(n)
	if e := math.Log10(float64(n)); n > 0 && e == math.Trunc(e) && e >= 3 {
		size = "10" + superscript(int(e))
	}
	if workload == "logs" {
		size += "×" + size // an n×n array
	}
	return workload + " " + size
}

func superscript(n int) string {
	const digits = "⁰¹²³⁴⁵⁶⁷⁸⁹"
	var b strings.Builder
	for _, c := range fmt.Sprint(n) {
		b.WriteString(string([]rune(digits)[c-'0']))
	}
	return b.String()
}
