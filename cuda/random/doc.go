// Package random generates random numbers inside kernels, one generator
// per thread, with the algorithms of Numba's numba.cuda.random: the same
// seed gives the same numbers as Numba.
//
// The generator is xoroshiro128+ (Blackman and Vigna), 128 bits of state
// and a period of 2^128-1. The host creates the states of n generators
// from one 64-bit seed; each generator starts 2^64 steps after the
// previous one in the same sequence, so their draws do not overlap as long
// as none draws more than 2^64 numbers:
//
//	states, err := random.NewStates(n, 42) // like create_xoroshiro128p_states(n, seed=42)
//	err = cuda.Jit(kernel).Launch(grid, block, states, out)
//
//	func kernel(t cuda.Thread, states []uint64, out []float32) {
//		if i := t.Grid1(); i < len(out) {
//			out[i] = random.Uniform32(states, i) // like xoroshiro128p_uniform_float32(states, i)
//		}
//	}
//
// # States layout
//
// Kernel parameters are slices of numbers, so the states of n generators
// are a []uint64 of length 2n: generator i is states[2*i] (Numba's s0) and
// states[2*i+1] (s1), the layout of Numba's xoroshiro128p_dtype array. A
// host slice works as well as a device array (NewStates): Launch copies it
// in and, with the advanced states, back out.
//
// Each draw reads and writes its generator's two words, so two threads
// must not draw from the same generator at the same time; use one
// generator per thread, or per index a thread owns.
//
// # Kernel side
//
// Next, Uniform64, Uniform32, Normal64, Normal32, Jump and InitState are
// plain Go functions in the kernel subset. Kernels call them on every
// backend; host code may call them too, on a host slice. Next, Jump,
// InitState and the uniforms give Numba's results bit for bit, on every
// backend. The normals (Box-Muller) go through a logarithm and a cosine,
// where C libraries, Go's math and nugo's device math library may differ
// in the last place: Normal32 uses math32 (nugo's device math library on
// every backend, so it is identical across backends) and agrees with
// Numba's to within 4 ulp; Normal64 rounds a float64 logarithm to float32,
// which is nearly always the correctly rounded float32 logarithm Numba
// asks the C library for, and its cosine is Go's math.Cos on the CPU and
// the device library's (within 2 ulp) when compiled.
//
// # Host side
//
// NewStates and NewStatesAsync create device arrays of states on the
// current backend, InitDevice re-seeds one, and Init and HostStates fill
// host slices. They follow Numba's create_xoroshiro128p_states(n, seed,
// subsequence_start) and init_xoroshiro128p_states.
package random
