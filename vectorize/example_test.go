package vectorize_test

import (
	"fmt"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/vectorize"
)

func add[T cuda.Number](x, y T) T { return x + y }

func ExampleNew2() {
	add64 := vectorize.New2(add[float64])
	sum, err := add64.Apply([]float64{1, 2, 3}, []float64{10, 20, 30})
	fmt.Println(sum, err)

	// A 2×3 array plus a row, broadcast to every row.
	m, err := add64.Call(vectorize.Of([]float64{1, 2, 3, 4, 5, 6}, 2, 3), vectorize.Slice([]float64{100, 200, 300}))
	fmt.Println(m.Data, m.Shape, err)

	_, err = add64.Apply([]float64{1, 2, 3}, []float64{1, 2})
	fmt.Println(err)
	// Output:
	// [11 22 33] <nil>
	// [101 202 303 104 205 306] [2 3] <nil>
	// vectorize add: operands could not be broadcast together with shapes (3,) and (2,): shape mismatch
}

func ExampleReduce() {
	add := vectorize.New2(add[int]).WithIdentity(0)
	total, _ := vectorize.Reduce(add, []int{1, 2, 3, 4})
	running, _ := vectorize.Accumulate(add, []int{1, 2, 3, 4})
	empty, _ := vectorize.Reduce(add, nil)
	cols, _ := vectorize.ReduceAxis(add, vectorize.Of([]int{1, 2, 3, 4, 5, 6}, 2, 3), 0)
	table, _ := add.Outer(vectorize.Slice([]int{10, 20}), vectorize.Slice([]int{1, 2, 3}))
	fmt.Println(total, running, empty, cols.Data, table.Data, table.Shape)
	// Output: 10 [1 3 6 10] 0 [5 7 9] [11 12 13 21 22 23] [2 3]
}

func movingAverage(x []float64, width int64, out []float64) {
	w := int(width)
	for i := range x {
		lo, hi := max(0, i-w/2), min(len(x)-1, i+w/2)
		var s float64
		for j := lo; j <= hi; j++ {
			s += x[j]
		}
		out[i] = s / float64(hi-lo+1)
	}
}

func ExampleGU() {
	mavg, err := vectorize.GU("(n),()->(n)", movingAverage)
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float64, 6)
	err = mavg.Into([]float64{10, 20, 30, 40, 50, 60}, int64(3), out)
	fmt.Println(out, err)

	_, err = vectorize.GU("(n),(n)->(n)", movingAverage)
	fmt.Println(err)
	// Output:
	// [15 20 30 40 50 55] <nil>
	// vectorize.GU movingAverage: layout "(n),(n)->(n)": parameter 2 has type int64, but input 2 (n) takes a slice of numbers, complexes or bools
}
