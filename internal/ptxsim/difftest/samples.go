package difftest

import (
	"fmt"
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// The sample kernels check the harness itself and carry the
// injected-miscompilation demonstration, independently of the corpus.

func sampleCompare(t cuda.Thread, a, b []int32, out []int32) {
	if i := t.Grid1(); i < len(out) {
		if a[i] < b[i] {
			out[i] = a[i] - b[i]
		} else {
			out[i] = b[i]*3 + 1
		}
	}
}

func sampleWiden(t cuda.Thread, a []int32, out []int64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = int64(a[i])*1000003 + int64(a[(i+1)%len(a)])
	}
}

func sampleFloat(t cuda.Thread, x []float64, y []float32) {
	if i := t.Grid1(); i < len(x) {
		v := x[i]
		y[i] = float32(math.Sqrt(math.Abs(v))*v + 0.25)
	}
}

func sampleNz(v int32) int32 {
	if v == 0 {
		return 1
	}
	return v
}

func sampleShared(t cuda.Thread, in []int64, out []int64) {
	i := t.Grid1()
	tid := t.ThreadIdx().X
	sh := cuda.SharedArray[int64](t, 128)
	sh[tid] = in[i]
	t.SyncThreads()
	x := sh[(tid+1)%t.BlockDim().X]
	a := int32(in[i])
	b := uint8(in[i] >> 3)
	var arr [4]int32
	for j := 0; j < 4; j++ {
		arr[j] = a + int32(j)
	}
	out[i] = x + int64(a/sampleNz(int32(int16(a)*3))) + int64(b<<(uint(a)%70)) + int64(arr[a&3]) + int64(min(a, int32(b)))
}

var edge32 = []int32{0, 1, -1, 2, -2, 7, -7, 100, -100, math.MaxInt32, math.MinInt32, 65535, -65536, 123456789}

func int32s(n int, seed uint32) []int32 {
	out := make([]int32, n)
	x := seed
	for i := range out {
		if i < len(edge32) {
			out[i] = edge32[(i+int(seed))%len(edge32)]
			continue
		}
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		out[i] = int32(x) >> (i % 31)
	}
	return out
}

// Samples returns the harness' own cases.
func Samples() []Case {
	const n = 300
	grid, block := cuda.Dim1((n+127)/128), cuda.Dim1(128)
	cases := []Case{
		{Name: "sample/compare", Kernel: sampleCompare, Grid: grid, Block: block,
			Args: func() []any { return []any{int32s(n, 1), int32s(n, 2), make([]int32, n)} }},
		{Name: "sample/widen", Kernel: sampleWiden, Grid: grid, Block: block,
			Args: func() []any { return []any{int32s(n, 3), make([]int64, n)} }},
		{Name: "sample/float", Kernel: sampleFloat, Grid: grid, Block: block,
			Args: func() []any {
				x := make([]float64, n)
				for i, v := range int32s(n, 4) {
					x[i] = float64(v) / 7
				}
				x[0], x[1], x[2] = math.Inf(1), math.NaN(), math.Copysign(0, -1)
				return []any{x, make([]float32, n)}
			}},
		{Name: "sample/shared", Kernel: sampleShared, Grid: cuda.Dim1(3), Block: block,
			Args: func() []any {
				in := make([]int64, 3*128)
				for i, v := range int32s(len(in), 5) {
					in[i] = int64(v) * 77
				}
				return []any{in, make([]int64, len(in))}
			}},
	}
	// the element-wise samples again at other sizes: one element, a partial
	// block, an exact block, many blocks
	for _, size := range []int{1, 100, 128, 2049} {
		size := size
		g := cuda.Dim1((size + 127) / 128)
		cases = append(cases,
			Case{Name: fmt.Sprintf("sample/compare_n%d", size), Kernel: sampleCompare, Grid: g, Block: block,
				Args: func() []any { return []any{int32s(size, 11), int32s(size, 12), make([]int32, size)} }},
			Case{Name: fmt.Sprintf("sample/widen_n%d", size), Kernel: sampleWiden, Grid: g, Block: block,
				Args: func() []any { return []any{int32s(size, 13), make([]int64, size)} }})
	}
	for i := range cases {
		cases[i].Test = "TestSamples"
	}
	return cases
}

// sampleStore writes v at out[idx]: with an index past the slice it shows
// how each backend reports the fault.
func sampleStore(t cuda.Thread, out []int32, idx int, v int32) {
	if t.Grid1() == 0 {
		out[idx] = v
	}
}

// sampleMap uses a map, which kernels may not: a compile error.
func sampleMap(t cuda.Thread, out []int64) {
	m := map[int]int64{1: 2}
	out[0] = m[1]
}

// sampleHello prints from every thread.
func sampleHello(t cuda.Thread, scale float64) {
	cuda.Printf("thread %d: %.2f\n", t.Grid1(), float64(t.Grid1())*scale)
}
