// Package cuda runs Go functions as CUDA-style kernels: over a grid of
// blocks of threads, on an NVIDIA GPU when one can be used and natively on
// all CPU cores otherwise.
//
// A kernel is a Go function whose first parameter is a Thread:
//
//	func increment(t cuda.Thread, data []float64) {
//		if i := t.Grid1(); i < len(data) {
//			data[i]++
//		}
//	}
//
//	k := cuda.Jit(increment)
//	err := k.Launch(cuda.Dim1(blocks), cuda.Dim1(256), data)
//
// Launch copies host slices to the device and back; a DeviceArray (ToDevice,
// NewDeviceArray) stays on the device between launches. A MappedArray
// (NewMappedArray: page-locked host memory that kernels access over the
// bus) and a ManagedArray (NewManagedArray: unified memory the driver
// migrates) are used in place by both the host, as the slice Host
// returns, and kernels, without copies (ManagedArray.Prefetch moves a
// managed array's pages ahead of use, to a DeviceLocation or HostLocation,
// and ManagedArray.Advise tells the driver how they will be used); MemInfo
// tells how much memory is
// free, and SetLimit and GetLimit adjust the context's limits (stack
// size, printf buffer, device heap). Pin page-locks a host slice for
// asynchronous copies. Streams order work
// and let it overlap; events time it and order streams among themselves
// (Stream.WaitEvent); Stream.Query and Event.Query poll without waiting,
// and Stream.AddCallback runs Go code when a stream reaches it. Inside kernels, Thread gives the
// thread's position (ThreadIdx, BlockIdx, Grid1, ...) and block operations
// (SyncThreads; SyncThreadsCount, SyncThreadsAnd and SyncThreadsOr, which
// also count or combine a predicate over the block; SharedArray); warp
// operations (SyncWarp, ShflSync and its Down/Up/Xor variants, AllSync,
// AnySync, BallotSync, MatchAnySync and MatchAllSync) exchange values
// within a warp, and the lane masks (LanemaskLt, Le, Eq, Ge, Gt) locate
// the thread in it; the Atomic*
// functions, the fences ThreadFenceBlock, ThreadFence and
// ThreadFenceSystem (block, device and system scope), Nanosleep and Printf
// work from any thread.
//
// # Options
//
// Jit and Compile take options, Numba's @cuda.jit keywords: the Flags
// Debug (checked indexing and shifts, reported with the Go line; integer
// division by zero is checked in every build, as in Go),
// FastMath (FMA contraction, approximate float32 division and square
// roots) and LineInfo (line information that maps the GPU code to Go
// lines for Nsight Compute, Nsight Systems and cuda-gdb, and Go lines in
// ptxsim's fault reports), which combine with |, and MaxRegisters(n),
// which caps the registers per thread:
//
//	k := cuda.Jit(step, cuda.LineInfo|cuda.FastMath, cuda.MaxRegisters(64))
//
// NUGO_DEBUG=1 and NUGO_LINEINFO=1 turn Debug and LineInfo on for every
// kernel. ProfileStart and ProfileStop bound what an attached profiler
// records (nsys profile --capture-range=cudaProfilerApi).
//
// # Grid synchronization
//
// SyncGrid waits for every thread of the grid (Numba's
// cuda.cg.this_grid().sync()), so that a kernel can run in phases that
// read what other blocks wrote in the phase before:
//
//	func sequentialRows(t cuda.Thread, m cuda.Array2[int32]) {
//		col := t.Grid1()
//		rows, cols := m.Shape()
//		for row := 1; row < rows; row++ {
//			m.Set(row, col, m.At(row-1, cols-col-1)+1)
//			t.SyncGrid()
//		}
//	}
//
//	blocks, err := k.MaxCooperativeBlocks(cuda.Dim1(256), 0)
//	err = k.LaunchWith(cuda.LaunchConfig{Grid: cuda.Dim1(blocks), Block: cuda.Dim1(256), Cooperative: true}, m)
//
// It needs a cooperative launch (LaunchConfig.Cooperative), whose blocks
// are all resident at once: at most MaxCooperativeBlocks of them, which on
// a GPU is what the occupancy calculator lets each multiprocessor hold
// times the multiprocessors, and on cpu and ptxsim HostCooperativeThreads
// threads (each cpu thread of a cooperative grid runs as a goroutine of
// its own). A larger grid is refused before anything runs, and so, on gpu
// and ptxsim, is a launch of a kernel that calls SyncGrid without
// Cooperative (ErrNotCooperative); the cpu backend reports that case as a
// *KernelError at the SyncGrid call. The GPU needs compute capability 6.0
// for it. nugo writes the barrier in PTX itself, as no cudadevrt is at
// hand without the CUDA toolkit: a counter in device memory that each
// launch allocates and zeroes.
//
// Every block must reach every SyncGrid. Threads that return early are
// fine while their block has others that go on (they leave the barrier,
// as for SyncThreads), but a block all of whose threads have returned
// never arrives: a GPU then waits forever, while the cpu and ptxsim
// backends report a *KernelError, "block (1,0,0) returned before
// t.SyncGrid", at the SyncGrid the others wait at. In debug mode the
// compiled kernel reports the same instead of hanging on a GPU, and a
// failed check, which ends its thread, also ends the grid's wait, so the
// launch reports the check.
//
// A kernel may take a function, as a parameter of func type whose
// parameters and results are numbers or bools:
//
//	func apply(t cuda.Thread, f func(float32) float32, data []float32) {
//		if i := t.Grid1(); i < len(data) {
//			data[i] = f(data[i])
//		}
//	}
//
//	func square(x float32) float32 { return x * x }
//
//	err := cuda.Jit(apply).Launch(grid, block, square, data)
//
// The function may also take slices of and pointers to numbers and bools
// and Array2 and Array3 views, which refer to the kernel's memory; a kernel
// makes a view of part of a slice with MustView2 or MustView3:
//
//	func products(t cuda.Thread, f func(a, b, c cuda.Array2[float32]), a, b, c []float32, n int) {
//		if i := t.Grid1(); i*n*n < len(c) {
//			o := i * n * n
//			f(cuda.MustView2(a[o:o+n*n], n, n), cuda.MustView2(b[o:o+n*n], n, n), cuda.MustView2(c[o:o+n*n], n, n))
//		}
//	}
//
// The compiled backends (gpu, ptxsim) compile the kernel once per function
// passed, calling it directly, so there the function must be a top-level
// function (of any package; generic instantiations and the functions of
// math, math32, math/bits and math/cmplx too) that follows the kernel rules; a closure or method value is a *CompileError. The cpu
// backend calls any function.
//
// # Half precision
//
// Float16 is IEEE 754 binary16, Numba's float16: kernels take []Float16,
// *DeviceArray[Float16], Array2[Float16] and Float16 scalars, keep Float16
// in shared arrays and struct fields, and compute with the functions of
// Numba's cuda.fp16 under Go names: HAdd, HSub, HMul, HDiv, HFma, HNeg,
// HAbs, HMax, HMin, the ordered comparisons HEq, HNe, HLt, HLe, HGt, HGe,
// and HSqrt, HRsqrt, HRcp, HExp, HExp2, HExp10, HLog, HLog2, HLog10, HSin,
// HCos, HFloor, HCeil, HTrunc, HRint. F16 and F16FromFloat64 round to
// half; Float32, Float64 and Bits convert back.
//
//	func axpy(t cuda.Thread, a cuda.Float16, x, y []cuda.Float16) {
//		if i := t.Grid1(); i < len(x) {
//			y[i] = cuda.HFma(a, x[i], y[i])
//		}
//	}
//
// Float16 is a struct, so Go's + and < do not compile on it. On the GPU
// it is a .b16 register and HAdd is add.rn.f16 (sm_53 and later; older
// targets are a CompileError). Each operation is correctly rounded to
// nearest even on every backend, NaN results are the canonical 0x7FFF,
// and the CPU backend computes the GPU's bits. AtomicAdd, AtomicSub,
// AtomicMax, AtomicMin, AtomicExch and AtomicCAS take a *Float16 (sm_70
// and later on the GPU).
//
// # Complex numbers
//
// Kernels compute with Go's complex64 and complex128 (Numba's complex
// types and cmath): they take []complex64, []complex128, complex scalars
// (a float argument becomes the real part), *DeviceArray[complex64],
// Array2 and Array3 of complex (the Complex constraint is part of
// Element), and keep complex values in shared and local arrays and struct
// fields, laid out as Go lays them out: complex64 is two float32s aligned
// to 4 bytes, complex128 two float64s aligned to 8.
//
//	func mandel(t cuda.Thread, c cuda.Array2[complex128], n cuda.Array2[int32]) {
//		i, j := t.Grid2()
//		if rows, cols := c.Shape(); i >= rows || j >= cols {
//			return
//		}
//		z, k := complex128(0), int32(0)
//		for ; k < 100 && cmplx.Abs(z) <= 2; k++ {
//			z = z*z + c.At(i, j)
//		}
//		n.Set(i, j, k)
//	}
//
// The operators, real, imag, complex and the conversions compute Go's
// results bit for bit on every backend: * as (ac-bd) + (ad+bc)i with
// complex64 operands widened to float64 (as Go's compiler does), / as Go's
// runtime divides (complex64 through complex128), without FMA contraction
// unless FastMath. math/cmplx's Abs, Conj, Phase, Polar, Rect, Exp, Log,
// Log10, Sqrt, Pow, Sin, Cos, Sinh, Cosh, Tanh, Asin, Acos, Asinh, Acosh,
// Inf, NaN, IsNaN and IsInf follow Go's algorithms over the device math library, so their results
// differ from the CPU's by the library's ulps. Complex values are not
// ordered: they are not a Number, and the atomics of numbers and warp
// shuffles do not take them. AtomicAddComplex adds to a complex element
// part by part, each part atomically (CUDA has no complex atomics; its
// code adds to a float2's parts with two atomicAdd, as this does).
//
// # Backends
//
// The same kernel runs on every backend with the same results:
//
//   - cpu: the kernel runs as compiled Go. Blocks are spread over
//     GOMAXPROCS workers; a block's threads are called one after another
//     until one calls SyncThreads (or SyncThreadsCount, And, Or) or a warp
//     operation, then the rest run as goroutines meeting at a barrier (and
//     at one per warp). A panicking thread (index out of range, division by zero)
//     stops the launch, which returns a *KernelError naming the block, the
//     thread and the source position.
//   - gpu: the kernel's source is compiled to PTX and run through the CUDA
//     driver.
//   - ptxsim: the PTX is interpreted on the CPU, for testing the compiler.
//
// NUGO_BACKEND=auto|cpu|gpu|ptxsim chooses (auto: a GPU if one can be used,
// else the CPU); SetBackend changes it at run time; NUGO_VERBOSE=1 says on
// stderr why auto did not pick the GPU.
//
// # Faster kernels on the CPU: nugo gen
//
// The CPU backend calls a kernel through its func value once per thread,
// which costs a few nanoseconds: most of the time of a short kernel. With
//
//	//go:generate go tool nugo gen
//
// in one file of the package, go generate writes nugo_loops.go: a loop per
// kernel that calls it directly, so the Go compiler inlines it, registered
// with RegisterRowLoop. Results, errors and SyncThreads behave exactly as
// without it; kernels without a loop keep the per-thread call.
//
// # Semantics
//
// Kernels compute with Go's semantics on every backend: int is 64 bits,
// integers wrap, -7/2 == -3, % takes the dividend's sign, and float
// arithmetic is not contracted into FMA unless FastMath is asked for. The
// CPU backend is the reference the GPU compilers are tested against.
//
// # Errors
//
// Misuse is an error value, never a panic or a hang: a launch with a bad
// shape (a block over 1024 threads, a grid dimension below 1), the wrong
// number or types of arguments, nil slices or freed device arrays fails
// before anything runs, with a message naming the kernel and the argument.
package cuda
