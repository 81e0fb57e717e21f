// Vectorize turns scalar Go functions into array functions (Numba's
// @vectorize): element-wise calls on slices and 2-D arrays with
// broadcasting, one generic function for several element types, a
// reduction and an outer product, on the parallel and cuda targets.
package main

//go:generate go tool nugo gen

import (
	"fmt"
	"log"
	"math"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/vectorize"
)

// add is one scalar function for every numeric type.
func add[T cuda.Number](x, y T) T { return x + y }

// hypot is a scalar function of two float64.
func hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }

// results is what the example computes, for its test.
type results struct {
	sum32    []float32
	sum64    []int64
	hyp      vectorize.Array[float64]
	total    int64
	table    vectorize.Array[int64]
	scaled   []float64
	colSums  vectorize.Array[float64]
	onDevice []float32
}

func run() (results, error) {
	var r results
	var err error

	// The same operation instantiated for two element types.
	add32 := vectorize.New2(add[float32], vectorize.Parallel)
	add64 := vectorize.New2(add[int64]).WithIdentity(0)
	if r.sum32, err = add32.Apply([]float32{1, 2, 3, 4}, []float32{10, 20, 30, 40}); err != nil {
		return r, err
	}
	if r.sum64, err = add64.Apply([]int64{1, 2, 3, 4}, []int64{100}); err != nil { // length 1 broadcasts
		return r, err
	}

	// A 2×3 array against a row of 3: the row is broadcast to every row.
	m := cuda.NewArray2[float64](2, 3)
	copy(m.Data(), []float64{3, 5, 8, 6, 12, 15})
	if r.hyp, err = vectorize.New2(hypot).Call(vectorize.Array2(m), vectorize.Slice([]float64{4, 12, 6})); err != nil {
		return r, err
	}

	// A reduction, an outer product and a scalar operand.
	if r.total, err = vectorize.Reduce(add64, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}); err != nil {
		return r, err
	}
	if r.table, err = add64.Outer(vectorize.Slice([]int64{0, 10, 20}), vectorize.Slice([]int64{1, 2, 3})); err != nil {
		return r, err
	}
	scale := vectorize.New2(func(x, k float64) float64 { return x * k }, vectorize.Name("scale"))
	if r.scaled, err = scale.Apply([]float64{1, 2, 3}, []float64{0.5}); err != nil {
		return r, err
	}
	if r.colSums, err = vectorize.ReduceAxis(vectorize.New2(add[float64]), vectorize.Array2(m), 0); err != nil {
		return r, err
	}

	// The cuda target: device arrays stay on the device.
	d, err := cuda.ToDevice([]float32{1, 2, 3})
	if err != nil {
		return r, err
	}
	defer d.Free()
	out, err := cuda.DeviceArrayLike([]float32{0, 0, 0})
	if err != nil {
		return r, err
	}
	defer out.Free()
	if err := vectorize.New2(add[float32], vectorize.CUDA).CallInto(vectorize.Device(out), vectorize.Device(d), vectorize.Scalar[float32](0.5)); err != nil {
		return r, err
	}
	r.onDevice, err = out.ToHost()
	return r, err
}

func main() {
	r, err := run()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("add[float32]:          ", r.sum32)
	fmt.Println("add[int64], broadcast: ", r.sum64)
	fmt.Println("hypot, 2×3 with a row: ", r.hyp.Data, "shape", r.hyp.Shape)
	fmt.Println("sum of 1..10:          ", r.total)
	fmt.Println("outer add:             ", r.table.Data, "shape", r.table.Shape)
	fmt.Println("scale by 0.5:          ", r.scaled)
	fmt.Println("column sums:           ", r.colSums.Data)
	fmt.Println("on the device (cuda):  ", r.onDevice)
}
