package workloads

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/nugo-dev/nugo/bench/gpu/kernels"
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/primes"
)

// Names lists the workloads in the order they are run and reported.
var Names = []string{"primes", "vecadd", "logs", "coalesced", "permuted", "movingavg", "d2d"}

// GPUSizes are the sizes scripts/gpu-check.sh runs on a GPU (bench/gpu's
// defaults): primes N (gpu-check adds 10^7 and 10^8), logs rows = cols,
// the others elements.
var GPUSizes = map[string]int{
	"primes": 1_000_000, "vecadd": 100_000_000, "logs": 10_000, "coalesced": 100_000_000,
	"permuted": 100_000_000, "movingavg": 10_000_000, "d2d": 100_000_000,
}

// DefaultWidth is the moving average's window.
const DefaultWidth = 101

// Config is one run of one workload.
type Config struct {
	Workload string // one of Names
	N        int    // primes: the last number; logs: rows = cols; others: elements
	Width    int    // movingavg's window (odd; other workloads ignore it)
	Reps     int    // timed launches after the warm-up
}

// Result is what a run measured. Its JSON form is the line bench/gpu prints
// and scripts/gpu-check.sh collects; bench/numba and bench/cuda print the
// same fields.
type Result struct {
	Impl     string  `json:"impl"`
	Workload string  `json:"workload"`
	N        int     `json:"n"`
	KernelMS float64 `json:"kernel_ms"` // median of the event-timed launches
	FirstMS  float64 `json:"first_ms"`  // first launch: compile, load, launch, wait
	LaunchUS float64 `json:"launch_us"` // median host time of an asynchronous launch call
	Bytes    float64 `json:"bytes"`     // bytes the kernel must move at least; 0: compute-bound
	Check    string  `json:"check"`     // checksum all implementations share

	// Elements is how many results the kernel computes per launch (the
	// numbers factored, the elements written or copied).
	Elements float64 `json:"-"`
	// Verified says how the output was checked against a host reference:
	// the number of sampled elements that matched, 0 where the workload has
	// no element-wise reference (d2d).
	Verified int `json:"-"`
	// Mismatch is the first sampled element that differs from the host
	// reference, empty when all matched. A mismatch is not an error of Run:
	// the timings are still valid and the caller reports it.
	Mismatch string `json:"-"`
}

// Launched reports whether the workload launches a kernel (d2d only copies,
// so it has no first launch or launch overhead).
func (r Result) Launched() bool { return r.Workload != "d2d" }

// Lookup returns the workload names of a comma-separated list ("" or "all":
// every workload), in the list's order, refusing unknown and repeated names.
func Lookup(list string) ([]string, error) {
	if list == "" || list == "all" {
		return append([]string(nil), Names...), nil
	}
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.Split(list, ",") {
		w = strings.TrimSpace(w)
		if !known(w) {
			return nil, fmt.Errorf("unknown workload %q; the workloads are %s", w, strings.Join(Names, ", "))
		}
		if seen[w] {
			return nil, fmt.Errorf("workload %q listed twice", w)
		}
		seen[w] = true
		out = append(out, w)
	}
	return out, nil
}

func known(w string) bool {
	for _, n := range Names {
		if n == w {
			return true
		}
	}
	return false
}

func (c Config) validate() error {
	if !known(c.Workload) {
		return fmt.Errorf("unknown workload %q; the workloads are %s", c.Workload, strings.Join(Names, ", "))
	}
	least := 1
	if c.Workload == "primes" {
		least = 2
	}
	if c.N < least {
		return fmt.Errorf("size %d: at least %d", c.N, least)
	}
	if c.Workload == "logs" && c.N > 1<<31 {
		return fmt.Errorf("size %d: logs is an N×N array; at most 2^31 rows", c.N)
	}
	if c.Width < 1 && c.Workload == "movingavg" {
		return fmt.Errorf("width %d: the window must be at least 1", c.Width)
	}
	if c.Reps < 1 {
		return fmt.Errorf("reps %d: at least one timed launch", c.Reps)
	}
	return nil
}

