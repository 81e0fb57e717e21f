package primes

import "github.com/nugo-dev/nugo/cuda"

// FactorSum is the sum of n's prime factors with multiplicity, by trial
// division; 0 for n < 2. It is the kernel's device function and, called on
// the host, the serial reference.
func FactorSum(n int64) int64 {
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

// Kernel stores FactorSum(start+i) in out[i], one thread per element.
func Kernel(t cuda.Thread, start int64, out []int64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = FactorSum(start + int64(i))
	}
}
