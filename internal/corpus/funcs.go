package corpus

import "github.com/nugo-dev/nugo/cuda"

// Device functions: plain, several results, generic, recursive, methods.

func clamp(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

func divmod(a, b int64) (q, r int64) {
	return a / b, a % b
}

func minMax[T cuda.Number](s []T) (lo, hi T) {
	lo, hi = s[0], s[0]
	for _, v := range s[1:] {
		if v < lo {
			lo = v
		}
		if v > hi {
			hi = v
		}
	}
	return
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func isEven(n int) bool {
	if n == 0 {
		return true
	}
	return isOdd(n - 1)
}

func isOdd(n int) bool {
	if n == 0 {
		return false
	}
	return isEven(n - 1)
}

func funcClamp(t cuda.Thread, a []float64, lo, hi float64) {
	if i := t.Grid1(); i < len(a) {
		a[i] = clamp(a[i], lo, hi)
	}
}

func funcMulti(t cuda.Thread, a []int64, q, r []int64) {
	if i := t.Grid1(); i < len(a) {
		q[i], r[i] = divmod(a[i], int64(i%13+1))
	}
}

func funcGeneric[T cuda.Number](t cuda.Thread, a []T, lo, hi []T) {
	if i := t.Grid1(); i < len(lo) {
		lo[i], hi[i] = minMax(a[i : i+8])
	}
}

func funcRecursive(t cuda.Thread, out []int64, parity []uint8) {
	if i := t.Grid1(); i < len(out) {
		out[i] = int64(fib(i % 15))
		parity[i] = b2u(isEven(i % 40))
	}
}

// funcDeepRecursion recurses 1000 calls deep in every 64th thread and up to
// 49 in the others (a mutual recursion, issue 21 item 5): within
// cuda.MaxCallDepth on every backend.
func funcDeepRecursion(t cuda.Thread, out []int64) {
	if i := t.Grid1(); i < len(out) {
		d := i % 50
		if i%64 == 0 {
			d = 1000
		}
		out[i] = int64(deepDown(d, int64(i)))
	}
}

func deepDown(d int, acc int64) int64 {
	if d == 0 {
		return acc
	}
	return deepUp(d-1, acc*3+int64(d))
}

func deepUp(d int, acc int64) int64 {
	if d == 0 {
		return acc
	}
	return deepDown(d-1, acc^int64(d)<<7)
}

func sumSlice(s []float32) float32 {
	var acc float32
	for _, v := range s {
		acc += v
	}
	return acc
}

// funcSharedArg passes shared and global slices to the same device function.
func funcSharedArg(t cuda.Thread, a []float32, out []float32) {
	sh := cuda.SharedArray[float32](t, 128)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = 0
	if i < len(a) {
		sh[tid] = a[i]
	}
	t.SyncThreads()
	if i < len(out) {
		lo := tid - tid%8
		out[i] = sumSlice(sh[lo:lo+8]) + sumSlice(a[i:i+1])
	}
}

func scaleInPlace(p *float64, k float64) { *p *= k }

func funcPointerArg(t cuda.Thread, a []float64) {
	if i := t.Grid1(); i < len(a) {
		scaleInPlace(&a[i], 3)
		x := a[i]
		scaleInPlace(&x, 0.5)
		a[i] += x
	}
}

type acc struct {
	sum float32
	n   int32
	neg bool
}

// sumRec is recursive, so it stays a .func: its calls exercise the call ABI
// (slices from global and shared memory as generic pointers, a struct in and
// out, several results, a bool).
func sumRec(s []float32, a acc) (acc, bool) {
	if len(s) == 0 {
		return a, a.n > 0
	}
	a.sum += s[0]
	a.n++
	a.neg = a.neg || s[0] < 0
	return sumRec(s[1:], a)
}

func funcCallABI(t cuda.Thread, a []float32, out []float32, flags []uint8) {
	sh := cuda.SharedArray[float32](t, 128)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = 0
	if i < len(a) {
		sh[tid] = a[i]
	}
	t.SyncThreads()
	if i < len(out) {
		lo := tid - tid%4
		r1, ok1 := sumRec(sh[lo:lo+4], acc{})
		r2, ok2 := sumRec(a[i:min(i+3, len(a))], acc{sum: 1})
		out[i] = r1.sum + r2.sum + float32(r1.n*10+r2.n)
		flags[i] = b2u(ok1) + 2*b2u(ok2) + 4*b2u(r1.neg) + 8*b2u(r2.neg)
	}
}

var funcCases = []Case{
	c1("funcs/literal", funcLiteral, func() []any { return []any{iotaF64(n1), zeros[float64](n1)} }),
	c1("funcs/call_abi", funcCallABI, func() []any { return []any{cycleF32(n1), zeros[float32](n1), zeros[uint8](n1)} }),
	c1("funcs/clamp", funcClamp, func() []any { return []any{cycleF64(n1), -10.0, 10.0} }),
	c1("funcs/multi_result", funcMulti, func() []any { return []any{cycleI64(n1), zeros[int64](n1), zeros[int64](n1)} }),
	c1("funcs/generic_int16", funcGeneric[int16], func() []any { return []any{cycleOf[int16](n1 + 8), zeros[int16](n1), zeros[int16](n1)} }),
	c1("funcs/generic_float64", funcGeneric[float64], func() []any { return []any{inRange(n1+8, 1e308), zeros[float64](n1), zeros[float64](n1)} }),
	c1("funcs/recursive", funcRecursive, func() []any { return []any{zeros[int64](n1), zeros[uint8](n1)} }),
	c1("funcs/recursion_1000_deep", funcDeepRecursion, func() []any { return []any{zeros[int64](n1)} }),
	c1("funcs/shared_and_global_arg", funcSharedArg, func() []any { return []any{cycleF32(n1), zeros[float32](n1 - 1)} }),
	c1("funcs/pointer_arg", funcPointerArg, func() []any { return []any{iotaF64(n1)} }),
	c1("funcs/recursive_closure", funcRecursiveClosure, func() []any { return []any{cycleI64(n1), zeros[int64](n1), zeros[int64](n1)} }),
}

// funcRecursiveClosure calls function literals that call themselves
// through the variable they are assigned to (capturing only it): a
// Fibonacci number, a binary search over a slice argument with two
// results, and a gcd called in a loop.
func funcRecursiveClosure(t cuda.Thread, a []int64, out, pos []int64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	var fib func(n int) int64
	fib = func(n int) int64 {
		if n < 2 {
			return int64(n)
		}
		return fib(n-1) + fib(n-2)
	}
	var search func(s []int64, x int64, lo, hi int) (int, bool)
	search = func(s []int64, x int64, lo, hi int) (int, bool) {
		if lo >= hi {
			return lo, false
		}
		mid := lo + (hi-lo)/2
		switch {
		case s[mid] == x:
			return mid, true
		case s[mid] < x:
			return search(s, x, mid+1, hi)
		}
		return search(s, x, lo, mid)
	}
	var gcd func(x, y int64) int64
	gcd = func(x, y int64) int64 {
		if y == 0 {
			return x
		}
		return gcd(y, x%y)
	}
	sorted := [8]int64{-40, -7, 0, 3, 9, 27, 81, 1 << 40}
	at, found := search(sorted[:], a[i]%100, 0, len(sorted))
	pos[i] = int64(at)
	if found {
		pos[i] = -pos[i] - 1
	}
	g := int64(0)
	for k := int64(1); k <= 4; k++ {
		g += gcd(a[i]%1000+1000, k*36)
	}
	out[i] = fib(i%20) + g
}

// funcLiteral calls function literals held in local variables (they
// capture nothing, so each call is a direct call).
func funcLiteral(t cuda.Thread, a []float64, out []float64) {
	i := t.Grid1()
	twice := func(x float64) float64 { return x * 2 }
	split := func(x float64) (lo, hi float64, neg bool) {
		lo = float64(int64(x))
		return lo, x - lo, x < 0
	}
	if i < len(out) {
		lo, hi, neg := split(twice(a[i]))
		if neg {
			hi = -hi
		}
		out[i] = lo*3 + hi + twice(hi)
	}
}
