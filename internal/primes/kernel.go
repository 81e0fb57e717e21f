package primes

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// FactorSum is the sum of n's prime factors with multiplicity, by trial
// division; 0 for n < 2. It is the kernel's device function and, called on
// the host, the serial reference.
//
// Numbers below 2^32 are factored in 32-bit arithmetic: a 64-bit division
// costs two to three times a 32-bit one on CPUs and GPUs alike (LLVM, and
// so Numba, makes the same switch at run time).
func FactorSum(n int64) int64 {
	if n >= 0 && n <= math.MaxUint32 {
		return int64(factorSum32(uint32(n)))
	}
	var sum int64
	for n > 1 && n%2 == 0 {
		sum += 2
		n /= 2
	}
	for f := int64(3); f*f <= n; f += 2 {
		for n%f == 0 {
			sum += f
			n /= f
		}
	}
	if n > 1 {
		sum += n
	}
	return sum
}

func factorSum32(n uint32) uint64 {
	var sum uint64
	for n > 1 && n%2 == 0 {
		sum += 2
		n /= 2
	}
	for f := uint32(3); uint64(f)*uint64(f) <= uint64(n); f += 2 {
		for n%f == 0 {
			sum += uint64(f)
			n /= f
		}
	}
	if n > 1 {
		sum += uint64(n)
	}
	return sum
}

// Kernel stores FactorSum(start+i) in out[i], one thread per element.
func Kernel(t cuda.Thread, start int64, out []int64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = FactorSum(start + int64(i))
	}
}
