package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// nugo's 2-D and 3-D arrays.

func array2Add(t cuda.Thread, a, b, c cuda.Array2[float64]) {
	i, j := t.Grid2()
	rows, cols := c.Shape()
	if i < rows && j < cols {
		c.Set(i, j, a.At(i, j)+b.At(i, j))
	}
}

func array2Transpose(t cuda.Thread, in, out cuda.Array2[int32]) {
	i, j := t.Grid2()
	r, c := in.Shape()
	if i < r && j < c {
		out.Set(j, i, in.At(i, j)*2)
	}
}

func array2Logs(t cuda.Thread, a cuda.Array2[float32], out []float32) {
	i := t.Grid1()
	rows, cols := a.Shape()
	if i < rows {
		var s float32
		for j := 0; j < cols; j++ {
			s += a.At(i, j) * float32(j)
		}
		out[i] = s + float32(a.Len())
	}
}

func array3Sum(t cuda.Thread, a cuda.Array3[float64], out cuda.Array2[float64]) {
	i, j := t.Grid2()
	d0, d1, d2 := a.Shape()
	if i < d0 && j < d1 {
		var s float64
		for k := 0; k < d2; k++ {
			s += a.At(i, j, k)
			a.Set(i, j, k, -a.At(i, j, k))
		}
		out.Set(i, j, s)
	}
}

func array2Data(t cuda.Thread, a cuda.Array2[uint16]) {
	d := a.Data()
	if i := t.Grid1(); i < len(d) {
		d[i] = d[i]*3 + 1
	}
}

func arr2(rows, cols int, f func(i, j int) float64) cuda.Array2[float64] {
	data := make([]float64, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			data[i*cols+j] = f(i, j)
		}
	}
	a, _ := cuda.View2(data, rows, cols)
	return a
}

func arr2Of[T cuda.Number](rows, cols int) cuda.Array2[T] {
	data := make([]T, rows*cols)
	for i := range data {
		data[i] = T(i%97) - T(i%3)
	}
	a, _ := cuda.View2(data, rows, cols)
	return a
}

// array2BoolMask marks where x is over thr and m was not set, through a
// shared array of bools: Numba's boolean 2-D arrays and shared bools.
func array2BoolMask(t cuda.Thread, m cuda.Array2[bool], thr float32, x cuda.Array2[float32]) {
	i, j := t.Grid2()
	rows, cols := m.Shape()
	flags := cuda.SharedArray[bool](t, 256)
	tid := t.ThreadIdx().X + t.ThreadIdx().Y*t.BlockDim().X
	in := i < rows && j < cols
	if in {
		flags[tid] = x.At(i, j) > thr
	}
	t.SyncThreads()
	if in {
		m.Set(i, j, flags[tid] != m.At(i, j))
	}
}

var arrayCases = []Case{
	{Name: "arrays/bool_mask", Kernel: array2BoolMask, Grid: cuda.Dim2(3, 2), Block: cuda.Dim2(16, 16), Args: func() []any {
		rows, cols := 37, 21
		m := cuda.NewArray2[bool](rows, cols)
		x := cuda.NewArray2[float32](rows, cols)
		for i := range rows {
			for j := range cols {
				m.Set(i, j, (i+j)%3 == 0)
				x.Set(i, j, float32(i*j%17))
			}
		}
		return []any{m, float32(8.5), x}
	}},
	{Name: "arrays/add2d", Kernel: array2Add, Grid: cuda.Dim2(3, 2), Block: cuda.Dim2(16, 16), Args: func() []any {
		return []any{arr2(37, 21, func(i, j int) float64 { return float64(i) + 0.5*float64(j) }), arr2(37, 21, func(i, j int) float64 { return math.Sqrt(float64(i * j)) }), arr2(37, 21, func(i, j int) float64 { return 0 })}
	}},
	{Name: "arrays/transpose", Kernel: array2Transpose, Grid: cuda.Dim2(2, 2), Block: cuda.Dim2(16, 16), Args: func() []any {
		return []any{arr2Of[int32](20, 30), arr2Of[int32](30, 20)}
	}},
	c1("arrays/row_sums", array2Logs, func() []any { return []any{arr2Of[float32](n1, 9), zeros[float32](n1)} }),
	{Name: "arrays/array3", Kernel: array3Sum, Grid: cuda.Dim2(1, 1), Block: cuda.Dim2(8, 8), Args: func() []any {
		data := make([]float64, 5*6*7)
		for i := range data {
			data[i] = float64(i) * 0.125
		}
		a3, _ := cuda.View3(data, 5, 6, 7)
		return []any{a3, arr2(5, 6, func(i, j int) float64 { return 0 })}
	}},
	c1("arrays/data", array2Data, func() []any { return []any{arr2Of[uint16](20, 15)} }),
	// Strided views (issue 21, item 12): stepped, reversed and transposed
	// arrays passed as they are, and views made in the kernel.
	{Name: "arrays/strided_add", Kernel: array2Add, Grid: cuda.Dim2(2, 2), Block: cuda.Dim2(16, 16), Args: func() []any {
		big := arr2(61, 50, func(i, j int) float64 { return float64(i)*1.5 - float64(j) })
		a, _ := big.Sub(cuda.StepRange(60, -1, -2), cuda.StepRange(3, 50, 4)) // 31×12, both strides odd
		b := arr2(12, 31, func(i, j int) float64 { return float64(i * j) })   // 31×12 transposed
		c, _ := arr2(40, 70, func(i, j int) float64 { return -1 }).Sub(cuda.Range(5, 36), cuda.StepRange(69, 45, -2))
		return []any{a, b.T(), c}
	}},
	{Name: "arrays/strided_array3", Kernel: array3Sum, Grid: cuda.Dim2(1, 1), Block: cuda.Dim2(8, 8), Args: func() []any {
		data := make([]float64, 7*6*5)
		for i := range data {
			data[i] = float64(i%23) * 0.25
		}
		a3, _ := cuda.View3(data, 7, 6, 5) // its transpose is 5×6×7
		out, _ := arr2(12, 6, func(i, j int) float64 { return 9 }).Sub(cuda.StepRange(11, 1, -2), cuda.All())
		return []any{a3.T(), out}
	}},
	{Name: "arrays/strided_in_kernel", Kernel: array2Views, Grid: cuda.Dim2(1, 1), Block: cuda.Dim2(16, 16), Args: func() []any {
		return []any{arr2Of[int64](9, 14), zeros[int64](9 * 14 * 2)}
	}},
}

// array2Views reads a through its transpose, made in the kernel, and
// through a row-major view of a slice, and writes the strides and shapes
// it sees.
func array2Views(t cuda.Thread, a cuda.Array2[int64], out []int64) {
	i, j := t.Grid2()
	at := a.T()
	r, c := at.Shape()
	if i < r && j < c {
		o := cuda.MustView2(out[:r*c], r, c)
		s0, s1 := at.Strides()
		o.Set(i, j, at.At(i, j)*int64(s0+2*s1)+int64(at.Offset()))
		v := cuda.MustView2(out[r*c:], c, r).T()
		v.Set(i, j, int64(v.Len()+i-j))
	}
}
