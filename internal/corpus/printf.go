package corpus

import "github.com/nugo-dev/nugo/cuda"

// Printf from a few threads (output order across threads is unspecified on a
// GPU; engines compare the sorted lines).

func printfValues(t cuda.Thread, a []int64, f []float64) {
	if i := t.Grid1(); i < 4 {
		cuda.Printf("thread %d: a=%d hex=%x f=%.3f e=%e g=%g ok=%t\n", i, a[i], uint32(a[i]), f[i], f[i], f[i], a[i] > 0)
	}
}

func printfTypes(t cuda.Thread, b []uint8, s []int16) {
	if i := t.Grid1(); i < 3 {
		cuda.Printf("%v %v %v %5d|%-4d|%c %s %%\n", b[i], s[i], float32(s[i])/4, s[i], b[i], rune('A'+i), "const")
	}
}

func printfPlain(t cuda.Thread) {
	if t.Grid1() == 0 {
		cuda.Printf("hello from the GPU\n")
	}
}

var printfCases = []Case{
	{Name: "printf/values", Kernel: printfValues, Grid: cuda.Dim1(1), Block: cuda.Dim1(32), Printf: true, Args: func() []any {
		return []any{[]int64{1, -2, 300, 1 << 40}, []float64{0.5, -1.25, 1e10, 3.14159}}
	}},
	{Name: "printf/types", Kernel: printfTypes, Grid: cuda.Dim1(1), Block: cuda.Dim1(32), Printf: true, Args: func() []any {
		return []any{[]uint8{1, 200, 255}, []int16{-5, 7, 32000}}
	}},
	{Name: "printf/plain", Kernel: printfPlain, Grid: cuda.Dim1(1), Block: cuda.Dim1(32), Printf: true, Args: func() []any { return nil }},
}
