package vectorize

import (
	"runtime"
	"sync"
	"testing"

	"github.com/nugo-dev/nugo/internal/baseline"
)

const benchN = 10_000_000

func addF32(x, y float32) float32 { return x + y }

// addF32Looped is addF32 with a compiled loop, registered below exactly as
// `nugo gen` writes it (less the package qualifier, inside the package).
func addF32Looped(x, y float32) float32 { return x + y }

func init() {
	RegisterLoop2(addF32Looped, func(out []float32, a []float32, b []float32) {
		a, b = a[:len(out)], b[:len(out)]
		for i := range out {
			out[i] = addF32Looped(a[i], b[i])
		}
	})
}

func benchInputs() (a, b, out []float32) {
	a, b, out = make([]float32, benchN), make([]float32, benchN), make([]float32, benchN)
	for i := range a {
		a[i], b[i] = float32(i), float32(2*i)
	}
	return
}

// BenchmarkAddFloat32 is the figure: c = a + b on 10^7 float32
// with the ufunc's targets, against a hand-written loop on GOMAXPROCS
// goroutines (BenchmarkAddFloat32/goroutines). The registered-* runs are
// the CPU and Parallel targets of a function with a compiled loop (see
// RegisterLoop2), whose call of the function is inlined.
func BenchmarkAddFloat32(b *testing.B) {
	x, y, out := benchInputs()
	for _, t := range targets { // cuda: through package cuda's cpu backend
		add := New2(addF32, t)
		b.Run(string(t), func(b *testing.B) {
			b.SetBytes(3 * 4 * benchN)
			for b.Loop() {
				if err := add.Into(out, x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, t := range []Target{CPU, Parallel} {
		add := New2(addF32Looped, t)
		b.Run("registered-"+string(t), func(b *testing.B) {
			b.SetBytes(3 * 4 * benchN)
			for b.Loop() {
				if err := add.Into(out, x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("goroutines", func(b *testing.B) {
		b.SetBytes(3 * 4 * benchN)
		for b.Loop() {
			baseline.AddFloat32(out, x, y, 0)
		}
	})
	// The same loop calling the scalar function through a func value, as
	// any loop over a function that is not known at compile time must: the
	// part of the gap to "goroutines" that is the call, not vectorize.
	f := addF32
	b.Run("goroutines-funcvalue", func(b *testing.B) {
		b.SetBytes(3 * 4 * benchN)
		for b.Loop() {
			handApply(f, out, x, y)
		}
	})
}

// handApply is baseline.AddFloat32 calling f through a func value.
func handApply(f func(x, y float32) float32, out, x, y []float32) {
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for i := range w {
		lo, hi := i*len(out)/w, (i+1)*len(out)/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			o, a, b := out[lo:hi], x[lo:hi], y[lo:hi]
			for j := range o {
				o[j] = f(a[j], b[j])
			}
		}()
	}
	wg.Wait()
}

// benchWidth is a variable so that the direct loop is not specialized for
// a constant width.
var benchWidth int64 = 3

// BenchmarkMovingAverage is the gufunc's moving average of width 3 over
// 1000 rows of 1000 float64, against calling the function on each row in a
// plain loop (direct): the difference is the gufunc's per-row cost.
func BenchmarkMovingAverage(b *testing.B) {
	const rows, cols = 1000, 1000
	x, out := ramp[float64](rows*cols, 1, 0), make([]float64, rows*cols)
	for _, t := range []Target{CPU, Parallel} {
		g, err := GU("(n),()->(n)", movingAverage, t)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(string(t), func(b *testing.B) {
			for b.Loop() {
				if err := g.Into(Of(x, rows, cols), benchWidth, Of(out, rows, cols)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			for r := range rows {
				movingAverage(x[r*cols:(r+1)*cols], benchWidth, out[r*cols:(r+1)*cols])
			}
		}
	})
}

// sumF64 and sumF64Folded are the same sum; sumF64Folded has a compiled
// fold and scan, registered below exactly as `nugo gen` writes them (less
// the package qualifier).
func sumF64(x, y float64) float64       { return x + y }
func sumF64Folded(x, y float64) float64 { return x + y }

func init() {
	RegisterFold(sumF64Folded, func(acc float64, x []float64) float64 {
		for _, v := range x {
			acc = sumF64Folded(acc, v)
		}
		return acc
	})
	RegisterScan(sumF64Folded, func(acc float64, x []float64, out []float64) float64 {
		x = x[:len(out)]
		for i, v := range x {
			acc = sumF64Folded(acc, v)
			out[i] = acc
		}
		return acc
	})
}

// benchFloats is benchN float64 for the reductions.
func benchFloats() []float64 {
	x := make([]float64, benchN)
	for i := range x {
		x[i] = float64(i%1000) * 0.5
	}
	return x
}

// sink keeps reduction results alive.
var sink float64

// BenchmarkReduce sums 10^7 float64 with Reduce on the CPU and Parallel
// targets, without a compiled fold (the function called through a func
// value per element) and with one (registered-*), against a hand-written
// loop (loop: the same strict left sum as the CPU target) and the same
// loop on GOMAXPROCS goroutines (goroutines).
func BenchmarkReduce(b *testing.B) {
	x := benchFloats()
	for _, c := range []struct {
		name string
		u    *Ufunc2[float64, float64, float64]
	}{
		{"cpu", New2(sumF64, CPU)},
		{"registered-cpu", New2(sumF64Folded, CPU)},
		{"parallel", New2(sumF64, Parallel)},
		{"registered-parallel", New2(sumF64Folded, Parallel)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(8 * benchN)
			for b.Loop() {
				r, err := Reduce(c.u, x)
				if err != nil {
					b.Fatal(err)
				}
				sink = r
			}
		})
	}
	b.Run("loop", func(b *testing.B) {
		b.SetBytes(8 * benchN)
		for b.Loop() {
			sink = handSum(x)
		}
	})
	b.Run("goroutines", func(b *testing.B) {
		b.SetBytes(8 * benchN)
		w := runtime.GOMAXPROCS(0)
		partial := make([]float64, w)
		for b.Loop() {
			var wg sync.WaitGroup
			for i := range w {
				wg.Go(func() { partial[i] = handSum(x[i*len(x)/w : (i+1)*len(x)/w]) })
			}
			wg.Wait()
			sink = handSum(partial)
		}
	})
}

// handSum and handScan are the hand-written loops of the reductions. They
// are not inlined into the benchmarks' b.Loop bodies, where the compiler
// keeps values alive in ways that slow a loop down.
//
//go:noinline
func handSum(x []float64) float64 {
	acc := x[0]
	for _, v := range x[1:] {
		acc += v
	}
	return acc
}

//go:noinline
func handScan(x []float64) []float64 {
	out := make([]float64, len(x))
	acc := x[0]
	out[0] = acc
	for i, v := range x[1:] {
		acc += v
		out[i+1] = acc
	}
	return out
}

// BenchmarkAccumulate is the running sum of 10^7 float64 (a new slice per
// call, as Accumulate returns) on the CPU target without and with a
// compiled scan, against a hand-written loop that allocates its output
// too. Accumulate of a 1-D slice is sequential on every host target.
func BenchmarkAccumulate(b *testing.B) {
	x := benchFloats()
	for _, c := range []struct {
		name string
		u    *Ufunc2[float64, float64, float64]
	}{
		{"cpu", New2(sumF64, CPU)},
		{"registered-cpu", New2(sumF64Folded, CPU)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(16 * benchN)
			for b.Loop() {
				r, err := Accumulate(c.u, x)
				if err != nil {
					b.Fatal(err)
				}
				sink = r[len(r)-1]
			}
		})
	}
	b.Run("loop", func(b *testing.B) {
		b.SetBytes(16 * benchN)
		for b.Loop() {
			out := handScan(x)
			sink = out[len(out)-1]
		}
	})
}
