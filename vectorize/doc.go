// Package vectorize turns scalar Go functions into array functions, as
// Numba's @vectorize and @guvectorize do for Python.
//
// # Ufuncs
//
// New1 to New4 wrap a scalar function of one to four numbers into a
// universal function (ufunc) that applies it element by element:
//
//	add := vectorize.New2(func(x, y float64) float64 { return x + y })
//	sum, err := add.Apply(a, b)           // []float64 in, []float64 out
//	err = add.Into(out, a, b)             // into an existing slice
//
// The element types are type parameters, so an operand of the wrong type is
// a compile error. One operation for several element types is a generic
// scalar function instantiated once per type:
//
//	func axpy[T cuda.Number](a, x, y T) T { return a*x + y }
//	axpy32 := vectorize.New3(axpy[float32])
//	axpy64 := vectorize.New3(axpy[float64])
//
// # Operands and broadcasting
//
// Apply and Into take slices, the common case. Call and CallInto take
// Operand values, which say how to read an argument:
//
//	vectorize.Slice(s)            a []T as a 1-D array
//	vectorize.Scalar(x)           a number, broadcast over everything
//	vectorize.Array2(a)           a cuda.Array2[T]
//	vectorize.Array3(a)           a cuda.Array3[T]
//	vectorize.Of(data, shape...)  a row-major N-d array of any rank
//	vectorize.Device(d)           a *cuda.DeviceArray[T], which stays on the device
//
// All but Device return an Array[T], a row-major N-d array whose fields
// (Data, Shape) may also be set directly; Call returns its result as one.
// Shapes broadcast by NumPy's rules: they are aligned at their last
// dimension, and each dimension must be equal or 1 in every operand where
// it exists; a shape mismatch is an error that names both shapes and wraps
// ErrShape.
//
// # Reductions
//
// For a binary ufunc whose operands and result share one type, Reduce
// folds a slice into one value, ReduceAxis folds an N-d array along an
// axis, Accumulate and AccumulateAxis keep the running results, and the
// Outer method applies the function to every pair of elements. They are
// functions rather than methods because Go methods cannot require the
// three type parameters to be equal. WithIdentity gives the value of the
// reduction of an empty array (0 for add, 1 for multiply); without one,
// reducing an empty array is an error.
//
// Init starts Reduce from a value (Numba's init=), and ReduceInto
// reduces into a one-element device array (res=) on the CUDA target.
//
// # Streams
//
// Stream (an option) and the On methods put a ufunc's or gufunc's calls
// on a cuda.Stream, as Numba's stream= argument: a call queues its
// copies and kernels and returns; its results, host outputs included,
// are valid once the stream has synchronised, and a failed kernel is
// reported there. A call on a stream runs on the CUDA target. Device
// arrays are not copied; host slices are copied asynchronously when
// pinned (cuda.Pin), else through a page-locked staging buffer (see
// Stream). Reduce returns a value, so it waits for the stream;
// ReduceInto does not.
//
//	u.On(s).CallInto(vectorize.Device(dOut), vectorize.Device(dA), vectorize.Device(dB))
//	err = vectorize.ReduceInto(u.On(s), dSum, vectorize.Device(dA), vectorize.Init(0.0))
//	err = s.Synchronize()
//
// # Targets
//
// A ufunc runs on one of three targets, given as an option to New*:
//
//   - CPU: one goroutine.
//   - Parallel: all cores (GOMAXPROCS); the output is split in chunks, and
//     the inner loop calls the scalar function on typed slices, with no
//     allocation or interface call per element (and, with a compiled loop,
//     inlined; see below).
//   - CUDA: a kernel of this package (map2Kernel and friends, ordinary
//     generic Go kernels that take the scalar function as a func
//     parameter and call it) launched through package cuda: host slices
//     are copied to the device and back, device arrays stay on the device.
//
// The CUDA target runs on every backend of package cuda. The cpu backend
// calls the scalar function as Go does, closures included. The compiled
// backends (gpu, ptxsim) compile each kernel for the scalar function,
// which becomes a device function the kernel calls directly; there the
// function must be a top-level function (declared with func at package
// level; an instantiation of a generic one such as axpy[float32], and the
// functions of math, math32 and math/bits such as math.Sqrt, are fine)
// whose body the kernel rules allow, and its element types Go's
// predeclared numeric types. For a closure, a method value or a named
// element type the CUDA target returns an error wrapping
// ErrTargetUnavailable on those backends. A function that breaks the
// kernel rules is reported by the call as a *cuda.CompileError.
//
// The default (Auto) is CUDA when package cuda's backend is a GPU (gpu)
// and the function can run there as above, and Parallel otherwise; a call
// with a Device operand always runs on the CUDA target.
//
// # Compiled loops
//
// On the CPU and Parallel targets the plain inner loop calls the scalar
// function through a func value, once per element, which the Go compiler
// cannot inline. A package that runs `go generate` with
//
//	//go:generate go tool nugo gen
//
// gets, for each named top-level function it uses with vectorize, a
// compiled loop: a loop in the package itself, registered with
// RegisterLoop1 to RegisterLoop4 from an init function, where the call is
// direct and inlined. The ufuncs of that function use it wherever every
// operand is contiguous along the last dimension; broadcast operands,
// function literals and functions without generated code use the
// func-value loop, with the same results.
//
// A function passed to New2 whose operands and result are one number type
// (func(x, y float64) float64, not func(x float32, k int32) float32) also
// gets a compiled fold and scan, registered with RegisterFold and
// RegisterScan:
//
//	vectorize.RegisterFold(add, func(acc float64, x []float64) float64 {
//		for _, v := range x {
//			acc = add(acc, v)
//		}
//		return acc
//	})
//
// On the CPU and Parallel targets, Reduce folds its chunks with it and
// ReduceAxis, Accumulate and AccumulateAxis fold or scan every run along
// an axis after which all dimensions have size 1 (a 1-D array, the last
// axis); along other axes they combine whole rows with the element loop
// of RegisterLoop2. The calls of the function and their order are those
// of the func-value path, in the same chunks, so floating-point results
// are equal bit for bit. The CUDA target uses none of them.
//
// # Generalized ufuncs
//
// GU wraps a function over array slices with a layout such as
// "(n),()->(n)": fn takes a slice for each operand with one core dimension,
// a cuda.Array2 or cuda.Array3 for two or three, and a scalar for "()"
// inputs (a pointer for "()" outputs), of numbers, complex64, complex128,
// cuda.Float16 or bools, as ufuncs take. Extra leading dimensions of the
// operands are loop dimensions: they broadcast, and fn is called once per
// loop index, on all cores with the Parallel target and in one kernel
// thread per loop index with the CUDA target.
//
// The CUDA target of a gufunc runs on every backend of package cuda. On
// the cpu backend it calls fn through reflect, so it takes any fn. On the
// compiled backends (gpu, ptxsim) its kernel is generated for fn's
// signature: the thread for a loop index passes fn each 1-D core as a
// sub-slice of its operand, each 2-D or 3-D core as a cuda.Array2 or
// cuda.Array3 view of one (cuda.MustView2, cuda.MustView3), each "()"
// input as a number and each "()" output as a pointer to its element, and
// the compiler compiles fn into the kernel as for a ufunc. There fn must
// be a top-level function whose operands have Go's predeclared numeric,
// complex or bool element types or cuda.Float16: for a closure or another
// named type the CUDA target returns an
// error wrapping ErrTargetUnavailable that says why, and Auto runs the
// gufunc on the Parallel target.
//
//	func movingAverage(x []float64, width int64, out []float64) { ... }
//	mavg, err := vectorize.GU("(n),()->(n)", movingAverage)
//	err = mavg.Into(x, int64(3), out)
//
//	func matmul(a, b, c cuda.Array2[float64]) { ... }
//	mm, err := vectorize.GU("(m,n),(n,p)->(m,p)", matmul, vectorize.CUDA)
//	out, err := mm.Apply(vectorize.Of(a, 10, 3, 4), vectorize.Of(b, 4, 5)) // 10 products
//
// Errors are values: a bad layout, a function that does not match its
// layout, shapes that disagree and panics of the scalar function are
// returned as errors naming the function.
package vectorize
