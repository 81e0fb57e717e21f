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
// The workloads and the protocol live in internal/workloads, which `nugo
// bench` shares; this program keeps one workload per process.
//
// Usage: gpu -workload primes|vecadd|logs|coalesced|permuted|movingavg|d2d [-n N] [-width W] [-reps R]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/workloads"
)

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

// run runs one workload at size n, 0 meaning gpu-check's size.
func run(workload string, n, width, reps int) (workloads.Result, error) {
	if n == 0 {
		n = workloads.GPUSizes[workload]
	}
	return workloads.Run(workloads.Config{Workload: workload, N: n, Width: width, Reps: reps})
}
