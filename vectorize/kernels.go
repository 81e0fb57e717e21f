package vectorize

// The binary carries this package's source (nugo_source.go), from which
// the compiled backends compile these kernels.
//
//go:generate go tool nugo gen

import "github.com/nugo-dev/nugo/cuda"

// The kernels of the CUDA target. They are ordinary generic Go kernels:
// the scalar function is their second parameter, a func parameter of
// package cuda. The cpu backend calls it; the compiled backends compile
// one kernel per (function, element types) pair, calling the function
// directly (see the Targets section of the package documentation).
//
// One thread computes one output element. The flat kernels serve operands
// as large as the output; the broadcast kernels take the output shape and
// each operand's strides over it (0 where the operand repeats).

func map1Kernel[T, R Element](t cuda.Thread, f func(T) R, out []R, a []T) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i])
	}
}

func map1BroadcastKernel[T, R Element](t cuda.Thread, f func(T) R, out []R, a []T, shape, sa []int) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[offset(i, shape, sa)])
	}
}

func map2Kernel[T, U, R Element](t cuda.Thread, f func(T, U) R, out []R, a []T, b []U) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i], b[i])
	}
}

func map2BroadcastKernel[T, U, R Element](t cuda.Thread, f func(T, U) R, out []R, a []T, b []U, shape, sa, sb []int) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[offset(i, shape, sa)], b[offset(i, shape, sb)])
	}
}

func map3Kernel[T, U, V, R Element](t cuda.Thread, f func(T, U, V) R, out []R, a []T, b []U, c []V) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i], b[i], c[i])
	}
}

func map3BroadcastKernel[T, U, V, R Element](t cuda.Thread, f func(T, U, V) R, out []R, a []T, b []U, c []V, shape, sa, sb, sc []int) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[offset(i, shape, sa)], b[offset(i, shape, sb)], c[offset(i, shape, sc)])
	}
}

func map4Kernel[T, U, V, W, R Element](t cuda.Thread, f func(T, U, V, W) R, out []R, a []T, b []U, c []V, d []W) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[i], b[i], c[i], d[i])
	}
}

func map4BroadcastKernel[T, U, V, W, R Element](t cuda.Thread, f func(T, U, V, W) R, out []R, a []T, b []U, c []V, d []W, shape, sa, sb, sc, sd []int) {
	if i := t.Grid1(); i < len(out) {
		out[i] = f(a[offset(i, shape, sa)], b[offset(i, shape, sb)], c[offset(i, shape, sc)], d[offset(i, shape, sd)])
	}
}

// offset is the position in an operand with the given strides of output
// element i of a row-major array of the given shape.
func offset(i int, shape, strides []int) int {
	off := 0
	for d := len(shape) - 1; d >= 0; d-- {
		off += i % shape[d] * strides[d]
		i /= shape[d]
	}
	return off
}

// reduceAxisKernel folds x along an axis of length n: one thread per
// output position p, which is (o, i) in the (outer, inner) dimensions
// around the axis.
func reduceAxisKernel[T Element](t cuda.Thread, f func(T, T) T, x, out []T, n, inner int) {
	p := t.Grid1()
	if p >= len(out) {
		return
	}
	base := p/inner*n*inner + p%inner
	acc := x[base]
	for j := 1; j < n; j++ {
		acc = f(acc, x[base+j*inner])
	}
	out[p] = acc
}

// accumulateAxisKernel writes the running folds of x along an axis of
// length n into out, one thread per position of the other dimensions.
func accumulateAxisKernel[T Element](t cuda.Thread, f func(T, T) T, x, out []T, n, inner, positions int) {
	p := t.Grid1()
	if p >= positions {
		return
	}
	base := p/inner*n*inner + p%inner
	acc := x[base]
	out[base] = acc
	for j := 1; j < n; j++ {
		acc = f(acc, x[base+j*inner])
		out[base+j*inner] = acc
	}
}

// reduceChunksKernel folds chunk consecutive elements of x per thread into
// partial; the host folds the partial results.
func reduceChunksKernel[T Element](t cuda.Thread, f func(T, T) T, x, partial []T, chunk int) {
	c := t.Grid1()
	if c >= len(partial) {
		return
	}
	lo := c * chunk
	hi := min(lo+chunk, len(x))
	acc := x[lo]
	for j := lo + 1; j < hi; j++ {
		acc = f(acc, x[j])
	}
	partial[c] = acc
}

// reduceFinalKernel folds x into res[0] in one thread: from init when
// hasInit (x may then be empty), else from x[0].
func reduceFinalKernel[T Element](t cuda.Thread, f func(T, T) T, x, res []T, init T, hasInit bool) {
	if t.Grid1() != 0 {
		return
	}
	acc, lo := init, 0
	if !hasInit {
		acc, lo = x[0], 1
	}
	for j := lo; j < len(x); j++ {
		acc = f(acc, x[j])
	}
	res[0] = acc
}
