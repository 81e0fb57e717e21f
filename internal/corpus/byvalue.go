package corpus

import "github.com/nugo-dev/nugo/cuda"

// Arrays and structs passed by value (Numba's tuples and namedtuples):
// every leaf read, arrays indexed with the thread's index, nested structs
// with padding, a Float16, a complex and a bool field, parameters of size
// zero between the others.

// settings is a namedtuple of mixed fields: padding after Half and On.
type settings struct {
	Lo, Hi int32
	Scale  float64
	W      [4]float32
	Half   cuda.Float16
	C      complex64
	On     bool
	P      pair
}

func byValueTuple(t cuda.Thread, p [3]int64, s settings, out []float64) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	v := float64(p[i%3])*s.Scale + float64(s.W[i%4])
	if s.On && int32(i) >= s.Lo && int32(i) < s.Hi {
		v += float64(s.Half.Float32()) + float64(real(s.C)) - float64(imag(s.C))
	}
	out[i] = v + s.P.B + float64(s.P.A) + float64(s.P.C)
}

func byValueMatrix(t cuda.Thread, m [3][3]float32, none struct{}, zero [0]int64, v []float32, out []float32) {
	i := t.Grid1()
	if i >= len(out) || 3*i+2 >= len(v) {
		return
	}
	r := i % 3
	out[i] = m[r][0]*v[3*i] + m[r][1]*v[3*i+1] + m[r][2]*v[3*i+2] + float32(len(zero))
}

func byValueStore(t cuda.Thread, w wrapper, out []wrapper) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	out[i] = w
	out[i].N[i%2].A = int8(i)
}

// padded is the layout: 7 bytes of padding after A, 2 after C.
type padded struct {
	A int8
	B float64
	C [3]int16
	D complex64
}

func byValuePadded(t cuda.Thread, v padded, scale [2]float32, out []padded) {
	i := t.Grid1()
	if i >= len(out) {
		return
	}
	w := v
	w.A += int8(i)
	w.B *= float64(scale[i%2])
	w.C[i%3] = int16(i)
	w.D *= complex(scale[1-i%2], 0)
	out[i] = w
}

var byValueCases = []Case{
	c1("byvalue/padded", byValuePadded, func() []any {
		return []any{padded{A: -100, B: 1.25e-7, C: [3]int16{-32768, 1, 32767}, D: complex(3.5, -1e-30)}, [2]float32{-3, 0.5}, make([]padded, n1)}
	}),
	c1("byvalue/tuple", byValueTuple, func() []any {
		return []any{[3]int64{-3, 1 << 33, 7}, settings{
			Lo: 10, Hi: 200, Scale: -0.375, W: [4]float32{1.5, -2, 1e-3, 7},
			Half: cuda.F16(-2.5), C: complex(3, 0.25), On: true, P: pair{A: -8, B: 1e10, C: 65535},
		}, make([]float64, n1)}
	}),
	c1("byvalue/matrix", byValueMatrix, func() []any {
		return []any{[3][3]float32{{1, 2, 3}, {-1, 0.5, 0}, {1e20, -1e-20, 3}}, struct{}{}, [0]int64{}, cycleF32(3 * n1), make([]float32, n1)}
	}),
	c1("byvalue/store", byValueStore, func() []any {
		return []any{wrapper{P: pair{A: 1, B: -2.5, C: 3}, N: [2]pair{{A: 4, B: 5, C: 6}, {A: -7, B: 8e-300, C: 9}}, Flag: true}, make([]wrapper, n1)}
	}),
}
