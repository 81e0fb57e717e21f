package vectorize_test

import (
	"fmt"

	"github.com/nugo-dev/nugo/vectorize"
)

func addF32(x, y float32) float32 { return x + y }

// What `nugo gen` writes for addF32, in a file of its own in addF32's
// package: the loop calls addF32 directly, so the compiler inlines it.
func init() {
	vectorize.RegisterLoop2(addF32, func(out []float32, a []float32, b []float32) {
		a, b = a[:len(out)], b[:len(out)]
		for i := range out {
			out[i] = addF32(a[i], b[i])
		}
	})
}

func ExampleRegisterLoop2() {
	add := vectorize.New2(addF32, vectorize.Parallel)

	// Contiguous operands: the compiled loop.
	sum, err := add.Apply([]float32{1, 2, 3}, []float32{10, 20, 30})
	fmt.Println(sum, err)

	// A broadcast operand: the func-value loop, with the same results.
	sum, err = add.Apply([]float32{1, 2, 3}, []float32{100})
	fmt.Println(sum, err)
	// Output:
	// [11 22 33] <nil>
	// [101 102 103] <nil>
}

func maxI64(x, y int64) int64 { return max(x, y) }

// What `nugo gen` writes for maxI64, whose operands and result are one
// type: its element loop (not shown) and its fold and scan, which call
// maxI64 directly.
func init() {
	vectorize.RegisterFold(maxI64, func(acc int64, x []int64) int64 {
		for _, v := range x {
			acc = maxI64(acc, v)
		}
		return acc
	})
	vectorize.RegisterScan(maxI64, func(acc int64, x []int64, out []int64) int64 {
		x = x[:len(out)]
		for i, v := range x {
			acc = maxI64(acc, v)
			out[i] = acc
		}
		return acc
	})
}

func ExampleRegisterFold() {
	u := vectorize.New2(maxI64, vectorize.CPU)
	x := []int64{3, 1, 4, 1, 5, 9, 2, 6}

	// The compiled fold and scan: the same calls of maxI64, in the same
	// order, as without them.
	m, err := vectorize.Reduce(u, x)
	fmt.Println(m, err)
	run, err := vectorize.Accumulate(u, x)
	fmt.Println(run, err)

	// Along the last axis, each row is one run of the fold.
	rows, err := vectorize.ReduceAxis(u, vectorize.Of(x, 2, 4), 1)
	fmt.Println(rows.Data, err)
	// Output:
	// 9 <nil>
	// [3 3 4 4 5 9 9 9] <nil>
	// [4 9] <nil>
}
