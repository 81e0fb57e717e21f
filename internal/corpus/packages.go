package corpus

import (
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/testkernels/devlib"
)

// Kernels that call another package (devlib, which calls a third, mix):
// its functions, generic functions, methods, constants and tables.

// helper shares its name with functions of devlib and mix; the compiled
// module must keep the three apart.
func helper(x int64) int64 { return x - 7 }

func pkgCalls(t cuda.Thread, a []float64, h []int64, out []float64) {
	if i := t.Grid1(); i < len(a) {
		out[i] = devlib.Clamp(a[i]*devlib.Scale, -5, 5) + devlib.Weights[i%len(devlib.Weights)]
		h[i] = devlib.Hash(int64(i)) + helper(int64(i))
	}
}

func pkgGeneric[T cuda.Number](t cuda.Thread, a []T, out []T) {
	if i := t.Grid1(); i < len(out) {
		out[i] = devlib.Sum(a[i:i+4]) * devlib.Scale
	}
}

func pkgMethods(t cuda.Thread, x, y []float32, dot []float32, w, ws []float64) {
	if i := t.Grid1(); i < len(x) {
		v := devlib.Vec2{X: x[i], Y: y[i]}
		dot[i] = v.Scaled(0.5).Dot(devlib.Vec2{X: 2, Y: -1})
		j := min(i, len(w)-4)
		ws[i] = devlib.Weighted(w[j : j+4])
	}
}

var packageCases = []Case{
	c1("packages/calls", pkgCalls, func() []any { return []any{cycleF64(n1), zeros[int64](n1), zeros[float64](n1)} }),
	c1("packages/generic_int32", pkgGeneric[int32], func() []any { return []any{cycleOf[int32](n1 + 4), zeros[int32](n1)} }),
	c1("packages/generic_float64", pkgGeneric[float64], func() []any { return []any{inRange(n1+4, 1e300), zeros[float64](n1)} }),
	c1("packages/methods", pkgMethods, func() []any {
		return []any{cycleF32(n1), cycleF32(n1 + 1)[1:], zeros[float32](n1), cycleF64(n1), zeros[float64](n1)}
	}),
}
