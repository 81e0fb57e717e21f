// Command gpu is nugo's side of the GPU benchmark that scripts/gpu-check.sh
// runs against Numba (bench/numba) and CUDA C (bench/cuda). It runs one
// workload per process, so that the first launch (compile, module load,
// launch, wait) is measured cold, and prints one JSON line:
//
//	{"impl":"nugo","workload":"vecadd","n":100000000,"kernel_ms":..,
//	 "first_ms":..,"launch_us":..,"bytes":..,"check":".."}
//
// kernel_ms is the median of -reps launches timed by CUDA events after two
// warm-up launches; first_ms the wall time of the process's first launch
// including its synchronization (the backend already open, so without
// creating the CUDA context, as on the other sides); launch_us the median
// host time of an asynchronous launch call on an idle stream; bytes the
// bytes the kernel must move at least (0 for compute-bound work), from which
// the table computes effective bandwidth; check a checksum all sides share.
// Workload d2d times a device-to-device copy of n float64 (bytes counts the
// read and the write), the bandwidth the others are held against.
//
// Usage: gpu -workload primes|vecadd|logs|coalesced|permuted|movingavg|d2d [-n N] [-width W] [-reps R]
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/nugo-dev/nugo/bench/gpu/kernels"
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/primes"
)

// result is one output line; the Python and CUDA C sides print the same.
type result struct {
	Impl     string  `json:"impl"`
	Workload string  `json:"workload"`
	N        int     `json:"n"`
	KernelMS float64 `json:"kernel_ms"`
	FirstMS  float64 `json:"first_ms"`
	LaunchUS float64 `json:"launch_us"`
	Bytes    float64 `json:"bytes"`
	Check    string  `json:"check"`
}

func main() {
	workload := flag.String("workload", "", "primes, vecadd, logs, coalesced, permuted, movingavg or d2d")
	n := flag.Int("n", 0, "problem size (primes: N; logs: rows = cols; others: elements); 0 = the benchmark's default")
	width := flag.Int("width", 101, "moving average window")
	reps := flag.Int("reps", 20, "timed launches after the warm-up")
	backend := flag.String("backend", "gpu", "nugo backend")
	flag.Parse()
	if err := cuda.SetBackend(cuda.Backend(*backend)); err != nil {
		fail(err)
	}
	r, err := run(*workload, *n, *width, *reps)
	if err != nil {
		fail(fmt.Errorf("%s: %w", *workload, err))
	}
	if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "bench/gpu:", err)
	os.Exit(1)
}

var defaults = map[string]int{
	"primes": 1_000_000, "vecadd": 100_000_000, "logs": 10_000, "coalesced": 100_000_000,
	"permuted": 100_000_000, "movingavg": 10_000_000, "d2d": 100_000_000,
}

