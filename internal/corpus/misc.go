package corpus

import (
	"errors"
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Mixed features and the capstone job's kernel.

// Vec is a named slice type as a kernel parameter.
type Vec []float64

type pairI32 struct{ a, b int32 }

func swapPair(p pairI32) pairI32 { return pairI32{p.b, p.a} }

func sum3(a [3]float64) float64 { return a[0] + a[1] + a[2] }

func miscFeatures(t cuda.Thread, v Vec, out []int32) {
	i := t.Grid1()
	if i >= len(v) || i >= len(out) {
		return
	}
	sq := func(x float64) float64 { return x * x }(v[i])
	p := swapPair(pairI32{int32(i), 7})
	arr := [3]float64{sq, 1, 2}
	out[i] = p.a + p.b + int32(sum3(arr))
	for j := range len(v) {
		if j > 3 {
			break
		}
		out[i] += int32(j)
	}
	var u8 uint8 = 250
	u8 += uint8(i)
	out[i] += int32(u8) + int32(math.MaxInt8)
	x := &out[i]
	*x++
	var cnt [2]int
	cnt[i%2]++
	out[i] += int32(cnt[0])
	switch w := v[i]; {
	case w > 10:
		out[i]++
	}
	b := v[i] > 0
	if b == (i > 2) {
		out[i]--
	}
	s := v[1:3]
	out[i] += int32(s[len(s)-1])
	f32 := float32(v[i])
	f32 /= 3
	out[i] += int32(f32)
	k := uint(i)
	out[i] += int32(k%3) + int32(uint16(i)>>k)
}

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

// miscPrimes is the prime-factorization job's kernel (64-bit division with
// the 32-bit fast path on small values, the slow path on big ones).
func miscPrimes(t cuda.Thread, base int64, out []int64) {
	if i := t.Grid1(); i < len(out) {
		out[i] = primeFactorSum(base + int64(i))
	}
}

// checkedSqrt panics on a negative input (Numba's raise in a device
// function); the corpus never passes one, so the panic paths are compiled
// and skipped (issue 21, item 4).
func checkedSqrt(x float64) float64 {
	if x < 0 {
		panic(errors.New("checkedSqrt of a negative number"))
	}
	return math.Sqrt(x)
}

func miscPanicNotTaken(t cuda.Thread, a []float64, out []float64) {
	i := t.Grid1()
	if i >= len(a) {
		return
	}
	if a[i] != a[i] && i > 1<<30 {
		panic("unreachable")
	}
	out[i] = checkedSqrt(math.Abs(a[i])) + float64(i%7)
}

var miscCases = []Case{
	c1("misc/panic_not_taken", miscPanicNotTaken, func() []any { return []any{cycleF64(n1), zeros[float64](n1)} }),
	c1("misc/mixed_features", miscFeatures, func() []any { return []any{Vec(iotaF64(n1)), zeros[int32](n1)} }),
	c1("misc/primes_small", miscPrimes, func() []any { return []any{int64(2), zeros[int64](n1)} }),
	c1("misc/primes_big", miscPrimes, func() []any { return []any{int64(1<<33 + 1), zeros[int64](n1)} }),
}