// Run runs one workload on the current backend: device memory first, then
// the first launch timed on the host with its synchronization, two warm-up
// launches, then Reps launches on a stream, each between two events (the
// median is KernelMS) with the host time of the launch call (the median is
// LaunchUS); finally the output is copied back, summed into Check and
// sampled against the host reference. Device memory is freed before Run
// returns.
func Run(c Config) (Result, error) {
	r := Result{Impl: "nugo", Workload: c.Workload, N: c.N}
	if err := c.validate(); err != nil {
		return r, err
	}
	var mem devMem
	defer mem.free()
	n := c.N
	block := cuda.Dim1(256)
	grid := func(m int) cuda.Dim3 { return cuda.Dim1((m + 255) / 256) }
	switch c.Workload {
	case "primes":
		out, err := alloc[int64](&mem, n-1)
		if err != nil {
			return r, err
		}
		r.Elements = float64(n - 1)
		k := cuda.Jit(primes.Kernel)
		err = measure(&r, c.Reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n - 1), Block: block, Stream: s}, int64(2), out)
		})
		if err != nil {
			return r, err
		}
		h, err := out.ToHost()
		if err != nil {
			return r, err
		}
		r.Check = checkInt(h)
		verify(&r, len(h), func(i int) (float64, float64) {
			return float64(h[i]), float64(primes.FactorSum(int64(i) + 2))
		}, 0)
		return r, nil
	case "vecadd":
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = float32(i%1024), float32(2*(i%512))
		}
		da, err1 := upload(&mem, a)
		db, err2 := upload(&mem, b)
		dc, err3 := alloc[float32](&mem, n)
		if err := errors.Join(err1, err2, err3); err != nil {
			return r, err
		}
		r.Bytes, r.Elements = 12*float64(n), float64(n)
		k := cuda.Jit(kernels.VecAdd)
		err := measure(&r, c.Reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, da, db, dc)
		})
		if err != nil {
			return r, err
		}
		h, err := readBack(&r, dc)
		if err != nil {
			return r, err
		}
		verify(&r, len(h), func(i int) (float64, float64) { return float64(h[i]), float64(a[i] + b[i]) }, 0)
		return r, nil
	case "logs":
		d, err := alloc[float64](&mem, n, n)
		if err != nil {
			return r, err
		}
		r.Bytes, r.Elements = 8*float64(n)*float64(n), float64(n)*float64(n)
		k := cuda.Jit(kernels.Logs)
		g := cuda.Dim2((n+15)/16, (n+15)/16)
		err = measure(&r, c.Reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: g, Block: cuda.Dim2(16, 16), Stream: s}, d)
		})
		if err != nil {
			return r, err
		}
		h, err := readBack(&r, d)
		if err != nil {
			return r, err
		}
		verify(&r, len(h), func(i int) (float64, float64) { return h[i], log10(i/n + i%n + 1) }, mathTolerance)
		return r, nil
	case "coalesced", "permuted":
		out, err := alloc[float64](&mem, n)
		if err != nil {
			return r, err
		}
		r.Bytes, r.Elements = 8*float64(n), float64(n)
		inOrder := cuda.Jit(kernels.InOrder)
		launch := func(s *cuda.Stream) error {
			return inOrder.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, out)
		}
		if c.Workload == "permuted" {
			perm := make([]int32, n)
			for i, p := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
				perm[i] = int32(p)
			}
			dp, err := upload(&mem, perm)
			if err != nil {
				return r, err
			}
			r.Bytes += 4 * float64(n)
			k := cuda.Jit(kernels.Permuted)
			launch = func(s *cuda.Stream) error {
				return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, dp, out)
			}
		}
		if err := measure(&r, c.Reps, launch); err != nil {
			return r, err
		}
		h, err := readBack(&r, out)
		if err != nil {
			return r, err
		}
		// perm is a permutation: both kernels write every element once.
		verify(&r, len(h), func(i int) (float64, float64) { return h[i], log10(i + 1) }, mathTolerance)
		return r, nil
	case "movingavg":
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i % 1000)
		}
		dx, err1 := upload(&mem, x)
		out, err2 := alloc[float64](&mem, n)
		if err := errors.Join(err1, err2); err != nil {
			return r, err
		}
		r.Bytes, r.Elements = 16*float64(n), float64(n)
		k := cuda.Jit(kernels.MovingAverage)
		width := c.Width
		err := measure(&r, c.Reps, func(s *cuda.Stream) error {
			return k.LaunchWith(cuda.LaunchConfig{Grid: grid(n), Block: block, Stream: s}, dx, width, out)
		})
		if err != nil {
			return r, err
		}
		h, err := readBack(&r, out)
		if err != nil {
			return r, err
		}
		verify(&r, len(h), func(i int) (float64, float64) { return h[i], movingAverage(x, width, i) }, 0)
		return r, nil
	case "d2d":
		src, err1 := alloc[float64](&mem, n)
		dst, err2 := alloc[float64](&mem, n)
		if err := errors.Join(err1, err2); err != nil {
			return r, err
		}
		r.Bytes, r.Elements = 16*float64(n), float64(n)
		var err error
		r.KernelMS, err = eventMedian(c.Reps, nil, func(*cuda.Stream) error { return dst.CopyFrom(src) })
		r.Check = "-"
		return r, err
	}
	return r, errors.New("unreachable: validate accepted an unknown workload")
}

// devMem frees, when a workload ends, the device arrays it made.
type devMem struct{ frees []func() error }

func (m *devMem) free() {
	for _, f := range m.frees {
		_ = f() // the results are in; a failed free changes none of them
	}
}

// upload copies host to a new device array that m frees.
func upload[T cuda.Number](m *devMem, host []T) (*cuda.DeviceArray[T], error) {
	d, err := cuda.ToDevice(host)
	if err == nil {
		m.frees = append(m.frees, d.Free)
	}
	return d, err
}

// alloc makes a zeroed device array that m frees.
func alloc[T cuda.Number](m *devMem, shape ...int) (*cuda.DeviceArray[T], error) {
	d, err := cuda.NewDeviceArray[T](shape...)
	if err == nil {
		m.frees = append(m.frees, d.Free)
	}
	return d, err
}

// readBack copies a float result to the host and puts its checksum in r.
func readBack[T float32 | float64](r *Result, d *cuda.DeviceArray[T]) ([]T, error) {
	h, err := d.ToHost()
	if err != nil {
		return nil, err
	}
	r.Check, err = checkFloat(h)
	return h, err
}
