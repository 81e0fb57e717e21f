package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/benchplot"
	"github.com/nugo-dev/nugo/internal/workloads"
)

func init() {
	commands["bench"] = command{summary: "run the benchmark workloads on a backend and print their timings", run: runBench}
}

// benchSizes are nugo bench's default sizes in elements: a few seconds for
// every workload together on the CPU backend of a small machine. On ptxsim,
// an interpreter, they are divided by ptxsimShrink.
var benchSizes = map[string]int{
	"primes": 100_000, "vecadd": 1_000_000, "logs": 1_000_000, "coalesced": 1_000_000,
	"permuted": 1_000_000, "movingavg": 100_000, "d2d": 1_000_000,
}

const ptxsimShrink = 100

const benchUsage = `usage: nugo bench [-backend auto|cpu|gpu|ptxsim] [-workload LIST] [-n N] [-reps R] [-width W] [-json] [-plot FILE.svg]

Runs nugo's benchmark workloads (those of bench/gpu, which scripts/gpu-check.sh
runs against Numba and CUDA C) one after another in this process and prints a
table: the kernel time (median of -reps launches timed by events after a
first launch and two warm-ups), the first launch (compile, load, launch,
wait), the host time of a launch call, throughput, and effective bandwidth
for the memory-bound workloads. Every output is summed into a checksum and
sampled against the same formula computed on the host; a mismatch fails the
command.

Workloads: primes (sum of prime factors of 2..N), vecadd (float32 c = a+b),
logs (log10 over an N-element square float64 array), coalesced and permuted
(float64 writes in order and through a permutation), movingavg (float64,
window -width), d2d (device-to-device copy of N float64).

Sizes: by default 10^6 elements (primes and movingavg 10^5), a hundredth of
that on ptxsim. gpu-check's sizes on a GPU are -n 100000000 (primes also 10^6
and 10^7, movingavg 10^7; logs 10000x10000).

-plot FILE.svg also draws the results as a bar chart (kernel time and
throughput per workload); nugo plot draws one from JSON lines of several
implementations (gpu-check's nugo, Numba and CUDA C).

`

func runBench(args []string) error { return bench(os.Stdout, args) }

// bench implements nugo bench, writing its table or JSON lines to w.
func bench(w io.Writer, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	backend := fs.String("backend", "", "auto, cpu, gpu or ptxsim (default: NUGO_BACKEND, else auto)")
	list := fs.String("workload", "all", "comma-separated `LIST` of workloads: "+strings.Join(workloads.Names, ", "))
	n := fs.Int("n", 0, "elements per workload (primes: the last number; logs: a √N×√N array); 0: the defaults")
	reps := fs.Int("reps", 20, "timed launches per workload, after a first launch and two warm-ups")
	width := fs.Int("width", workloads.DefaultWidth, "movingavg's window")
	asJSON := fs.Bool("json", false, "print one JSON line per workload (bench/gpu's schema) instead of the table")
	plotFile := fs.String("plot", "", "also draw the results as an SVG bar chart into `FILE.svg`")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), benchUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	names, err := workloads.Lookup(*list)
	if err != nil {
		return fmt.Errorf("-workload: %w", err)
	}
	if *n < 0 || (*n == 1 && contains(names, "primes")) {
		return fmt.Errorf("-n %d: at least %d elements", *n, 1+b2i(contains(names, "primes")))
	}
	if *reps < 1 {
		return fmt.Errorf("-reps %d: at least one timed launch", *reps)
	}
	if *width < 1 {
		return fmt.Errorf("-width %d: the window must be at least 1", *width)
	}
	if *backend != "" {
		if err := cuda.SetBackend(cuda.Backend(*backend)); err != nil {
			return err
		}
	}
	be, err := cuda.CurrentBackend()
	if err != nil {
		return err
	}

	var rows []benchRow
	var failed []string
	for _, name := range names {
		cfg := workloads.Config{Workload: name, N: benchSize(name, *n, be), Width: *width, Reps: *reps}
		r, err := workloads.Run(cfg)
		row := benchRow{Result: r, err: err}
		switch {
		case err != nil:
			failed = append(failed, fmt.Sprintf("%s: %v", name, err))
		case r.Mismatch != "":
			failed = append(failed, fmt.Sprintf("%s: output differs from the host reference: %s", name, r.Mismatch))
		}
		if *asJSON {
			if err := writeJSON(w, row); err != nil {
				return err
			}
		}
		rows = append(rows, row)
	}
	if !*asJSON {
		if err := writeBenchTable(w, be, *reps, rows); err != nil {
			return err
		}
	}
	if *plotFile != "" {
		var bars []benchplot.Bar
		for _, r := range rows {
			if r.err == nil && r.Mismatch == "" && r.KernelMS > 0 && r.Workload != "d2d" {
				bars = append(bars, benchplot.Bar{Group: benchplot.GroupName(r.Workload, r.N), Impl: "nugo (" + string(be) + ")",
					Seconds: r.KernelMS / 1e3, Elements: r.Elements})
			}
		}
		chart := benchplot.Chart{Title: fmt.Sprintf("nugo bench on the %s backend", be), Subtitle: machineLine()}
		if err := writeChart(*plotFile, chart, bars); err != nil {
			return err
		}
	}
	return benchError(failed, len(names))
}

