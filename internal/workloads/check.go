package workloads

import (
	"errors"
	"fmt"
	"math"
)

// mathTolerance is the relative error allowed where a kernel calls
// math.Log10: the GPU's device math library is within 2 ulp of Go's.
const mathTolerance = 4 * 0x1p-52

// samples is how many elements verify compares besides the first and last.
const samples = 254

func checkInt(h []int64) string {
	var sum int64
	for _, v := range h {
		sum += v
	}
	return fmt.Sprint(sum)
}

// checkFloat is the sum of the elements, with 6 significant digits, so that
// the implementations agree despite different summation orders.
func checkFloat[T float32 | float64](h []T) (string, error) {
	var sum float64
	for _, v := range h {
		sum += float64(v)
	}
	if sum != sum {
		return "", errors.New("checksum is NaN")
	}
	return fmt.Sprintf("%.6g", sum), nil
}

// verify compares evenly spaced elements of an output of n elements (the
// first and last among them) with the host reference: at(i) returns the
// element and its expected value, which must agree within the relative
// tolerance tol (0: exactly). It records the count in r.Verified, or the
// first difference in r.Mismatch.
func verify(r *Result, n int, at func(i int) (got, want float64), tol float64) {
	count := min(n, samples+2)
	for k := range count {
		i := 0
		if count > 1 {
			i = int(int64(k) * int64(n-1) / int64(count-1))
		}
		got, want := at(i)
		if got != want && !(tol > 0 && math.Abs(got-want) <= tol*math.Abs(want)) {
			r.Mismatch = fmt.Sprintf("element %d is %v, want %v", i, got, want)
			r.Verified = 0
			return
		}
	}
	r.Verified = count
}

// log10 is the logs, coalesced and permuted kernels' formula on the host.
func log10(i int) float64 { return math.Log10(float64(i)) }

// movingAverage is the movingavg kernel's formula for element i, summed in
// the kernel's order.
func movingAverage(x []float64, width, i int) float64 {
	lo, hi := max(0, i-width/2), min(len(x)-1, i+width/2)
	var sum float64
	for j := lo; j <= hi; j++ {
		sum += x[j]
	}
	return sum / float64(hi-lo+1)
}
