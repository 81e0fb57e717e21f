package main

import (
	"fmt"
	"math"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/primes"
)

// Every workload runs on the CPU backend at a small size and reports the
// checksum the other sides (bench/numba, bench/cuda) must print too.
func TestWorkloadsOnCPU(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	var primesSum int64
	for n := int64(2); n <= 5000; n++ {
		primesSum += primes.FactorSum(n)
	}
	var logSum float64
	for i := 1; i <= 3000; i++ {
		logSum += math.Log10(float64(i))
	}
	var vecSum float64
	for i := range 3000 {
		vecSum += float64(i%1024) + float64(2*(i%512))
	}
	for _, c := range []struct {
		workload string
		n        int
		check    string
	}{
		{"primes", 5000, fmt.Sprint(primesSum)},
		{"vecadd", 3000, fmt.Sprintf("%.6g", vecSum)},
		{"coalesced", 3000, fmt.Sprintf("%.6g", logSum)},
		{"permuted", 3000, fmt.Sprintf("%.6g", logSum)},
		{"logs", 40, ""},
		{"movingavg", 3000, ""},
		{"d2d", 3000, "-"},
	} {
		r, err := run(c.workload, c.n, 101, 3)
		if err != nil {
			t.Errorf("%s: %v", c.workload, err)
			continue
		}
		if c.check != "" && r.Check != c.check {
			t.Errorf("%s: checksum %s, want %s", c.workload, r.Check, c.check)
		}
		if r.Impl != "nugo" || r.Workload != c.workload || r.N != c.n || r.KernelMS <= 0 || r.Check == "" {
			t.Errorf("%s: result %+v", c.workload, r)
		}
		if c.workload != "d2d" && (r.FirstMS <= 0 || r.LaunchUS <= 0) {
			t.Errorf("%s: timings %+v", c.workload, r)
		}
	}
	if _, err := run("nonsense", 10, 1, 1); err == nil {
		t.Error("an unknown workload ran")
	}
}
