// Command vectorize-bench runs the same workloads with nugo's vectorize
// package and with Numba (@vectorize with targets cpu and parallel, and
// @guvectorize for a moving average) in one run, and prints the times and
// their ratios:
//
//	go run ./bench/vectorize            # needs python3 with numba and numpy
//	go run ./bench/vectorize -numba=false
//
// Every time is the best of -repeats runs after a warm-up run; inputs are
// the same in both, and outputs are preallocated in both.
package main

//go:generate go tool nugo gen

import (
	"bufio"
	_ "embed"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nugo-dev/nugo/internal/baseline"
	"github.com/nugo-dev/nugo/vectorize"
)

//go:embed numba_bench.py
var numbaScript string

func add(x, y float32) float32 { return x + y }

func gauss(x float64) float64 { return math.Exp(-x * x / 2) }

// movingAverage is the tutorial's centred moving average, the window
// truncated at the ends.
func movingAverage(x []float64, width int64, out []float64) {
	w := int(width)
	for i := range x {
		lo, hi := max(0, i-w/2), min(len(x)-1, i+w/2)
		var s float64
		for j := lo; j <= hi; j++ {
			s += x[j]
		}
		out[i] = s / float64(hi-lo+1)
	}
}

// handGauss is the hand-written loop of gauss on all cores.
func handGauss(out, x []float64) {
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for i := range w {
		lo, hi := i*len(out)/w, (i+1)*len(out)/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := lo; j < hi; j++ {
				out[j] = gauss(x[j])
			}
		}()
	}
	wg.Wait()
}

// workload is one timed run.
type workload struct {
	name string
	run  func() error
}

func best(repeats int, fn func() error) (time.Duration, error) {
	if err := fn(); err != nil {
		return 0, err
	}
	b := time.Duration(math.MaxInt64)
	for range repeats {
		t0 := time.Now()
		if err := fn(); err != nil {
			return 0, err
		}
		b = min(b, time.Since(t0))
	}
	return b, nil
}

// workloads builds the nugo side: the names match numba_bench.py's.
func workloads(nAdd, rows, cols int) ([]workload, error) {
	a, b, c := make([]float32, nAdd), make([]float32, nAdd), make([]float32, nAdd)
	xg, g := make([]float64, nAdd), make([]float64, nAdd)
	for i := range a {
		a[i], b[i] = float32(i%97), float32(i%89)*0.5
		xg[i] = float64(i%1000) / 100
	}
	x, out := make([]float64, rows*cols), make([]float64, rows*cols)
	for i := range x {
		x[i] = float64(i * 7 % 101)
	}
	var ws []workload
	for _, t := range []vectorize.Target{vectorize.CPU, vectorize.Parallel} {
		vadd := vectorize.New2(add, t)
		vg := vectorize.New1(gauss, t)
		mavg, err := vectorize.GU("(n),()->(n)", movingAverage, t)
		if err != nil {
			return nil, err
		}
		ws = append(ws,
			workload{"add_f32/" + string(t), func() error { return vadd.Into(c, a, b) }},
			workload{"gauss_f64/" + string(t), func() error { return vg.Into(g, xg) }})
		for _, w := range []int64{3, 101} {
			ws = append(ws, workload{fmt.Sprintf("movingavg_w%d/%s", w, t), func() error {
				return mavg.Into(vectorize.Of(x, rows, cols), w, vectorize.Of(out, rows, cols))
			}})
		}
	}
	ws = append(ws,
		workload{"add_f32/goroutines (hand-written)", func() error { baseline.AddFloat32(c, a, b, 0); return nil }},
		workload{"gauss_f64/goroutines (hand-written)", func() error { handGauss(g, xg); return nil }})
	return ws, nil
}

func runNumba(python string, nAdd, rows, cols, repeats int) (map[string]time.Duration, error) {
	f, err := os.CreateTemp("", "nugo-numba-*.py")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(numbaScript); err != nil {
		return nil, err
	}
	f.Close()
	cmd := exec.Command(python, f.Name(), strconv.Itoa(nAdd), strconv.Itoa(rows), strconv.Itoa(cols), strconv.Itoa(repeats))
	cmd.Stderr = os.Stderr
	outp, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", python, err)
	}
	res := map[string]time.Duration{}
	sc := bufio.NewScanner(strings.NewReader(string(outp)))
	for sc.Scan() {
		name, secs, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		s, err := strconv.ParseFloat(secs, 64)
		if err != nil {
			return nil, fmt.Errorf("numba output %q: %w", sc.Text(), err)
		}
		res[name] = time.Duration(s * float64(time.Second))
	}
	return res, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e6) }

func main() {
	nAdd := flag.Int("n", 10_000_000, "elements of the element-wise workloads")
	rows := flag.Int("rows", 1000, "rows of the moving-average input")
	cols := flag.Int("cols", 1000, "columns of the moving-average input")
	repeats := flag.Int("repeats", 7, "timed runs per workload (the best counts)")
	useNumba := flag.Bool("numba", true, "also run the workloads in Numba")
	python := flag.String("python", "/usr/bin/python3", "the Python that has numba")
	flag.Parse()

	ws, err := workloads(*nAdd, *rows, *cols)
	if err != nil {
		log.Fatal(err)
	}
	nugo := map[string]time.Duration{}
	for _, w := range ws {
		d, err := best(*repeats, w.run)
		if err != nil {
			log.Fatalf("%s: %v", w.name, err)
		}
		nugo[w.name] = d
	}
	var numba map[string]time.Duration
	if *useNumba {
		if numba, err = runNumba(*python, *nAdd, *rows, *cols, *repeats); err != nil {
			log.Fatal(err)
		}
	}

	fmt.Printf("GOMAXPROCS=%d  n=%d  moving average on %dx%d float64  best of %d\n\n", runtime.GOMAXPROCS(0), *nAdd, *rows, *cols, *repeats)
	fmt.Printf("%-36s %12s %12s %12s\n", "workload", "nugo ms", "numba ms", "nugo/numba")
	for _, w := range ws {
		d := nugo[w.name]
		nb, ratio := "-", "-"
		if n, ok := numba[w.name]; ok {
			nb, ratio = ms(n), fmt.Sprintf("%.2f", float64(d)/float64(n))
		}
		fmt.Printf("%-36s %12s %12s %12s\n", w.name, ms(d), nb, ratio)
	}
	fmt.Println()
	for _, w := range []string{"add_f32", "gauss_f64"} {
		fmt.Printf("%s: target parallel / hand-written goroutine loop = %.2f\n", w, float64(nugo[w+"/parallel"])/float64(nugo[w+"/goroutines (hand-written)"]))
	}
}
