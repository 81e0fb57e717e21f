package corpus

import "github.com/nugo-dev/nugo/cuda"

// Slices: index, len, cap, subslices, range.

func sliceIncrement(t cuda.Thread, data []float64) {
	if i := t.Grid1(); i < len(data) {
		data[i]++
	}
}

func sliceVectorAdd(t cuda.Thread, a, b, c []float32) {
	if i := t.Grid1(); i < len(c) {
		c[i] = a[i] + b[i]
	}
}

func sliceGridStride(t cuda.Thread, a []int64, out []int64) {
	for i := t.Grid1(); i < len(a); i += t.GridSize1() {
		out[i] = a[i] * int64(len(a)-i)
	}
}

func sliceSub(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		lo := i % 5
		s := a[lo : lo+10]
		s2 := s[2:]
		s3 := s2[:3:4]
		var sum int32
		for _, v := range s2 {
			sum += v
		}
		out[i] = sum*100 + int32(len(s2))*10 + int32(cap(s3)) + s3[2]
	}
}

func sliceRangeIndex(t cuda.Thread, a []float64, out []float64) {
	i := t.Grid1()
	if i < len(out) {
		var acc float64
		for k, v := range a[:20] {
			if k%2 == i%2 {
				acc += v * float64(k)
			}
		}
		out[i] = acc
	}
}

func sliceCapLen(t cuda.Thread, a []uint8, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		out[i] = int64(len(a))*1000 + int64(cap(a[:0])) + int64(cap(a[i%10:]))
	}
}

func sliceNilCheck(t cuda.Thread, a []int32, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		var empty []int32
		if empty == nil && a != nil {
			out[i] = a[i] + 1
		}
	}
}

func sliceLocalFromArray(t cuda.Thread, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		var buf [8]int64
		s := buf[2:6]
		for k := range s {
			s[k] = int64(k + i)
		}
		out[i] = buf[3] + buf[5] + int64(len(s)+cap(s))
	}
}

func sliceMakeConst(t cuda.Thread, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		tmp := make([]int32, 6)
		for k := range tmp {
			tmp[k] = int32(k * i)
		}
		out[i] = tmp[5] - tmp[1]
	}
}

// sliceBools reads and writes []bool: Numba's boolean arrays (one byte
// each, 0 or 1, as Go stores them).
func sliceBools(t cuda.Thread, in []bool, odd []bool, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		odd[i] = i%2 == 1
		v := int32(0)
		if in[i] {
			v = 1
		}
		if in[i] != odd[i] {
			v += 10
		}
		out[i] = v
	}
}

var sliceCases = []Case{
	c1("slices/increment", sliceIncrement, func() []any { return []any{iotaF64(n1)} }),
	c1("slices/vector_add", sliceVectorAdd, func() []any { return []any{cycleF32(n1), cycleF32(n1 + 1)[1:], zeros[float32](n1)} }),
	{Name: "slices/grid_stride", Kernel: sliceGridStride, Grid: cuda.Dim1(2), Block: cuda.Dim1(32), Args: func() []any { return []any{cycleI64(n1), zeros[int64](n1)} }},
	c1("slices/subslice", sliceSub, func() []any { return []any{cycleOf[int32](n1), zeros[int32](n1)} }),
	c1("slices/range_index", sliceRangeIndex, func() []any { return []any{iotaF64(n1), zeros[float64](n1)} }),
	c1("slices/cap_len", sliceCapLen, func() []any { return []any{cycleOf[uint8](n1), zeros[int64](n1)} }),
	c1("slices/nil", sliceNilCheck, func() []any { return []any{cycleOf[int32](n1), zeros[int32](n1)} }),
	c1("slices/from_local_array", sliceLocalFromArray, func() []any { return []any{zeros[int64](n1)} }),
	c1("slices/make_const", sliceMakeConst, func() []any { return []any{zeros[int32](n1)} }),
	c1("slices/bools", sliceBools, func() []any {
		in := make([]bool, n1)
		for i := range in {
			in[i] = i%3 == 0
		}
		return []any{in, make([]bool, n1), zeros[int32](n1)}
	}),
}