// benchError is nugo bench's result when some of total workloads failed:
// the table or the JSON lines already show each failure, so it names the
// first.
func benchError(failed []string, total int) error {
	switch len(failed) {
	case 0:
		return nil
	case 1:
		return errors.New(failed[0])
	}
	return fmt.Errorf("%d of %d workloads failed; the first: %s", len(failed), total, failed[0])
}

// benchRow is one workload's outcome: its result, or the error that stopped it.
type benchRow struct {
	workloads.Result
	err error
}

// benchSize is the workload's size parameter for -n elements (0: the
// default for the backend).
func benchSize(name string, n int, be cuda.Backend) int {
	if n == 0 {
		n = benchSizes[name]
		if be == cuda.PTXSim {
			n /= ptxsimShrink
		}
	}
	if name == "logs" {
		return max(1, int(math.Sqrt(float64(n))))
	}
	return n
}

// writeJSON prints a row as bench/gpu does: the Result's line, or for a
// failed run the line gpu-check writes for a failed process (the workload,
// its size and the error), which bench/gpu/table.py lists as an error.
func writeJSON(w io.Writer, row benchRow) error {
	enc := json.NewEncoder(w)
	if row.err != nil {
		return enc.Encode(map[string]any{"impl": "nugo", "workload": row.Workload, "n": row.N, "error": row.err.Error()})
	}
	if row.Mismatch != "" {
		return enc.Encode(map[string]any{"impl": "nugo", "workload": row.Workload, "n": row.N,
			"error": "output differs from the host reference: " + row.Mismatch})
	}
	return enc.Encode(row.Result)
}

// writeBenchTable prints the aligned table of rows.
func writeBenchTable(w io.Writer, be cuda.Backend, reps int, rows []benchRow) error {
	fmt.Fprintf(w, "backend %s, GOMAXPROCS %d, kernel time = median of %d event-timed launches\n\n", be, runtime.GOMAXPROCS(0), reps)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "workload\tsize\tkernel\tfirst launch\thost launch\tthroughput\tbandwidth\tresult")
	for _, r := range rows {
		size := fmt.Sprint(r.N)
		if r.Workload == "logs" {
			size = fmt.Sprintf("%dx%d", r.N, r.N)
		}
		if r.err != nil {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\tfailed: %v\n", r.Workload, size, r.err)
			continue
		}
		first, launch := "-", "-"
		if r.Launched() {
			first, launch = fmtMS(r.FirstMS), fmtUS(r.LaunchUS)
		}
		bandwidth := "-"
		if r.Bytes > 0 && r.KernelMS > 0 {
			bandwidth = si(r.Bytes/(r.KernelMS/1e3)) + "B/s"
		}
		throughput := "-"
		if r.KernelMS > 0 {
			throughput = si(r.Elements/(r.KernelMS/1e3)) + " elem/s"
		}
		var result string
		switch {
		case r.Mismatch != "":
			result = "WRONG: " + r.Mismatch
		case r.Verified == 0:
			result = "not checked (a copy)"
		default:
			result = fmt.Sprintf("ok (%d samples), checksum %s", r.Verified, r.Check)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Workload, size, fmtMS(r.KernelMS), first, launch, throughput, bandwidth, result)
	}
	return tw.Flush()
}

// fmtMS writes a time given in milliseconds in the unit that suits it.
func fmtMS(ms float64) string {
	switch {
	case ms >= 1000:
		return fmt.Sprintf("%.3g s", ms/1e3)
	case ms >= 1:
		return fmt.Sprintf("%.3g ms", ms)
	}
	return fmtUS(ms * 1e3)
}

// fmtUS writes a time given in microseconds in the unit that suits it.
func fmtUS(us float64) string {
	if us >= 1000 {
		return fmtMS(us / 1e3)
	}
	return fmt.Sprintf("%.3g µs", us)
}

// si writes v with three significant digits and a decimal prefix.
func si(v float64) string {
	for _, p := range []struct {
		scale  float64
		prefix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= p.scale {
			return fmt.Sprintf("%.3g %s", v/p.scale, p.prefix)
		}
	}
	return fmt.Sprintf("%.3g ", v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
