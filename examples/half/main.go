// Half computes y = a·x + y in half precision (cuda.Float16, Numba's
// float16 with cuda.fp16.hfma) and in float32, and compares them: half
// takes half the memory and keeps about three decimal digits.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

func axpyHalf(t cuda.Thread, a cuda.Float16, x, y []cuda.Float16) {
	if i := t.Grid1(); i < len(y) {
		y[i] = cuda.HFma(a, x[i], y[i])
	}
}

func axpy32(t cuda.Thread, a float32, x, y []float32) {
	if i := t.Grid1(); i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

// inputs are n values in [-4, 4), in float32 and rounded to half.
func inputs(n int, seed float64) ([]float32, []cuda.Float16) {
	f := make([]float32, n)
	h := make([]cuda.Float16, n)
	for i := range f {
		f[i] = float32(8*math.Mod(float64(i)*seed, 1) - 4)
		h[i] = cuda.F16(f[i])
	}
	return f, h
}

// result is the half result and the largest error against float32,
// relative to the largest magnitude.
type result struct {
	yh     []cuda.Float16
	y32    []float32
	maxErr float64
}

func run(n int) (result, error) {
	const a = 1.5
	x32, xh := inputs(n, 0.6180339887)
	y32, yh := inputs(n, 0.4142135623)
	block := cuda.Dim1(256)
	grid := cuda.Dim1((n + 255) / 256)
	if err := cuda.Jit(axpyHalf).Launch(grid, block, cuda.F16(a), xh, yh); err != nil {
		return result{}, err
	}
	if err := cuda.Jit(axpy32).Launch(grid, block, float32(a), x32, y32); err != nil {
		return result{}, err
	}
	r := result{yh: yh, y32: y32}
	for i := range y32 {
		r.maxErr = max(r.maxErr, math.Abs(yh[i].Float64()-float64(y32[i]))/10) // |y| <= 10
	}
	return r, nil
}

func main() {
	r, err := run(1 << 20)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("half:   ", r.yh[:4])
	fmt.Println("float32:", r.y32[:4])
	fmt.Printf("largest difference: %.2g of the range (half's epsilon is %.2g)\n", r.maxErr, math.Ldexp(1, -10))
}
