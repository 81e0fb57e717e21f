// Gonum multiplies two gonum matrices (gonum.org/v1/gonum/mat) with a
// nugo kernel and checks the product against gonum's own Mul: the
// matrices go to the device straight from their memory and the product
// comes back into a *mat.Dense (package gonumcuda).
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/gonumcuda"
)

// matmul computes c = a·b, one thread per element of c.
func matmul(t cuda.Thread, a, b, c cuda.Array2[float64]) {
	i, j := t.Grid2()
	n, m := c.Shape()
	if i >= n || j >= m {
		return
	}
	_, inner := a.Shape()
	sum := 0.0
	for k := range inner {
		sum += a.At(i, k) * b.At(k, j)
	}
	c.Set(i, j, sum)
}

// multiply computes a·b on the current backend.
func multiply(a, b *mat.Dense) (*mat.Dense, error) {
	n, _ := a.Dims()
	_, m := b.Dims()
	da, err := gonumcuda.ToDevice(a)
	if err != nil {
		return nil, err
	}
	defer da.Free()
	db, err := gonumcuda.ToDevice(b)
	if err != nil {
		return nil, err
	}
	defer db.Free()
	dc, err := cuda.NewDeviceArray[float64](n, m)
	if err != nil {
		return nil, err
	}
	defer dc.Free()
	grid := cuda.Dim2((n+15)/16, (m+15)/16)
	if err := cuda.Jit(matmul).Launch(grid, cuda.Dim2(16, 16), da, db, dc); err != nil {
		return nil, err
	}
	return gonumcuda.FromDevice(dc)
}

// inputs are two matrices of the given shapes with reproducible values.
func inputs(n, k, m int) (a, b *mat.Dense) {
	a, b = mat.NewDense(n, k, nil), mat.NewDense(k, m, nil)
	for i := range n {
		for j := range k {
			a.Set(i, j, math.Sin(float64(i*k+j)))
		}
	}
	for i := range k {
		for j := range m {
			b.Set(i, j, math.Cos(float64(i*m+j)))
		}
	}
	return a, b
}

// maxRelDiff is the largest |x-y| / max(1, |y|) over the elements.
func maxRelDiff(x, y *mat.Dense) float64 {
	r, c := y.Dims()
	worst := 0.0
	for i := range r {
		for j := range c {
			worst = max(worst, math.Abs(x.At(i, j)-y.At(i, j))/max(1, math.Abs(y.At(i, j))))
		}
	}
	return worst
}

func main() {
	a, b := inputs(100, 70, 90)
	c, err := multiply(a, b)
	if err != nil {
		log.Fatal(err)
	}
	var want mat.Dense
	want.Mul(a, b)
	fmt.Printf("c = a·b, %d×%d: c[0][0] = %.6f, c[99][89] = %.6f; largest relative difference from gonum's Mul %.1e\n",
		100, 90, c.At(0, 0), c.At(99, 89), maxRelDiff(c, &want))
}
