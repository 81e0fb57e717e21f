package vectorize

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

func TestTargetChoice(t *testing.T) {
	b, err := cuda.CurrentBackend()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		target Target
		device bool
		want   Target
	}{
		{Auto, false, Parallel}, // no backend that runs the CUDA target on a GPU yet
		{Auto, true, CUDA},      // device operands run where they are
		{CPU, false, CPU},
		{Parallel, false, Parallel},
		{CUDA, false, CUDA},
		{"", false, Parallel},
	}
	for _, c := range cases {
		if b != cuda.CPU {
			break // the choices below are those of the cpu backend
		}
		u := New1(func(x float64) float64 { return x }, c.target)
		got, err := u.cfg.resolve(c.device)
		if err != nil || got != c.want {
			t.Errorf("target %q, device %v: got %q, %v; want %q", c.target, c.device, got, err, c.want)
		}
	}
	if New2(addI, CPU).Target() != CPU || New2(addI).Target() != Auto {
		t.Error("Target() does not report the option")
	}
}

type celsius float64

func warmer(x celsius) celsius { return x + 1 }

// TestCUDATargetOnCompiledBackends checks which functions the CUDA target
// takes on each backend, and the error it gives for the others.
func TestCUDATargetOnCompiledBackends(t *testing.T) {
	g := mustGU(t, "(n),()->(n)", movingAverage)
	cases := []struct {
		backend cuda.Backend
		cfg     config
		want    string // "" when it runs
	}{
		{cuda.CPU, New1(func(x float64) float64 { return x }).cfg, ""},
		{cuda.CPU, g.cfg, ""},
		{cuda.GPU, New2(addI).cfg, ""},
		{cuda.PTXSim, New3(axpy[float32]).cfg, ""},
		{cuda.GPU, New1(func(x float64) float64 { return x }).cfg, "pass a top-level function"},
		{cuda.PTXSim, New1(warmer).cfg, "named type"},
		{cuda.GPU, g.cfg, ""},
		{cuda.PTXSim, g.cfg, ""},
		{cuda.GPU, mustGU(t, "(m,n),(n,p)->(m,p)", matmul).cfg, ""},
		{cuda.PTXSim, mustGU(t, "(a,b,c)->()", sum3).cfg, ""},
		{cuda.GPU, mustGU(t, "(n)->(n)", warm).cfg, "named types"},
	}
	for _, c := range cases {
		err := cudaTargetRuns(c.backend, c.cfg.compiled)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s backend, %s: %v", c.backend, c.cfg.name, err)
			}
			continue
		}
		if !errors.Is(err, ErrTargetUnavailable) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), string(c.backend)) || !strings.Contains(err.Error(), "target parallel") {
			t.Errorf("%s backend, %s: %v; want ErrTargetUnavailable saying %q", c.backend, c.cfg.name, err, c.want)
		}
	}
}

func TestNames(t *testing.T) {
	if n := New2(addI).Name(); n != "addI" {
		t.Errorf("Name() = %q, want addI", n)
	}
	if n := New3(axpy[float32]).Name(); n != "axpy" {
		t.Errorf("Name() of a generic instantiation = %q, want axpy", n)
	}
	if n := New1(func(x int) int { return x }, Name("id")).Name(); n != "id" {
		t.Errorf("Name() = %q, want id", n)
	}
	g := mustGU(t, "(n),()->(n)", movingAverage)
	if g.Name() != "movingAverage" || g.Layout() != "(n),()->(n)" {
		t.Errorf("GU Name, Layout = %q, %q", g.Name(), g.Layout())
	}
}
