// Package inline holds kernels that synchronise through device functions
// of their package, which nugo gen inlines before barrier fission, and
// kernels whose helpers it cannot inline, each with the reason
// TestInlineHelpers expects.
package inline

import "github.com/nugo-dev/nugo/cuda"

// Value calls a helper with a value result.
func Value(t cuda.Thread, a []float32) {
	i := t.Grid1()
	a[i] = sum(t, a[i])
}

func sum(t cuda.Thread, v float32) float32 {
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflDownSync(t, v, off)
	}
	return v
}

// Multi calls a helper with two results, one of them a helper's.
func Multi(t cuda.Thread, a []float32, b []int32) {
	i := t.Grid1()
	s, n := sumCount(t, a[i])
	a[i], b[i] = s, n
}

func sumCount(t cuda.Thread, v float32) (float32, int32) {
	n := int32(t.SyncThreadsCount(v > 0))
	return sum(t, v), n
}

// Named calls a helper with named results and a bare return.
func Named(t cuda.Thread, a []int32) {
	i := t.Grid1()
	lo, hi := bounds(t, a[i])
	a[i] = lo + hi
}

func bounds(t cuda.Thread, v int32) (lo, hi int32) {
	lo = v - 1
	t.SyncThreads()
	hi = v + 1
	return
}

// EarlyUniform calls a helper that returns early on a condition the same
// in every thread: the rest of the helper becomes its else branch.
func EarlyUniform(t cuda.Thread, a []int32, k int32) {
	i := t.Grid1()
	a[i] = scale(t, a[i], k)
}

func scale(t cuda.Thread, v, k int32) int32 {
	if k == 0 {
		return v
	}
	t.SyncThreads()
	return v * k
}

// EarlyLoop calls a helper returning from inside a loop: refused.
func EarlyLoop(t cuda.Thread, a []int32) {
	i := t.Grid1()
	a[i] = loopRet(t, a[i])
}

func loopRet(t cuda.Thread, v int32) int32 {
	for k := 0; k < 4; k++ {
		t.SyncThreads()
		if k == 2 {
			return v + int32(k)
		}
	}
	return v
}

const limit = 3

// Capture has a v, as its helper does, and a limit that hides, in the
// kernel, the package's limit that the helper reads: both are renamed.
func Capture(t cuda.Thread, a []int32) {
	i := t.Grid1()
	v := a[i]
	limit := v + 1
	a[i] = capped(t, v) + limit
}

func capped(t cuda.Thread, x int32) int32 {
	v := x * 2
	t.SyncThreads()
	return min(v, limit)
}

// Nested calls a helper that calls a helper, twice, one call the
// argument of the other.
func Nested(t cuda.Thread, a []float32) {
	i := t.Grid1()
	a[i] = twice(t, a[i])
}

func twice(t cuda.Thread, v float32) float32 {
	return sum(t, sum(t, v))
}

// Recursive calls a synchronising helper that calls itself: refused.
func Recursive(t cuda.Thread, a []int32) {
	i := t.Grid1()
	a[i] = deep(t, a[i], 3)
}

func deep(t cuda.Thread, v int32, n int) int32 {
	t.SyncThreads()
	if n == 0 {
		return v
	}
	return deep(t, v+1, n-1)
}

// InExpr calls a helper inside an expression: hoisted before it.
func InExpr(t cuda.Thread, a []float32) {
	i := t.Grid1()
	a[i] = 1 + 2*sum(t, a[i])
}

// ShortCircuit calls a helper on the right of &&: refused.
func ShortCircuit(t cuda.Thread, a []int32) {
	i := t.Grid1()
	if a[i] > 0 && allPos(t, a[i] > 1) {
		a[i] = 0
	}
}

func allPos(t cuda.Thread, p bool) bool { return t.SyncThreadsAnd(p) }

// InLoopCond calls a helper in a loop's condition: refused.
func InLoopCond(t cuda.Thread, a []int32) {
	i := t.Grid1()
	for allPos(t, a[i] > 0) {
		a[i]--
	}
}

// Generic calls a generic helper.
func Generic(t cuda.Thread, a []int32) {
	i := t.Grid1()
	a[i] = gsum(t, a[i])
}

func gsum[T int32 | float32](t cuda.Thread, v T) T {
	for off := 16; off > 0; off /= 2 {
		v += cuda.ShflXorSync(t, v, off)
	}
	return v
}

// GenKernel is a generic kernel calling a generic helper with its own
// type parameter; the package writes one instantiation.
func GenKernel[T int32 | float32](t cuda.Thread, a []T) {
	i := t.Grid1()
	s := gsum[T](t, a[i])
	t.SyncThreads()
	a[i] = s
}

var _ = GenKernel[float32]
