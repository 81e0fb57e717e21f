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
}
