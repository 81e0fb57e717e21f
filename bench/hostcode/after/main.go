// After is the newcomer program (bench/hostcode) written with nugo's
// host-code helpers: cuda.GridFor, cuda.Time, vectorize.Apply1, and
// cuda.Must/Check, which stop the program on an error as the Numba program
// does.
package main

import (
	"fmt"

	"github.com/nugo-dev/nugo/bench/hostcode/newcomer"
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/vectorize"
)

func run() string {
	const n = 1 << 16
	x := make([]float32, n)
	for i := range x {
		x[i] = 1
	}
	dx := cuda.Must(cuda.ToDevice(x))
	dy := cuda.Must(cuda.NewDeviceArray[float32](n))
	grid, block := cuda.GridFor(cuda.Dim1(n), cuda.Dim1(newcomer.TPB)), cuda.Dim1(newcomer.TPB)
	cuda.Check(cuda.Jit(newcomer.Saxpy).Launch(grid, block, float32(2), dx, dy))
	y := cuda.Must(dy.ToHost())

	m := cuda.NewArray2[int32](30, 40)
	cuda.Check(cuda.Jit(newcomer.AddIndex).Launch(cuda.GridFor(cuda.Dim2(40, 30), cuda.Dim2(16, 16)), cuda.Dim2(16, 16), m))

	total := []float32{0}
	cuda.Check(cuda.Jit(newcomer.BlockSum).Launch(grid, block, dx, total))

	s := cuda.Must(cuda.NewStream())
	cfg := cuda.LaunchConfig{Grid: grid, Block: block, Stream: s}
	elapsed := cuda.Must(cuda.Time(s, func() error { return cuda.Jit(newcomer.Saxpy).LaunchWith(cfg, float32(2), dx, dy) }))

	a := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	h := cuda.Must(vectorize.New2(newcomer.Hypot2, vectorize.CUDA).Apply(a, a))
	mavg := cuda.Must(vectorize.GU("(n),()->(n)", newcomer.MovingAverage, vectorize.CUDA))
	r := make([]float64, 20)
	for i := range r {
		r[i] = float64(i)
	}
	avg := cuda.Must(vectorize.Apply1[float64](mavg, vectorize.Of(r, 2, 10), int64(3)))
	return fmt.Sprint(y[0], m.At(2, 3), total[0], elapsed >= 0, h[3], avg.Data[:3])
}

func main() {
	fmt.Println(run())
}