func run(workload string, n, width, reps int) (result, error) {
	if n == 0 {
		n = defaults[workload]
	}
	r := result{Impl: "nugo", Workload: workload, N: n}
	block := cuda.Dim1(256)
	grid := func(m int) cuda.Dim3 { return cuda.Dim1((m + 255) / 256) }
	switch workload {
	case "primes":
		out, err := cuda.NewDeviceArray[int64](n - 1)
		if err != nil {
			return r, err
		}
		k := cuda.Jit(primes.Kernel)
		err = measure(&r, reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n - 1), Block: block, Stream: s}, int64(2), out)
		})
		if err != nil {
			return r, err
		}
		r.Check, err = checkInt(out)
		return r, err
	case "vecadd":
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = float32(i%1024), float32(2*(i%512))
		}
		da, err := cuda.ToDevice(a)
		if err != nil {
			return r, err
		}
		db, err := cuda.ToDevice(b)
		if err != nil {
			return r, err
		}
		dc, err := cuda.NewDeviceArray[float32](n)
		if err != nil {
			return r, err
		}
		r.Bytes = 12 * float64(n)
		k := cuda.Jit(kernels.VecAdd)
		err = measure(&r, reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, da, db, dc)
		})
		if err != nil {
			return r, err
		}
		r.Check, err = checkFloat(dc)
		return r, err
	case "logs":
		d, err := cuda.NewDeviceArray[float64](n, n)
		if err != nil {
			return r, err
		}
		r.Bytes = 8 * float64(n) * float64(n)
		k := cuda.Jit(kernels.Logs)
		g := cuda.Dim2((n+15)/16, (n+15)/16)
		err = measure(&r, reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: g, Block: cuda.Dim2(16, 16), Stream: s}, d)
		})
		if err != nil {
			return r, err
		}
		r.Check, err = checkFloat(d)
		return r, err
	case "coalesced", "permuted":
		out, err := cuda.NewDeviceArray[float64](n)
		if err != nil {
			return r, err
		}
		r.Bytes = 8 * float64(n)
		inOrder := cuda.Jit(kernels.InOrder)
		launch := func(s *cuda.Stream) error {
			return inOrder.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, out)
		}
		if workload == "permuted" {
			perm := make([]int32, n)
			for i, p := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
				perm[i] = int32(p)
			}
			dp, err := cuda.ToDevice(perm)
			if err != nil {
				return r, err
			}
			r.Bytes += 4 * float64(n)
			k := cuda.Jit(kernels.Permuted)
			launch = func(s *cuda.Stream) error {
				return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, dp, out)
			}
		}
		if err := measure(&r, reps, launch); err != nil {
			return r, err
		}
		r.Check, err = checkFloat(out)
		return r, err
	case "movingavg":
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i % 1000)
		}
		dx, err := cuda.ToDevice(x)
		if err != nil {
			return r, err
		}
		out, err := cuda.NewDeviceArray[float64](n)
		if err != nil {
			return r, err
		}
		r.Bytes = 16 * float64(n)
		k := cuda.Jit(kernels.MovingAverage)
		err = measure(&r, reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, dx, width, out)
		})
		if err != nil {
			return r, err
		}
		r.Check, err = checkFloat(out)
		return r, err
	case "d2d":
		src, err := cuda.NewDeviceArray[float64](n)
		if err != nil {
			return r, err
		}
		dst, err := cuda.NewDeviceArray[float64](n)
		if err != nil {
			return r, err
		}
		r.Bytes = 16 * float64(n)
		r.KernelMS, err = eventMedian(reps, nil, func(*cuda.Stream) error { return dst.CopyFrom(src) })
		r.Check = "-"
		return r, err
	}
	return r, fmt.Errorf("unknown workload %q", workload)
}

// measure fills the timings of r for a launch (nil stream: synchronous).
func measure(r *result, reps int, launch func(s *cuda.Stream) error) error {
	t0 := time.Now()
	if err := launch(nil); err != nil {
		return fmt.Errorf("first launch: %w", err)
	}
	r.FirstMS = ms(time.Since(t0))
	for range 2 {
		if err := launch(nil); err != nil {
			return err
		}
	}
	s, err := cuda.NewStream()
	if err != nil {
		return err
	}
	var host []float64
	r.KernelMS, err = eventMedian(reps, s, func(s *cuda.Stream) error {
		t0 := time.Now()
		err := launch(s)
		host = append(host, float64(time.Since(t0).Nanoseconds())/1e3)
		return err
	})
	r.LaunchUS = median(host)
	return err
}

// eventMedian is the median time of reps runs of op on s between two events.
func eventMedian(reps int, s *cuda.Stream, op func(*cuda.Stream) error) (float64, error) {
	start, err := cuda.NewEvent()
	if err != nil {
		return 0, err
	}
	end, err := cuda.NewEvent()
	if err != nil {
		return 0, err
	}
	times := make([]float64, 0, reps)
	for range reps {
		if err := start.Record(s); err != nil {
			return 0, err
		}
		if err := op(s); err != nil {
			return 0, err
		}
		if err := end.Record(s); err != nil {
			return 0, err
		}
		d, err := cuda.ElapsedTime(start, end)
		if err != nil {
			return 0, err
		}
		times = append(times, ms(d))
	}
	return median(times), nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func checkInt(d *cuda.DeviceArray[int64]) (string, error) {
	h, err := d.ToHost()
	if err != nil {
		return "", err
	}
	var sum int64
	for _, v := range h {
		sum += v
	}
	return fmt.Sprint(sum), nil
}

// checkFloat is the sum of the elements, with 6 significant digits, so that
// the sides agree despite different summation orders.
func checkFloat[T float32 | float64](d *cuda.DeviceArray[T]) (string, error) {
	h, err := d.ToHost()
	if err != nil {
		return "", err
	}
	var sum float64
	for _, v := range h {
		sum += float64(v)
	}
	if sum != sum {
		return "", errors.New("checksum is NaN")
	}
	return fmt.Sprintf("%.6g", sum), nil
}
