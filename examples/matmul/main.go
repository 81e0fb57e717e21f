// Matmul multiplies matrices with two kernels, as Numba's CUDA guide does:
// a plain one that reads every operand from global memory, and a fast one
// that stages 16×16 tiles of both operands in shared memory, so that each
// element is read from global memory once per tile instead of once per
// product term. Both give C = A·B for shapes that are not multiples of the
// tile size.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

// tpb is the tile size: threads per block in each dimension.
const tpb = 16

// matmul computes one element of c per thread.
func matmul(t cuda.Thread, a, b, c cuda.Array2[float32]) {
	i, j := t.Grid2()
	rows, cols := c.Shape()
	if i >= rows || j >= cols {
		return
	}
	_, k := a.Shape()
	var sum float32
	for p := 0; p < k; p++ {
		sum += a.At(i, p) * b.At(p, j)
	}
	c.Set(i, j, sum)
}

// fastMatmul computes the same product tile by tile: each thread of a
// tpb×tpb block loads one element of A's and one of B's tile into shared
// memory (zero past the edges), the block waits, and every thread sums its
// row of A's tile times its column of B's tile.
func fastMatmul(t cuda.Thread, a, b, c cuda.Array2[float32]) {
	sA := cuda.SharedArray[float32](t, tpb*tpb)
	sB := cuda.SharedArray[float32](t, tpb*tpb)
	i, j := t.Grid2()
	tid := t.ThreadIdx()
	tx, ty := tid.X, tid.Y
	rows, cols := c.Shape()
	_, k := a.Shape()
	var sum float32
	for tile := 0; tile < (k+tpb-1)/tpb; tile++ {
		var va, vb float32
		if p := tile*tpb + ty; i < rows && p < k {
			va = a.At(i, p)
		}
		if p := tile*tpb + tx; p < k && j < cols {
			vb = b.At(p, j)
		}
		sA[tx*tpb+ty] = va
		sB[tx*tpb+ty] = vb
		t.SyncThreads()
		for p := 0; p < tpb; p++ {
			sum += sA[tx*tpb+p] * sB[p*tpb+ty]
		}
		t.SyncThreads()
	}
	if i < rows && j < cols {
		c.Set(i, j, sum)
	}
}

// inputs returns A (n×k) and B (k×m) filled with small deterministic values.
func inputs(n, k, m int) (a, b cuda.Array2[float32]) {
	a, b = cuda.NewArray2[float32](n, k), cuda.NewArray2[float32](k, m)
	for i, d := 0, a.Data(); i < len(d); i++ {
		d[i] = float32(i%7) - 3
	}
	for i, d := 0, b.Data(); i < len(d); i++ {
		d[i] = float32(i%9) * 0.5
	}
	return a, b
}

// run multiplies an n×k by a k×m matrix with both kernels, keeping the
// operands on the device between the launches.
func run(n, k, m int) (plain, fast cuda.Array2[float32], err error) {
	a, b := inputs(n, k, m)
	da, err := cuda.ToDevice2(a)
	if err != nil {
		return plain, fast, err
	}
	defer da.Free()
	db, err := cuda.ToDevice2(b)
	if err != nil {
		return plain, fast, err
	}
	defer db.Free()
	block := cuda.Dim2(tpb, tpb)
	grid := cuda.Dim2((n+tpb-1)/tpb, (m+tpb-1)/tpb)
	for _, r := range []struct {
		kernel any
		out    *cuda.Array2[float32]
	}{{matmul, &plain}, {fastMatmul, &fast}} {
		dc, err := cuda.NewDeviceArray[float32](n, m)
		if err != nil {
			return plain, fast, err
		}
		err = cuda.Jit(r.kernel).Launch(grid, block, da, db, dc)
		if err == nil {
			*r.out = cuda.NewArray2[float32](n, m)
			err = dc.CopyToHost(r.out.Data())
		}
		dc.Free()
		if err != nil {
			return plain, fast, err
		}
	}
	return plain, fast, nil
}

func main() {
	plain, fast, err := run(70, 50, 40)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("C[0,0] =", plain.At(0, 0), "C[69,39] =", plain.At(69, 39))
	same := true
	for i, v := range plain.Data() {
		same = same && fast.Data()[i] == v
	}
	fmt.Println("the tiled kernel gives the same product:", same)
}
