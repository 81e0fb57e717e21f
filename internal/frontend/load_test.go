package frontend_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/frontend"
)

func TestLoadFunc(t *testing.T) {
	cases := []struct{ corpus, name string }{
		{"slices/increment", "sliceIncrement"},
		{"funcs/generic_int16", "funcGeneric[int16]"},
		{"types/arith_float32", "typesArith[float32]"},
		{"arrays/add2d", "array2Add"},
		{"packages/calls", "pkgCalls"},
		{"packages/generic_named", "pkgGeneric[devlib.Real]"},
	}
	for _, c := range cases {
		cs, ok := corpus.Lookup(c.corpus)
		if !ok {
			t.Fatalf("no corpus case %s", c.corpus)
		}
		k, err := frontend.LoadFunc(cs.Kernel)
		if err != nil {
			t.Fatalf("%s: %v", c.corpus, err)
		}
		if k.Name != c.name {
			t.Errorf("%s: Name = %q, want %q", c.corpus, k.Name, c.name)
		}
		if k.Func == nil || len(k.Func.Blocks) == 0 {
			t.Errorf("%s: no SSA body", c.corpus)
		}
		if generic := strings.Contains(c.name, "["); generic != (len(k.Func.TypeArgs()) > 0) {
			t.Errorf("%s: SSA function has type arguments %v", c.corpus, k.Func.TypeArgs())
		}
	}
}

func TestLoadFuncRefusesClosures(t *testing.T) {
	_, err := frontend.LoadFunc(func(t cuda.Thread, a []int) {})
	if err == nil || !strings.Contains(err.Error(), "top-level function") {
		t.Fatalf("got %v, want an error asking for a top-level function", err)
	}
	_, err = frontend.LoadFunc(42)
	if err == nil || !strings.Contains(err.Error(), "func value") {
		t.Fatalf("got %v, want an error about a func value", err)
	}
}

// TestLoadDir loads a kernel from a package whose host code uses packages a
// kernel may not: pruning must keep the host code out of the check.
func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	src := `package main

import (
	"fmt"
	"os"

	"github.com/nugo-dev/nugo/cuda"
)

const factor = 3

type vec []float32

func scale[T cuda.Float](x T) T { return x * factor }

func kern[T cuda.Float](t cuda.Thread, a []T) {
	if i := t.Grid1(); i < len(a) {
		a[i] = scale(a[i])
	}
}

func plain(t cuda.Thread, a []int32) {
	if i := t.Grid1(); i < len(a) {
		a[i] = factor
	}
}

func main() {
	fmt.Fprintln(os.Stderr, vec{1})
}
`
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken_test.go"), []byte("package main\nthis is not Go"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"plain", "kern[float32]", "kern[float64]"} {
		k, err := frontend.LoadDir(dir, name)
		if err != nil {
			t.Fatalf("LoadDir %s: %v", name, err)
		}
		if k.Name != name {
			t.Errorf("Name = %q, want %q", k.Name, name)
		}
	}
	if _, err := frontend.LoadDir(dir, "kern"); err == nil || !strings.Contains(err.Error(), "generic") {
		t.Errorf("generic kernel without type arguments: got %v", err)
	}
	if _, err := frontend.LoadDir(dir, "missing"); err == nil || !strings.Contains(err.Error(), "no function missing") {
		t.Errorf("missing kernel: got %v", err)
	}
}

// BenchmarkLoadExamples measures parse + check + SSA of the examples'
// kernels (the parse cache is warm after the first iteration, as it is for
// a program's second kernel).
func BenchmarkLoadExamples(b *testing.B) {
	kernels := []struct{ dir, name string }{
		{"increment", "increment"}, {"vectoradd", "add"}, {"add2d", "increment2D"},
		{"logs", "logs"}, {"movingavg", "movingAverage"}, {"primes", "factorSums"},
	}
	for _, k := range kernels {
		dir := filepath.Join("..", "..", "examples", k.dir)
		b.Run(k.dir, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := frontend.LoadDir(dir, k.name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
