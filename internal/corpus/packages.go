package corpus

import (
	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/testkernels/devlib"
)

// Kernels that call another package (devlib, which calls a third, mix):
// its functions, generic functions, methods, constants and tables.

// helper shares its name with functions of devlib and mix; the compiled
// module must keep the three apart (all three are recursive, so they stay
// functions of their own in PTX).
func helper(x int64) int64 {
	if x <= 0 {
		return 0
	}
	return x&7 + helper(x>>3)
}

func pkgCalls(t cuda.Thread, a []float64, h []int64, out []float64) {
	if i := t.Grid1(); i < len(a) {
		out[i] = devlib.Clamp(a[i]*devlib.Scale, -5, 5) + devlib.Weights[i%len(devlib.Weights)]
		h[i] = devlib.Hash(int64(i)*1000003) + helper(int64(i)*12345)
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
	c1("packages/generic_named", pkgGeneric[devlib.Real], func() []any { return []any{reals(inRange(n1+4, 1e300)), zeros[devlib.Real](n1)} }),
	c1("packages/methods", pkgMethods, func() []any {
		return []any{cycleF32(n1), cycleF32(n1 + 1)[1:], zeros[float32](n1), cycleF64(n1), zeros[float64](n1)}
	}),
}

// reals converts float64s to devlib.Real, the type argument of a kernel
// instantiated with another package's type.
func reals(f []float64) []devlib.Real {
	out := make([]devlib.Real, len(f))
	for i, x := range f {
		out[i] = devlib.Real(x)
	}
	return out
}
