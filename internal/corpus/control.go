package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Control flow: if/else, every for form, switch, labels, early return.

func ctrlCollatz(t cuda.Thread, start []int64, steps []int32) {
	i := t.Grid1()
	if i >= len(start) {
		return // early return
	}
	n := start[i]%1000 + 1001
	var k int32
	for n != 1 {
		if n%2 == 0 {
			n /= 2
		} else {
			n = 3*n + 1
		}
		k++
	}
	steps[i] = k
}

func ctrlForms(t cuda.Thread, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		var s int64
		for j := 0; j < i%17; j++ {
			s += int64(j)
		}
		k := 0
		for k < 5 {
			k++
			s *= 3
		}
		for {
			s -= 7
			if s < 100 {
				break
			}
			s /= 2
		}
		for j := range 4 {
			s += int64(j * i)
		}
		for range 3 {
			s ^= 0x55
		}
		out[i] = s
	}
}

func ctrlSwitch(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	if i < len(a) {
		x := a[i] % 10
		var r int32
		switch x {
		case 0, 1:
			r = 10
		case 2:
			r = 20
			fallthrough
		case 3:
			r += 30
		case -1, -2, -3:
			r = -1
		default:
			r = x * x
		}
		switch {
		case x > 5:
			r += 1000
		case x < -5:
			r -= 1000
		}
		out[i] = r
	}
}

func ctrlLabels(t cuda.Thread, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		var count int32
	outer:
		for a := 0; a < 10; a++ {
			for b := 0; b < 10; b++ {
				if b > a {
					continue outer
				}
				if a*b > i%50 {
					break outer
				}
				if (a+b)%3 == 0 {
					continue
				}
				count++
			}
		}
		out[i] = count
	}
}

// ctrlSwap exercises phis that swap and rotate values in a loop.
func ctrlSwap(t cuda.Thread, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		a, b, c := int64(i), int64(2*i+1), int64(3*i+2)
		for k := 0; k < i%7+3; k++ {
			a, b = b, a
			a, b, c = c, a, b
			if k%2 == 0 {
				b, c = c, b
			}
		}
		x, y := int64(0), int64(1)
		for k := 0; k < i%40; k++ {
			x, y = y, x+y
		}
		out[i] = a*1000000 + b*1000 + c + x
	}
}

func ctrlGoto(t cuda.Thread, out []int32) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	n := int32(i)
	var k int32
loop:
	if n > 0 {
		n -= 3
		k++
		goto loop
	}
	out[i] = k
}

func ctrlShortCircuit(t cuda.Thread, a []int32, out []uint8) {
	i := t.Grid1()
	if i < len(a) {
		j := i + 1
		out[i] = b2u((j < len(a) && a[j] > a[i]) || (i > 0 && a[i-1] == a[i]) && !(a[i] < 0))
	}
}

// ctrlUnrolled has counted loops the compiler unrolls (internal/compiler's
// unroll.go): trip counts 0 to 10 and 300, so that the unrolled main loop,
// the remaining iterations or both run; j < n and j <= hi; a sum whose order
// matters; a value carried out of the loop from j; and a bound near
// math.MinInt64, where the main loop's bound hi-3 would wrap.
func ctrlUnrolled(t cuda.Thread, x []float64, out []float64, last []int64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	n := i % 11
	var s float64
	for j := 0; j < n; j++ {
		s = s*0.5 + x[j]
	}
	for j := i; j <= i+n; j++ { // i+n in the loop's header
		s -= float64(j) * 0.25
	}
	prev, hi := -1, i+n
	for j := i; j <= hi; j++ {
		s += x[j-i] * float64(j)
		prev = j
	}
	for j := 0; j < len(x); j++ {
		s = s*0.75 - x[j]
	}
	k, low := 0, math.MinInt64+n%3
	for j := math.MinInt64; j <= low; j++ {
		k += 2
	}
	out[i] = s + float64(prev) + float64(k)
	last[i] = int64(prev*16 + k)
}

var controlCases = []Case{
	c1("control/collatz", ctrlCollatz, func() []any { return []any{iota64(n1), zeros[int32](n1)} }),
	c1("control/for_forms", ctrlForms, func() []any { return []any{zeros[int64](n1)} }),
	c1("control/switch", ctrlSwitch, func() []any { return []any{cycleOf[int32](n1), zeros[int32](n1)} }),
	c1("control/labels", ctrlLabels, func() []any { return []any{zeros[int32](n1)} }),
	c1("control/phi_swap", ctrlSwap, func() []any { return []any{zeros[int64](n1)} }),
	c1("control/goto", ctrlGoto, func() []any { return []any{zeros[int32](n1)} }),
	c1("control/unrolled_loops", ctrlUnrolled, func() []any {
		x := make([]float64, n1)
		for i := range x {
			x[i] = float64(i%37)*0.3 - 4 // finite: every sum's rounding shows
		}
		return []any{x, zeros[float64](n1), zeros[int64](n1)}
	}),
	c1("control/short_circuit", ctrlShortCircuit, func() []any { return []any{cycleOf[int32](n1), zeros[uint8](n1)} }),
}
