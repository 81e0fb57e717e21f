package main

import (
	"runtime"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/baseline"
	"github.com/nugo-dev/nugo/internal/cputime"
)

// BenchmarkVectorAdd compares, on the CPU backend, add's row loop as nugo
// gen wrote it in nugo_loops.go (kept current by `nugo gen -check`) with
// a plain Go loop split over the same number of goroutines
// (baseline.AddFloat32), on 2^24 float32 elements in host memory (issue
// 18: at most 1.2× the loop). Compare the cpu-ns/op of the two in one run.
func BenchmarkVectorAdd(b *testing.B) {
	const n = 1 << 24
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		b.Fatal(err)
	}
	x, y, z := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 1
	}
	baseline.AddFloat32(z, x, y, 0) // touch every page of z before either runs
	b.Run("kernel", func(b *testing.B) {
		k := cuda.Jit(add)
		cpu0 := cputime.Process()
		for b.Loop() {
			if err := k.Launch(cuda.Dim1(n/256), cuda.Dim1(256), x, y, z); err != nil {
				b.Fatal(err)
			}
		}
		cputime.Report(b, cpu0)
		b.SetBytes(3 * 4 * n)
	})
	b.Run("goroutines", func(b *testing.B) {
		cpu0 := cputime.Process()
		for b.Loop() {
			baseline.AddFloat32(z, x, y, runtime.GOMAXPROCS(0))
		}
		cputime.Report(b, cpu0)
		b.SetBytes(3 * 4 * n)
	})
	for i := range z {
		if z[i] != x[i]+y[i] {
			b.Fatalf("c[%d] = %v, want %v", i, z[i], x[i]+y[i])
		}
	}
}
