package workloads

import (
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// Every workload runs on the CPU backend and on ptxsim (the compiled
// kernels) at tiny sizes; the output must match the host reference and the
// checksum must not depend on the backend.
func TestRunAllBackends(t *testing.T) {
	sizes := map[string]int{"primes": 600, "vecadd": 700, "logs": 20, "coalesced": 700, "permuted": 700, "movingavg": 300, "d2d": 500}
	checks := map[string]string{}
	for _, be := range []cuda.Backend{cuda.CPU, cuda.PTXSim} {
		if err := cuda.SetBackend(be); err != nil {
			t.Fatal(err)
		}
		for _, w := range Names {
			r, err := Run(Config{Workload: w, N: sizes[w], Width: 11, Reps: 3})
			if err != nil {
				t.Errorf("%s on %s: %v", w, be, err)
				continue
			}
			if r.Mismatch != "" {
				t.Errorf("%s on %s: %s", w, be, r.Mismatch)
			}
			wantVerified := samples + 2
			if w == "d2d" {
				wantVerified = 0
			} else if w == "logs" && sizes[w]*sizes[w] < wantVerified {
				wantVerified = sizes[w] * sizes[w]
			}
			if r.Verified != wantVerified {
				t.Errorf("%s on %s: %d elements verified, want %d", w, be, r.Verified, wantVerified)
			}
			if r.KernelMS <= 0 || r.Elements <= 0 || r.Check == "" || r.N != sizes[w] || r.Workload != w {
				t.Errorf("%s on %s: result %+v", w, be, r)
			}
			if r.Launched() != (w != "d2d") || (r.Launched() && (r.FirstMS <= 0 || r.LaunchUS <= 0)) {
				t.Errorf("%s on %s: launch timings %+v", w, be, r)
			}
			if prev, ok := checks[w]; ok && prev != r.Check {
				t.Errorf("%s: checksum %s on %s, %s on the CPU", w, r.Check, be, prev)
			}
			checks[w] = r.Check
		}
	}
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
}

func TestRunBadConfig(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Workload: "nonsense", N: 10, Reps: 1}, `unknown workload "nonsense"`},
		{Config{Workload: "", N: 10, Reps: 1}, "unknown workload"},
		{Config{Workload: "primes", N: 1, Reps: 1}, "size 1: at least 2"},
		{Config{Workload: "vecadd", N: 0, Reps: 1}, "size 0: at least 1"},
		{Config{Workload: "vecadd", N: -5, Reps: 1}, "size -5"},
		{Config{Workload: "logs", N: 1 << 32, Reps: 1}, "at most 2^31 rows"},
		{Config{Workload: "movingavg", N: 10, Width: 0, Reps: 1}, "width 0"},
		{Config{Workload: "vecadd", N: 10, Reps: 0}, "reps 0"},
	} {
		if _, err := Run(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Run(%+v) = %v, want an error mentioning %q", c.cfg, err, c.want)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, c := range []struct {
		list string
		want []string
		err  string
	}{
		{"", Names, ""},
		{"all", Names, ""},
		{"vecadd", []string{"vecadd"}, ""},
		{"d2d, primes", []string{"d2d", "primes"}, ""},
		{"vecadd,nope", nil, `unknown workload "nope"`},
		{"vecadd,", nil, `unknown workload ""`},
		{"logs,logs", nil, "listed twice"},
	} {
		got, err := Lookup(c.list)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("Lookup(%q) = %v, %v; want an error mentioning %q", c.list, got, err, c.err)
			}
			continue
		}
		if err != nil || strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("Lookup(%q) = %v, %v; want %v", c.list, got, err, c.want)
		}
	}
}

// verify must notice a wrong element wherever the samples fall on it, and
// honour the tolerance.
func TestVerify(t *testing.T) {
	for _, c := range []struct {
		name     string
		n        int
		bad      int     // index of the wrong element, -1 for none
		off      float64 // relative error of the wrong element
		tol      float64
		mismatch bool
		verified int
	}{
		{"all right", 1000, -1, 0, 0, false, samples + 2},
		{"short output", 7, -1, 0, 0, false, 7},
		{"first wrong", 1000, 0, 1e-3, 0, true, 0},
		{"last wrong", 1000, 999, 1e-3, 0, true, 0},
		{"within tolerance", 1000, 999, 1e-16, mathTolerance, false, samples + 2},
		{"beyond tolerance", 1000, 999, 1e-12, mathTolerance, true, 0},
		{"one element", 1, 0, 1, 0, true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var r Result
			verify(&r, c.n, func(i int) (float64, float64) {
				want := float64(i) + 0.5
				if i == c.bad {
					return want * (1 + c.off), want
				}
				return want, want
			}, c.tol)
			if (r.Mismatch != "") != c.mismatch || r.Verified != c.verified {
				t.Fatalf("mismatch %q, verified %d; want mismatch %v, verified %d", r.Mismatch, r.Verified, c.mismatch, c.verified)
			}
		})
	}
}
