// Before is the newcomer program (bench/hostcode) written with nugo's API
// as it was before its host-code helpers: every step's error checked.
package main

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/bench/hostcode/newcomer"
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/vectorize"
)

func run() (string, error) {
	const n = 1 << 16
	x := make([]float32, n)
	for i := range x {
		x[i] = 1
	}
	dx, err := cuda.ToDevice(x)
	if err != nil {
		return "", err
	}
	dy, err := cuda.NewDeviceArray[float32](n)
	if err != nil {
		return "", err
	}
	blocks := (n + newcomer.TPB - 1) / newcomer.TPB
	if err := cuda.Jit(newcomer.Saxpy).Launch(cuda.Dim1(blocks), cuda.Dim1(newcomer.TPB), float32(2), dx, dy); err != nil {
		return "", err
	}
	y, err := dy.ToHost()
	if err != nil {
		return "", err
	}

	m := cuda.NewArray2[int32](30, 40)
	if err := cuda.Jit(newcomer.AddIndex).Launch(cuda.Dim2((40+15)/16, (30+15)/16), cuda.Dim2(16, 16), m); err != nil {
		return "", err
	}

	total := []float32{0}
	if err := cuda.Jit(newcomer.BlockSum).Launch(cuda.Dim1(blocks), cuda.Dim1(newcomer.TPB), dx, total); err != nil {
		return "", err
	}

	s, err := cuda.NewStream()
	if err != nil {
		return "", err
	}
	start, err := cuda.NewEvent()
	if err != nil {
		return "", err
	}
	end, err := cuda.NewEvent()
	if err != nil {
		return "", err
	}
	if err := start.Record(s); err != nil {
		return "", err
	}
	cfg := cuda.LaunchConfig{Grid: cuda.Dim1(blocks), Block: cuda.Dim1(newcomer.TPB), Stream: s}
	if err := cuda.Jit(newcomer.Saxpy).LaunchWith(cfg, float32(2), dx, dy); err != nil {
		return "", err
	}
	if err := end.Record(s); err != nil {
		return "", err
	}
	if err := s.Synchronize(); err != nil {
		return "", err
	}
	elapsed, err := cuda.ElapsedTime(start, end)
	if err != nil {
		return "", err
	}

	a := make([]float64, 10)
	for i := range a {
		a[i] = float64(i)
	}
	h, err := vectorize.New2(newcomer.Hypot2, vectorize.CUDA).Apply(a, a)
	if err != nil {
		return "", err
	}
	mavg, err := vectorize.GU("(n),()->(n)", newcomer.MovingAverage, vectorize.CUDA)
	if err != nil {
		return "", err
	}
	r := make([]float64, 20)
	for i := range r {
		r[i] = float64(i)
	}
	outs, err := mavg.Apply(vectorize.Of(r, 2, 10), int64(3))
	if err != nil {
		return "", err
	}
	avg := outs[0].(vectorize.Array[float64])
	return fmt.Sprint(y[0], m.At(2, 3), total[0], elapsed >= 0, h[3], avg.Data[:3]), nil
}

func main() {
	out, err := run()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out)
}
