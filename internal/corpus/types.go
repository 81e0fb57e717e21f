package corpus

import "github.com/nugo-dev/nugo/cuda"

// Every numeric type through one generic kernel, plus bool and named types.

func typesArith[T cuda.Number](t cuda.Thread, a, b, out []T) {
	i := t.Grid1()
	if i < len(out) {
		x, y := a[i], b[i]
		out[i] = x*y + x - y
	}
}

func typesCompare[T cuda.Number](t cuda.Thread, a, b []T, lt, eq []uint8) {
	i := t.Grid1()
	if i < len(a) {
		lt[i] = b2u(a[i] < b[i])
		eq[i] = b2u(a[i] == b[i] || a[i] >= b[i] && !(a[i] > b[i]))
	}
}

// b2u stores a bool as 0 or 1 (kernel parameters are slices of numbers).
func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

func typesBool(t cuda.Thread, a []uint8, flip bool, out []uint8) {
	i := t.Grid1()
	if i < len(a) {
		v := a[i] != 0
		if flip {
			v = !v
		}
		var w bool
		w = v != (i%3 == 0) || v && i%2 == 0
		out[i] = b2u(w)
	}
}

// Celsius is a named float type.
type Celsius float64

// Count is a named integer type.
type Count int32

func typesNamed(t cuda.Thread, temps []Celsius, offset Celsius, counts []Count, k Count) {
	i := t.Grid1()
	if i < len(temps) {
		temps[i] = temps[i]*9/5 + offset
		counts[i] += k * Count(i)
	}
}

func typeCase[T cuda.Number](name string, kernel func(cuda.Thread, []T, []T, []T), gen func(n int) []T) Case {
	return c1("types/arith_"+name, kernel, func() []any {
		a := gen(n1)
		b := gen(n1 + 7)[7:]
		return []any{a, b, zeros[T](n1)}
	})
}

func boolsOf(n int) []uint8 {
	out := make([]uint8, n)
	for i := range out {
		out[i] = b2u(i%5 == 1 || i%7 == 3)
	}
	return out
}

var typeCases = []Case{
	typeCase("int", typesArith[int], cycleOf[int]),
	typeCase("int8", typesArith[int8], cycleOf[int8]),
	typeCase("int16", typesArith[int16], cycleOf[int16]),
	typeCase("int32", typesArith[int32], cycleOf[int32]),
	typeCase("int64", typesArith[int64], cycleOf[int64]),
	typeCase("uint", typesArith[uint], cycleOf[uint]),
	typeCase("uint8", typesArith[uint8], cycleOf[uint8]),
	typeCase("uint16", typesArith[uint16], cycleOf[uint16]),
	typeCase("uint32", typesArith[uint32], cycleOf[uint32]),
	typeCase("uint64", typesArith[uint64], cycleOf[uint64]),
	typeCase("uintptr", typesArith[uintptr], cycleOf[uintptr]),
	typeCase("float32", typesArith[float32], cycleF32),
	typeCase("float64", typesArith[float64], cycleF64),
	c1("types/compare_int8", typesCompare[int8], func() []any {
		return []any{cycleOf[int8](n1), cycleOf[int8](n1 + 3)[3:], zeros[uint8](n1), zeros[uint8](n1)}
	}),
	c1("types/compare_uint32", typesCompare[uint32], func() []any {
		return []any{cycleOf[uint32](n1), cycleOf[uint32](n1 + 3)[3:], zeros[uint8](n1), zeros[uint8](n1)}
	}),
	c1("types/compare_float64_nan", typesCompare[float64], func() []any {
		return []any{cycleF64(n1), cycleF64(n1 + 5)[5:], zeros[uint8](n1), zeros[uint8](n1)}
	}),
	c1("types/bool", typesBool, func() []any { return []any{boolsOf(n1), true, zeros[uint8](n1)} }),
	c1("types/named", typesNamed, func() []any {
		temps := make([]Celsius, n1)
		for i := range temps {
			temps[i] = Celsius(i) - 40
		}
		return []any{temps, Celsius(32), make([]Count, n1), Count(3)}
	}),
}
