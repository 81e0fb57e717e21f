package random

import (
	"math"

	"github.com/nugo-dev/nugo/math32"
)

// This file is the kernel side of the package: plain Go in nugo's kernel
// subset (no maps, closures or allocation), so that the compiled backends
// compile it into kernels and the CPU backend and host code call it as it
// is. The algorithms are those of Numba's numba.cuda.random, bit for bit:
// xoroshiro128+ (Blackman and Vigna) seeded with splitmix64.

// Jump polynomial of xoroshiro128+: applying it advances a generator by
// 2^64 steps.
const (
	jump0 uint64 = 0xbeac0467eba5facb
	jump1 uint64 = 0xd86b048b86aa9922
)

// Splitmix64 constants.
const (
	golden uint64 = 0x9e3779b97f4a7c15
	mix1   uint64 = 0xbf58476d1ce4e5b9
	mix2   uint64 = 0x94d049bb133111eb
)

// twoPi32 and twoPi64 are 2π rounded to float32 and float64, the factors
// Numba's Box-Muller transform multiplies its second uniform by.
const (
	twoPi32 float32 = 2 * math.Pi
	twoPi64 float64 = 2 * math.Pi
)

// InitState sets generator i of states from seed the way Numba's
// init_xoroshiro128p_state does: one round of splitmix64, whose output
// becomes both halves of the state. Generators set this way from
// different seeds are not guaranteed independent; Init and NewStates
// derive every generator from one seed by jumps instead.
func InitState(states []uint64, i int, seed uint64) {
	z := seed + golden
	z = (z ^ (z >> 30)) * mix1
	z = (z ^ (z >> 27)) * mix2
	z ^= z >> 31
	states[2*i] = z
	states[2*i+1] = z
}

// Next returns the next raw 64-bit output of generator i of states
// (xoroshiro128+'s s0+s1, as Numba's xoroshiro128p_next) and advances the
// generator by one step. Its lowest bits are weaker than its upper ones;
// Uniform64 and Uniform32 use the upper 53.
func Next(states []uint64, i int) uint64 {
	s0 := states[2*i]
	s1 := states[2*i+1]
	result := s0 + s1
	s1 ^= s0
	states[2*i] = (s0<<55 | s0>>9) ^ s1 ^ (s1 << 14)
	states[2*i+1] = s1<<36 | s1>>28
	return result
}

// Jump advances generator i of states by 2^64 steps, as Numba's
// xoroshiro128p_jump: generators a jump apart draw disjoint stretches of
// one sequence as long as none draws more than 2^64 numbers.
func Jump(states []uint64, i int) {
	t0, t1 := jumpWord(states, i, jump0, 0, 0)
	t0, t1 = jumpWord(states, i, jump1, t0, t1)
	states[2*i] = t0
	states[2*i+1] = t1
}

// jumpWord runs one 64-bit word of the jump polynomial over generator i,
// accumulating into t0, t1 the states at the word's set bits.
func jumpWord(states []uint64, i int, poly, t0, t1 uint64) (uint64, uint64) {
	for b := 0; b < 64; b++ {
		if poly&(uint64(1)<<uint(b)) != 0 {
			t0 ^= states[2*i]
			t1 ^= states[2*i+1]
		}
		Next(states, i)
	}
	return t0, t1
}

// unitFloat64 maps the upper 53 bits of x onto [0, 1) with spacing 2^-53.
func unitFloat64(x uint64) float64 {
	return float64(x>>11) * (1.0 / (1 << 53))
}

// Uniform64 returns a float64 uniformly distributed in [0, 1) from
// generator i of states and advances it by one step, as Numba's
// xoroshiro128p_uniform_float64: the upper 53 bits of Next times 2^-53.
func Uniform64(states []uint64, i int) float64 {
	return unitFloat64(Next(states, i))
}

// Uniform32 returns a float32 uniform in [0, 1] from generator i of
// states and advances it by one step, as Numba's
// xoroshiro128p_uniform_float32: Uniform64's value rounded to float32.
// Like Numba's, it returns exactly 1 when the float64 value lies within
// 2^-25 of 1 (about once in 2^25 draws), so the interval is closed.
func Uniform32(states []uint64, i int) float32 {
	return float32(unitFloat64(Next(states, i)))
}

// Normal32 returns a float32 drawn from the standard normal distribution
// (mean 0, standard deviation 1) by the Box-Muller transform, as Numba's
// xoroshiro128p_normal_float32, and advances generator i by two steps.
// It computes in float32 throughout: sqrt(-2 log u1) cos(2π u2) from two
// Uniform32 draws, the sine half of the pair discarded. A first draw of 0
// (probability 2^-53) gives an infinity, as in Numba.
func Normal32(states []uint64, i int) float32 {
	u1 := Uniform32(states, i)
	u2 := Uniform32(states, i)
	return math32.Sqrt(-2*math32.Log(u1)) * math32.Cos(twoPi32*u2)
}

// Normal64 returns a float64 drawn from the standard normal distribution
// by the Box-Muller transform, as Numba's xoroshiro128p_normal_float64,
// and advances generator i by two steps. Numba's compiled code (GPU and
// CPU alike) draws the two uniforms with Uniform32 and takes the first's
// logarithm in float32, then continues in float64; this function does the
// same, so its values match Numba's compiled ones, not its CUDA
// simulator's (which takes the logarithm in float64).
//
// The float32 logarithm is the float64 one rounded, which is nearly
// always the correctly rounded float32 value; the C library's logf that
// Numba calls is too, nearly always (glibc's is within 0.82 ulp). One
// float32 ulp there moves the result by about 2^29 float64 ulps, so a
// float32 logarithm accurate to only 2 ulp (math32.Log) would often
// disagree with Numba's in the 24th bit.
func Normal64(states []uint64, i int) float64 {
	u1 := Uniform32(states, i)
	u2 := Uniform32(states, i)
	log1 := float32(math.Log(float64(u1)))
	return math.Sqrt(-2*float64(log1)) * math.Cos(twoPi64*float64(u2))
}
