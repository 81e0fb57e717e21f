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
