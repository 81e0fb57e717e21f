package corpus

import "github.com/nugo-dev/nugo/cuda"

// Local arrays indexed by variables, structs of scalars.

func localArray(t cuda.Thread, a []float64, out []float64) {
	i := t.Grid1()
	if i < len(a) {
		var buf [16]float64
		for k := range buf {
			buf[k] = a[i] * float64(k)
		}
		var s float64
		for k := 0; k < 16; k++ {
			s += buf[(k*7+i)%16]
		}
		out[i] = s
	}
}

func localArrayInt8(t cuda.Thread, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		var hist [10]int8
		for k := 0; k < 200; k++ {
			hist[(k*i+k)%10]++
		}
		var s int32
		for k, h := range hist {
			s += int32(h) * int32(k+1)
		}
		out[i] = s
	}
}

func localBigArray(t cuda.Thread, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		var sieve [128]bool
		var count int64
		for p := 2; p < 128; p++ {
			if sieve[p] {
				continue
			}
			count += int64(p % (i + 1))
			for q := p * p; q < 128; q += p {
				sieve[q] = true
			}
		}
		out[i] = count
	}
}

type point struct {
	X, Y float64
	Tag  int32
	Ok   bool
}

func (p point) norm1() float64 {
	x, y := p.X, p.Y
	if x < 0 {
		x = -x
	}
	if y < 0 {
		y = -y
	}
	return x + y
}

func (p *point) scale(k float64) {
	p.X *= k
	p.Y *= k
	p.Tag++
}

func localStruct(t cuda.Thread, xs, ys []float64, out []float64, tags []int32) {
	i := t.Grid1()
	if i < len(xs) {
		p := point{X: xs[i], Y: ys[i], Tag: int32(i)}
		p.scale(2)
		q := p
		q.X = 1
		p.Ok = q.X != p.X
		if p.Ok {
			out[i] = p.norm1() + q.norm1()
		}
		tags[i] = p.Tag + q.Tag
	}
}

func localArrayOfStructs(t cuda.Thread, out []float64) {
	i := t.Grid1()
	if i < len(out) {
		var ps [4]point
		for k := range ps {
			ps[k] = point{X: float64(k + i), Y: float64(k - i), Tag: int32(k)}
		}
		ps[i%4].scale(0.5)
		var s float64
		for _, p := range ps {
			s += p.norm1() * float64(p.Tag)
		}
		out[i] = s
	}
}

func localArrayValue(t cuda.Thread, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		table := [5]int32{3, 1, 4, 1, 5}
		cp := table
		cp[i%5] = 9
		out[i] = table[i%5]*10 + cp[(i+1)%5] + sumArr(cp)
	}
}

func sumArr(a [5]int32) int32 {
	var s int32
	for _, v := range a {
		s += v
	}
	return s
}

var localCases = []Case{
	c1("locals/array_var_index", localArray, func() []any { return []any{iotaF64(n1), zeros[float64](n1)} }),
	c1("locals/array_int8", localArrayInt8, func() []any { return []any{zeros[int32](n1)} }),
	c1("locals/array_big_bool", localBigArray, func() []any { return []any{zeros[int64](n1)} }),
	c1("locals/struct_methods", localStruct, func() []any {
		return []any{cycleF64(n1), iotaF64(n1), zeros[float64](n1), zeros[int32](n1)}
	}),
	c1("locals/array_of_structs", localArrayOfStructs, func() []any { return []any{zeros[float64](n1)} }),
	c1("locals/array_value", localArrayValue, func() []any { return []any{zeros[int32](n1)} }),
	c1("locals/pointer_return", localPointerReturn, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
	c1("locals/pointer_global_mix", localPointerGlobalMix, func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }),
}

// Pointers into a thread's locals returned by device functions (issue 21,
// item 1): the address must stay valid as a generic pointer in the caller.

func elemPtr(a *[4]int64, i int) *int64 { return &a[i] }

func newVal(v int64) *int64 {
	x := v
	return &x
}

// pickPtr returns one of two pointers, so the result mixes state spaces.
func pickPtr(a, b *int64, first bool) *int64 {
	if first {
		return a
	}
	return b
}

// bumpAll adds k to every element through a pointer and returns the sum,
// large enough (a loop) to be a device function of its own.
func bumpAll(a *[4]int64, k int64) int64 {
	var s int64
	for j := range a {
		p := elemPtr(a, j)
		*p += k
		s += *p
	}
	return s
}

func localPointerReturn(t cuda.Thread, in []int64, out []int64) {
	i := t.Grid1()
	if i < len(in) {
		var a [4]int64
		for k := range a {
			a[k] = in[i] * int64(k+1)
		}
		p := elemPtr(&a, i%4)
		*p += 7
		q := newVal(in[i] + 3)
		*q *= 2
		r := pickPtr(p, q, i%3 == 0)
		*r -= 1
		s := bumpAll(&a, *q)
		out[i] = a[0] + a[1]*3 + a[2]*5 + a[3]*7 + *q + s + *elemPtr(&a, (i+1)%4)
	}
}

// localPointerGlobalMix passes a pointer into global memory and one into a
// local through the same device function.
func localPointerGlobalMix(t cuda.Thread, in []int64, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		x := in[i]
		p := pickPtr(&out[i], &x, i%2 == 0)
		*p = x*3 + 1
		*newVal(x) = 5 // a fresh variable: no effect on x
		if i%2 != 0 {
			out[i] = x + *pickPtr(&x, &out[i], true)
		}
	}
}
