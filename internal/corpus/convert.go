package corpus

import "github.com/nugo-dev/nugo/cuda"

// Conversions: narrowing, widening by the source's signedness, int↔float.

func convNarrow(t cuda.Thread, a []int64, i8 []int8, u8 []uint8, i16 []int16, u16 []uint16, i32 []int32, u32 []uint32) {
	i := t.Grid1()
	if i < len(a) {
		x := a[i]
		i8[i], u8[i] = int8(x), uint8(x)
		i16[i], u16[i] = int16(x), uint16(x)
		i32[i], u32[i] = int32(x), uint32(x)
	}
}

func convWiden(t cuda.Thread, i8 []int8, u8 []uint8, i32 []int32, u32 []uint32, out []int64, uout []uint64) {
	i := t.Grid1()
	if i < len(i8) {
		out[i] = int64(i8[i]) + int64(u8[i])<<8 + int64(i32[i]) + int64(u32[i])
		uout[i] = uint64(i8[i]) ^ uint64(i32[i]) ^ uint64(uint16(i8[i]))<<40
	}
}

func convIntToFloat(t cuda.Thread, a []int64, u []uint64, s []int8, f64 []float64, f32 []float32) {
	i := t.Grid1()
	if i < len(a) {
		f64[i] = float64(a[i]) + float64(u[i]) + float64(s[i])
		f32[i] = float32(a[i]) - float32(u[i]) + float32(s[i])
	}
}

// convFloatToInt truncates toward zero; inputs stay within range.
func convFloatToInt(t cuda.Thread, f []float64, g []float32, i64 []int64, i32 []int32, i8 []int8, u32 []uint32) {
	i := t.Grid1()
	if i < len(f) {
		i64[i] = int64(f[i])
		i32[i] = int32(g[i])
		i8[i] = int8(f[i] / 1e15)         // |f| <= 1e17: in range
		u32[i] = uint32(max(g[i], -g[i])) // |g| <= 2e9: in range
	}
}

func convFloatFloat(t cuda.Thread, f []float64, g []float32, down []float32, up []float64) {
	i := t.Grid1()
	if i < len(f) {
		down[i] = float32(f[i])
		up[i] = float64(g[i]) * 3
	}
}

func inRange(n int, lim float64) []float64 {
	f := cycleF64(n)
	for i, v := range f {
		if v != v || v > lim || v < -lim {
			f[i] = float64(i) * 1.75
		}
	}
	return f
}

func inRange32(n int, lim float32) []float32 {
	f := cycleF32(n)
	for i, v := range f {
		if v != v || v > lim || v < -lim {
			f[i] = float32(i) * -1.25
		}
	}
	return f
}

func nonneg32(n int) []float32 {
	f := inRange32(n, 60000)
	for i := range f {
		if f[i] < 0 {
			f[i] = -f[i]
		}
	}
	return f
}

// convUintMaxWrap is the reduced fuzz find of issue 21 item 0: v is a uint
// that may be at or above 2^63, so int64(v) wraps negative and r must not
// be narrowed to 32 bits.
func convUintMaxWrap(t cuda.Thread, in []int64, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		v := max(uint(in[2*i]), uint(5542404584781314715))
		r := int(int16(in[2*i+1]))
		if in[2*i+1] > 0 {
			for k := 0; k < 4; k++ {
				r = max(int(min(int64(v), -2)), -2070302597693103544)
			}
		}
		out[i] = int64(r)
	}
}

// uintMaxWrapInputs are pairs (in[2i], in[2i+1]) around 2^63 and 2^31.
func uintMaxWrapInputs() []int64 {
	firsts := []int64{-(1 << 62), -1, 0, 1, 1 << 62, -(1 << 63), 1<<63 - 1, 1 << 31, -(1 << 31), 5542404584781314715}
	seconds := []int64{5, -5, 0, 1 << 20, -(1 << 40)}
	var in []int64
	for _, a := range firsts {
		for _, b := range seconds {
			in = append(in, a, b)
		}
	}
	return in
}

var convertCases = []Case{
	{Name: "convert/uint_max_wrap", Kernel: convUintMaxWrap, Grid: cuda.Dim1(1), Block: cuda.Dim1(64), Args: func() []any {
		in := uintMaxWrapInputs()
		return []any{in, zeros[int64](len(in) / 2)}
	}},
	c1("convert/narrow", convNarrow, func() []any {
		return []any{cycleI64(n1), zeros[int8](n1), zeros[uint8](n1), zeros[int16](n1), zeros[uint16](n1), zeros[int32](n1), zeros[uint32](n1)}
	}),
	c1("convert/widen", convWiden, func() []any {
		return []any{cycleOf[int8](n1), cycleOf[uint8](n1), cycleOf[int32](n1), cycleOf[uint32](n1), zeros[int64](n1), zeros[uint64](n1)}
	}),
	c1("convert/int_to_float", convIntToFloat, func() []any {
		return []any{cycleI64(n1), cycleOf[uint64](n1), cycleOf[int8](n1), zeros[float64](n1), zeros[float32](n1)}
	}),
	c1("convert/float_to_int", convFloatToInt, func() []any {
		return []any{inRange(n1, 1e17), inRange32(n1, 2e9), zeros[int64](n1), zeros[int32](n1), zeros[int8](n1), zeros[uint32](n1)}
	}),
	c1("convert/float_float", convFloatFloat, func() []any {
		return []any{cycleF64(n1), cycleF32(n1), zeros[float32](n1), zeros[float64](n1)}
	}),
}
