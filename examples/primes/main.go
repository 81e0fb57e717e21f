// Primes sums the prime factors of every integer 2..N with a device
// function called from a kernel; `nugo primes` is the full-size job.
package main

//go:generate go tool nugo gen

import (
	"flag"
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

// primeFactorSum is a device function: plain Go, called from the kernel.
func primeFactorSum(n int64) int64 {
	var s int64
	for n > 1 && n%2 == 0 {
		s += 2
		n /= 2
	}
	for f := int64(3); f*f <= n; f += 2 {
		for n%f == 0 {
			s += f
			n /= f
		}
	}
	if n > 1 {
		s += n
	}
	return s
}

func factorSums(t cuda.Thread, out []int64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = primeFactorSum(int64(i) + 2)
	}
}

func run(n int) ([]int64, int64, error) {
	out := make([]int64, n-1) // results for 2..n
	if err := cuda.Jit(factorSums).Launch(cuda.Dim1((len(out)+255)/256), cuda.Dim1(256), out); err != nil {
		return nil, 0, err
	}
	var sum int64
	for _, v := range out {
		sum += v
	}
	return out, sum, nil
}

func main() {
	n := flag.Int("n", 100_000, "the last number")
	flag.Parse()
	out, sum, err := run(*n)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("first:", out[:3], "last:", out[len(out)-3:], "checksum:", sum)
}
