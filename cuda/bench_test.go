package cuda

import (
	"runtime"
	"testing"

	"github.com/nugo-dev/nugo/internal/baseline"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/cputime"
)

func empty(t Thread, data []float32) {}

// BenchmarkCPULaunchEmpty measures the CPU backend's cost per thread: one
// launch of an empty kernel over 2^20 threads per iteration.
func BenchmarkCPULaunchEmpty(b *testing.B) {
	const n = 1 << 20
	k := Jit(empty)
	data := make([]float32, 1)
	for b.Loop() {
		if err := k.Launch(Dim1(n/256), Dim1(256), data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/thread")
}

func vectorAdd(t Thread, a, b, c []float32) {
	if i := t.Grid1(); i < len(c) {
		c[i] = a[i] + b[i]
	}
}

const vecN = 1 << 24

func vectors() (a, b, c []float32) {
	a, b, c = make([]float32, vecN), make([]float32, vecN), make([]float32, vecN)
	for i := range a {
		a[i], b[i] = float32(i), 1
	}
	return a, b, c
}

// vectorAdd's row loop, as nugo gen writes it for a kernel of a non-test
// file (examples/vectoradd's BenchmarkVectorAdd measures the loop nugo gen
// really wrote, which gen -check keeps current).
func init() {
	RegisterRowLoop(vectorAdd, func(args []any) RowLoop {
		a0, a1, a2 := args[0].([]float32), args[1].([]float32), args[2].([]float32)
		return func(r *Row) {
			for t, n := r.StartGrid1(); n > 0; t, n = r.More() {
				for {
					vectorAdd(t, a0, a1, a2)
					if n--; n == 0 {
						break
					}
					t = r.Next(t)
				}
			}
		}
	})
}

// BenchmarkVectorAdd compares the CPU backend with a plain Go loop split
// over the same number of goroutines, on 2^24 float32 elements: "kernel"
// runs the kernel's generated row loop (nugo gen), "kernel-percall" calls
// it through its func value once per thread, as without nugo gen.
func BenchmarkVectorAdd(b *testing.B) {
	x, y, z := vectors()
	for _, percall := range []bool{false, true} {
		name := "kernel"
		if percall {
			name = "kernel-percall"
		}
		b.Run(name, func(b *testing.B) {
			defer cpu.SetRowsDisabled(cpu.SetRowsDisabled(percall))
			k := Jit(vectorAdd)
			cpu0 := cputime.Process()
			for b.Loop() {
				if err := k.Launch(Dim1(vecN/256), Dim1(256), x, y, z); err != nil {
					b.Fatal(err)
				}
			}
			cputime.Report(b, cpu0)
			b.SetBytes(3 * 4 * vecN)
		})
	}
	b.Run("goroutines", func(b *testing.B) {
		cpu0 := cputime.Process()
		for b.Loop() {
			baseline.AddFloat32(z, x, y, runtime.GOMAXPROCS(0))
		}
		cputime.Report(b, cpu0)
		b.SetBytes(3 * 4 * vecN)
	})
}

func TestVectorAddMatchesLoop(t *testing.T) {
	x, y, z := vectors()
	if err := Jit(vectorAdd).Launch(Dim1(vecN/256), Dim1(256), x, y, z); err != nil {
		t.Fatal(err)
	}
	want := make([]float32, vecN)
	baseline.AddFloat32(want, x, y, 3)
	for i := range z {
		if z[i] != want[i] {
			t.Fatalf("c[%d] = %v, want %v", i, z[i], want[i])
		}
	}
}
