package corpus

import (
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/frontend"
)

func TestCorpusShape(t *testing.T) {
	all := All()
	if len(all) < 80 {
		t.Errorf("corpus has %d cases, want at least 80", len(all))
	}
	seen := map[string]bool{}
	for _, c := range all {
		if seen[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		seen[c.Name] = true
		if c.Kernel == nil || c.Args == nil || c.Grid.Size() == 0 || c.Block.Size() == 0 {
			t.Errorf("case %q is incomplete", c.Name)
		}
	}
	if _, ok := Lookup(all[0].Name); !ok {
		t.Errorf("Lookup(%q) failed", all[0].Name)
	}
}

// TestCorpusNative runs every case on the CPU backend twice with fresh
// inputs: the kernels must run without error and be deterministic, or they
// cannot serve as the reference of other engines.
func TestCorpusNative(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	for _, c := range All() {
		t.Run(c.Name, func(t *testing.T) {
			run := func() []any {
				args := c.Args()
				k := cuda.Jit(c.Kernel)
				err := k.LaunchWith(c.Config(), args...)
				if err != nil {
					t.Fatalf("launch: %v", err)
				}
				return args
			}
			a := run()
			if c.Printf {
				return
			}
			b := run()
			if err := Compare(a, b, 0); err != nil {
				t.Fatalf("two native runs differ: %v", err)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		want, got []any
		ulp       int
		errPart   string
	}{
		{[]any{[]float64{1, nan}}, []any{[]float64{1, nan}}, 0, ""},
		{[]any{[]float64{nan}}, []any{[]float64{math.Float64frombits(0xFFF8000000000000)}}, 0, ""},
		{[]any{[]float64{nan}}, []any{[]float64{1}}, 0, "element 0"},
		{[]any{[]float64{1}}, []any{[]float64{math.Nextafter(1, 2)}}, 0, "element 0"},
		{[]any{[]float64{1}}, []any{[]float64{math.Nextafter(1, 2)}}, 1, ""},
		{[]any{[]float32{0}}, []any{[]float32{float32(math.Copysign(0, -1))}}, 0, "element 0"},
		{[]any{[]int8{1, 2}}, []any{[]int8{1, 3}}, 0, "element 1"},
		{[]any{3, []bool{true}}, []any{3, []bool{true}}, 0, ""},
		{[]any{[]cuda.Float16{cuda.F16(1)}}, []any{[]cuda.Float16{cuda.F16(1)}}, 0, ""},
		{[]any{[]cuda.Float16{cuda.F16(1)}}, []any{[]cuda.Float16{cuda.HNeg(cuda.F16(1))}}, 0, "element 0"},
		{[]any{[]cuda.Float16{cuda.F16(0)}}, []any{[]cuda.Float16{cuda.HNeg(cuda.F16(0))}}, 0, "element 0"},
		{[]any{[]cuda.Float16{cuda.Float16FromBits(0x7FFF)}}, []any{[]cuda.Float16{cuda.Float16FromBits(0xFE01)}}, 0, ""},
		{[]any{[]cuda.Float16{cuda.Float16FromBits(0x3C00)}}, []any{[]cuda.Float16{cuda.Float16FromBits(0x3C01)}}, 0, "element 0"},
		{[]any{[]cuda.Float16{cuda.Float16FromBits(0x3C00)}}, []any{[]cuda.Float16{cuda.Float16FromBits(0x3C01)}}, 1, ""},
		{[]any{[]cuda.Float16{cuda.Float16FromBits(0x0001)}}, []any{[]cuda.Float16{cuda.Float16FromBits(0x8001)}}, 1, "element 0"},
		{[]any{[]cuda.Float16{cuda.Float16FromBits(0x7FFF)}}, []any{[]cuda.Float16{cuda.F16(1)}}, 5, "element 0"},
	}
	for i, c := range cases {
		err := Compare(c.want, c.got, c.ulp)
		switch {
		case c.errPart == "" && err != nil:
			t.Errorf("case %d: unexpected %v", i, err)
		case c.errPart != "" && (err == nil || !strings.Contains(err.Error(), c.errPart)):
			t.Errorf("case %d: got %v, want an error with %q", i, err, c.errPart)
		}
	}
}

// TestCorpusRowLoops runs every case on the CPU backend through the row
// loops nugo gen wrote (nugo_loops.go) and through per-thread calls: the
// results must be identical, and every kernel, generic instantiations
// included, must have its loop, or the file is stale.
func TestCorpusRowLoops(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	defer cpu.SetRowsDisabled(false)
	for _, c := range All() {
		t.Run(c.Name, func(t *testing.T) {
			cpu.SetRowsDisabled(false)
			fn := reflect.ValueOf(c.Kernel)
			rb, has := cpu.Rows(fn)
			if !has {
				t.Fatalf("kernel %s has no row loop (run go generate ./internal/corpus)", runtime.FuncForPC(fn.Pointer()).Name())
			}
			if _, block := rb.Bind.(func([]any) func() cuda.BlockLoop); block {
				// A block loop (barrier fission) is used only if made
				// from the kernel's current source.
				if h, found := frontend.DeclHash(c.Kernel, rb.Inlined...); !found || h != rb.Source {
					t.Fatalf("kernel %s: block loop made from source %s, the kernel's is %s (run go generate ./internal/corpus)", runtime.FuncForPC(fn.Pointer()).Name(), rb.Source, h)
				}
			}
			run := func(off bool) []any {
				cpu.SetRowsDisabled(off)
				args := c.Args()
				err := cuda.Jit(c.Kernel).LaunchWith(c.Config(), args...)
				if err != nil {
					t.Fatalf("launch (row loops off: %v): %v", off, err)
				}
				return args
			}
			loops, calls := run(false), run(true)
			if c.Printf {
				return
			}
			if err := Compare(loops, calls, 0); err != nil {
				t.Fatalf("row loop and per-thread calls differ: %v", err)
			}
		})
	}
}
