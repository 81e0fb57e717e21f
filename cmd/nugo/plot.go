package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/nugo-dev/nugo/internal/benchplot"
	"github.com/nugo-dev/nugo/internal/genfile"
)

func init() {
	commands["plot"] = command{summary: "draw benchmark results (JSON lines of nugo, Numba, CUDA C) as an SVG bar chart", run: runPlot}
}

// runPlot implements `nugo plot [-o FILE.svg] [-title T] RESULTS.jsonl`.
func runPlot(args []string) error {
	fs := flag.NewFlagSet("plot", flag.ContinueOnError)
	out := fs.String("o", "chart.svg", "the SVG `FILE` to write")
	title := fs.String("title", "kernel time and throughput", "the chart's title")
	subtitle := fs.String("subtitle", "", "the line under the title (default: this machine and the date)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: nugo plot [-o FILE.svg] [-title T] [-subtitle S] RESULTS.jsonl

Draws the JSON lines that nugo bench -json, bench/gpu, bench/numba and
bench/cuda print (scripts/gpu-check.sh collects them in results.jsonl) as a
grouped bar chart: one group per workload and size, one bar per
implementation, kernel time and throughput on logarithmic axes where the
values span more than a factor of 30. Lines that report an error are
left out and counted.

`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("want one results file, got %d arguments", fs.NArg())
	}
	f, err := os.Open(fs.Arg(0))
	if err != nil {
		return err
	}
	defer f.Close()
	bars, errorLines, err := benchplot.FromJSONLines(f)
	if err != nil {
		return fmt.Errorf("%s: %w", fs.Arg(0), err)
	}
	if len(bars) == 0 {
		return fmt.Errorf("%s: no results with a kernel time (%d lines report errors)", fs.Arg(0), errorLines)
	}
	sub := *subtitle
	if sub == "" {
		sub = machineLine()
	}
	if err := writeChart(*out, benchplot.Chart{Title: *title, Subtitle: sub}, bars); err != nil {
		return err
	}
	fmt.Printf("%s: %d results drawn, %d lines with errors left out\n", *out, len(bars), errorLines)
	return nil
}

// writeChart draws bars into path, atomically (an interrupted write leaves
// no chart that looks complete).
func writeChart(path string, c benchplot.Chart, bars []benchplot.Bar) error {
	var buf bytes.Buffer
	if err := c.Write(&buf, bars, 9*vg.Inch, 7*vg.Inch); err != nil {
		return err
	}
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// An empty header: any file of that name is the user's to replace.
	if _, err := genfile.Write(dir, name, "", buf.Bytes()); err != nil {
		return fmt.Errorf("writing the chart: %w", err)
	}
	return nil
}

// machineLine names the machine and the day, for a chart's subtitle.
func machineLine() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s, %d CPUs, %s/%s, %s", host, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, time.Now().UTC().Format("2006-01-02"))
}
