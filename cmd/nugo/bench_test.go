package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/workloads"
)

func resetBackend(t *testing.T) {
	t.Cleanup(func() { _ = cuda.SetBackend(cuda.CPU) })
}

// nugo bench on the CPU and ptxsim: one row per workload, in the order
// asked, each checked against the host reference.
func TestBenchTable(t *testing.T) {
	resetBackend(t)
	for _, be := range []string{"cpu", "ptxsim"} {
		t.Run(be, func(t *testing.T) {
			var out bytes.Buffer
			if err := bench(&out, []string{"-backend", be, "-n", "400", "-reps", "3"}); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
			if !strings.HasPrefix(lines[0], "backend "+be+", ") || !strings.Contains(lines[0], "median of 3 ") {
				t.Fatalf("first line %q", lines[0])
			}
			if lines[1] != "" {
				t.Fatalf("no blank line after the heading:\n%s", out.String())
			}
			header := strings.Fields(lines[2])
			if want := []string{"workload", "size", "kernel", "first", "launch", "host", "launch", "throughput", "bandwidth", "result"}; !slices.Equal(header, want) {
				t.Fatalf("header %q, want %q", header, want)
			}
			rows := lines[3:]
			if len(rows) != len(workloads.Names) {
				t.Fatalf("%d rows, want %d:\n%s", len(rows), len(workloads.Names), out.String())
			}
			// tabwriter aligns runes (µs is one), so columns are rune offsets.
			col := len([]rune(lines[2][:strings.Index(lines[2], "result")]))
			for i, row := range rows {
				f := strings.Fields(row)
				want := workloads.Names[i]
				size := "400"
				switch want {
				case "logs":
					size = "20x20"
				}
				if f[0] != want || f[1] != size {
					t.Errorf("row %d starts %q, want %s %s", i, f[:2], want, size)
				}
				if len([]rune(row)) < col {
					t.Fatalf("row %q ends before the result column", row)
				}
				result := string([]rune(row)[col:])
				switch {
				case want == "d2d":
					if result != "not checked (a copy)" || !strings.Contains(row, "B/s") {
						t.Errorf("d2d row %q", row)
					}
				case !strings.HasPrefix(result, "ok (256 samples), checksum "):
					t.Errorf("%s: result %q", want, result)
				case want == "primes" && !strings.Contains(row, " - "):
					t.Errorf("primes (compute-bound) shows a bandwidth: %q", row)
				case want != "primes" && !strings.Contains(row, "B/s"):
					t.Errorf("%s (memory-bound) shows no bandwidth: %q", want, row)
				}
				if !strings.Contains(row, "elem/s") {
					t.Errorf("%s: no throughput in %q", want, row)
				}
			}
		})
	}
}

// -json prints bench/gpu's schema, one line per workload asked for, and
// the checksums agree between the backends and with bench/gpu's test.
func TestBenchJSON(t *testing.T) {
	resetBackend(t)
	keys := []string{"bytes", "check", "first_ms", "impl", "kernel_ms", "launch_us", "n", "workload"}
	checks := map[string]string{}
	for _, be := range []string{"cpu", "ptxsim"} {
		var out bytes.Buffer
		if err := bench(&out, []string{"-backend", be, "-workload", "primes,vecadd,logs,d2d", "-n", "3000", "-reps", "2", "-json"}); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		if len(lines) != 4 {
			t.Fatalf("%s: %d lines, want 4:\n%s", be, len(lines), out.String())
		}
		for i, line := range lines {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: line %q: %v", be, line, err)
			}
			got := make([]string, 0, len(m))
			for k := range m {
				got = append(got, k)
			}
			slices.Sort(got)
			if !slices.Equal(got, keys) {
				t.Fatalf("%s: keys %q, want %q", be, got, keys)
			}
			var r workloads.Result
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			if want := []string{"primes", "vecadd", "logs", "d2d"}[i]; r.Workload != want || r.Impl != "nugo" || r.KernelMS <= 0 {
				t.Errorf("%s: line %d %+v, want workload %s", be, i, r, want)
			}
			if prev, ok := checks[r.Workload]; ok && prev != r.Check {
				t.Errorf("%s: checksum %s on %s, %s on the CPU", r.Workload, r.Check, be, prev)
			}
			checks[r.Workload] = r.Check
		}
	}
	// Sizes as bench/gpu's test has them: logs is 54x54 for -n 3000.
	if checks["primes"] != "1082773" || checks["vecadd"] != "3.00155e+06" || checks["d2d"] != "-" {
		t.Errorf("checksums %v", checks)
	}
}

// A failed or wrong workload shows in the table and in the JSON line.
func TestBenchReportsFailures(t *testing.T) {
	rows := []benchRow{
		{Result: workloads.Result{Workload: "vecadd", N: 10, KernelMS: 1, FirstMS: 2, LaunchUS: 3, Bytes: 120, Elements: 10, Check: "1", Mismatch: "element 3 is 1, want 2"}},
		{Result: workloads.Result{Workload: "logs", N: 4}, err: errors.New("out of memory")},
	}
	var out bytes.Buffer
	if err := writeBenchTable(&out, cuda.CPU, 5, rows); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"WRONG: element 3 is 1, want 2", "\nlogs      4x4   -       -             -   ", "failed: out of memory", "10 k elem/s", "120 kB/s"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	for _, r := range rows {
		if err := writeJSON(&out, r); err != nil {
			t.Fatal(err)
		}
	}
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, m)
	}
	want := []map[string]any{
		{"impl": "nugo", "workload": "vecadd", "n": 10.0, "error": "output differs from the host reference: element 3 is 1, want 2"},
		{"impl": "nugo", "workload": "logs", "n": 4.0, "error": "out of memory"},
	}
	if !reflect.DeepEqual(lines, want) {
		t.Errorf("JSON lines %v, want %v", lines, want)
	}
}

func TestBenchUnits(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{fmtMS(2500), "2.5 s"}, {fmtMS(12.34), "12.3 ms"}, {fmtMS(0.25), "250 µs"}, {fmtMS(0.0009), "0.9 µs"},
		{fmtUS(1500), "1.5 ms"}, {fmtUS(7), "7 µs"},
		{si(3.2e12), "3.2 T"}, {si(4e9), "4 G"}, {si(5.55e6), "5.55 M"}, {si(1000), "1 k"}, {si(12), "12 "},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestBenchSizes(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int
		be   cuda.Backend
		want int
	}{
		{"vecadd", 0, cuda.CPU, 1_000_000},
		{"vecadd", 0, cuda.PTXSim, 10_000},
		{"logs", 0, cuda.CPU, 1000},
		{"logs", 0, cuda.PTXSim, 100},
		{"logs", 100_000_000, cuda.GPU, 10_000},
		{"logs", 3, cuda.CPU, 1},
		{"primes", 77, cuda.GPU, 77},
	} {
		if got := benchSize(c.name, c.n, c.be); got != c.want {
			t.Errorf("benchSize(%s, %d, %s) = %d, want %d", c.name, c.n, c.be, got, c.want)
		}
	}
}

func TestBenchError(t *testing.T) {
	for _, c := range []struct {
		failed []string
		want   string
	}{
		{nil, ""},
		{[]string{"logs: out of memory"}, "logs: out of memory"},
		{[]string{"logs: a", "d2d: b"}, "2 of 7 workloads failed; the first: logs: a"},
	} {
		err := benchError(c.failed, 7)
		if (err == nil) != (c.want == "") || err != nil && err.Error() != c.want {
			t.Errorf("benchError(%q) = %v, want %q", c.failed, err, c.want)
		}
	}
}
