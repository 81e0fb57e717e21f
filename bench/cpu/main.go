// Command cpu runs the same workloads on nugo's CPU backend and in Numba
// (Debian's python3-numba) in one go and prints one table of times with the
// ratios nugo/Numba. Run it through run.sh, which installs Numba if needed:
//
//	bench/cpu/run.sh            # or: go run ./bench/cpu -python /usr/bin/python3
//
// Times are the best of several runs after a warm-up run on both sides, so
// neither side's compilation is counted.
package main

//go:generate go tool nugo gen

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/benchplot"
	"github.com/nugo-dev/nugo/internal/primes"
)

func logs(t cuda.Thread, a cuda.Array2[float64]) {
	i, j := t.Grid2()
	if rows, cols := a.Shape(); i < rows && j < cols {
		a.Set(i, j, math.Log10(float64(i+j+1)))
	}
}

// best runs fn once to warm up, then repeat times, and returns the fastest
// run and the check value of the last.
func best(repeat int, fn func() (float64, error)) (time.Duration, float64, error) {
	if _, err := fn(); err != nil {
		return 0, 0, err
	}
	var min time.Duration = math.MaxInt64
	var check float64
	for range repeat {
		t0 := time.Now()
		c, err := fn()
		if err != nil {
			return 0, 0, err
		}
		min, check = minDur(min, time.Since(t0)), c
	}
	return min, check, nil
}

func minDur(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}

func primesRun(n int64) func() (float64, error) {
	return func() (float64, error) {
		res, err := primes.Run(primes.Config{N: n})
		return float64(res.Checksum), err
	}
}

func logsRun(n int) func() (float64, error) {
	k := cuda.Jit(logs)
	a := cuda.NewArray2[float64](n, n)
	return func() (float64, error) {
		if err := k.Launch(cuda.Dim2((n+15)/16, (n+15)/16), cuda.Dim2(16, 16), a); err != nil {
			return 0, err
		}
		var s float64
		for _, v := range a.Data() {
			s += v
		}
		return s, nil
	}
}

type row struct {
	workload, numba string
	nugo            func() (float64, error)
	repeat          int
	pyArgs          []string
	env             []string
	target          string  // what the ratio should be
	elements        float64 // results computed, for the chart's throughput
}

func main() {
	python := flag.String("python", "/usr/bin/python3", "the Python with numba")
	plotFile := flag.String("plot", "", "also draw the times as an SVG bar chart into `FILE.svg`")
	flag.Parse()
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		log.Fatal(err)
	}
	_, self, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(self), "numba_bench.py")

	rows := []row{
		{"primes N=10^7", "@njit", primesRun(1e7), 2, []string{"primes_njit", "10000000"}, nil, "", 1e7},
		{"primes N=10^7", "@njit(parallel=True)", primesRun(1e7), 2, []string{"primes_parallel", "10000000"}, nil, "<= 1", 1e7},
		{"logs 2000x2000", "@njit(parallel=True)", logsRun(2000), 5, []string{"logs_parallel", "2000"}, nil, "", 4e6},
		{"primes N=10^5", "CUDA simulator", primesRun(1e5), 5, []string{"primes_cudasim", "100000"}, []string{"NUMBA_ENABLE_CUDASIM=1"}, "<= 0.001", 1e5},
	}
	var bars []benchplot.Bar
	fmt.Printf("nugo CPU backend (GOMAXPROCS=%d) versus Numba %s\n\n", runtime.GOMAXPROCS(0), numbaVersion(*python))
	fmt.Printf("| workload | Numba | nugo | Numba time | nugo/Numba | target |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		nt, ncheck, err := best(r.repeat, r.nugo)
		if err != nil {
			log.Fatalf("%s: nugo: %v", r.workload, err)
		}
		pt, pcheck, err := runPython(*python, script, r.pyArgs, r.env)
		if err != nil {
			log.Fatalf("%s: numba: %v", r.workload, err)
		}
		if math.Abs(ncheck-pcheck) > 1e-9*math.Abs(pcheck) {
			log.Fatalf("%s: results differ: nugo %v, numba %v", r.workload, ncheck, pcheck)
		}
		fmt.Printf("| %s | %s | %v | %v | %.4g | %s |\n", r.workload, r.numba, nt.Round(time.Microsecond),
			pt.Round(time.Microsecond), nt.Seconds()/pt.Seconds(), r.target)
		group := r.workload + "\nvs " + r.numba
		bars = append(bars, benchplot.Bar{Group: group, Impl: "nugo, CPU backend", Seconds: nt.Seconds(), Elements: r.elements},
			benchplot.Bar{Group: group, Impl: "Numba", Seconds: pt.Seconds(), Elements: r.elements})
	}
	if *plotFile != "" {
		host, _ := os.Hostname()
		chart := benchplot.Chart{
			Title:    fmt.Sprintf("nugo's CPU backend against Numba %s (best of several runs)", numbaVersion(*python)),
			Subtitle: fmt.Sprintf("%s, %d CPUs, GOMAXPROCS=%d, %s", host, runtime.NumCPU(), runtime.GOMAXPROCS(0), time.Now().UTC().Format("2006-01-02")),
		}
		var svg bytes.Buffer
		if err := chart.Write(&svg, bars, 9*vg.Inch, 7*vg.Inch); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(*plotFile, svg.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("\nchart: %s\n", *plotFile)
	}
}

func runPython(python, script string, args, env []string) (time.Duration, float64, error) {
	cmd := exec.Command(python, append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("%v: %s", err, stderr.String())
	}
	f := strings.Fields(out.String())
	if len(f) != 3 {
		return 0, 0, fmt.Errorf("unexpected output %q", out.String())
	}
	secs, err := strconv.ParseFloat(f[1], 64)
	if err != nil {
		return 0, 0, err
	}
	check, err := strconv.ParseFloat(f[2], 64)
	return time.Duration(secs * float64(time.Second)), check, err
}

func numbaVersion(python string) string {
	out, err := exec.Command(python, "-c", "import numba; print(numba.__version__)").Output()
	if err != nil {
		return "(not found)"
	}
	return strings.TrimSpace(string(out))
}
