package testkernels

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Kernels whose debug checks fail: each makes thread 0 evaluate one
// expression that Go's runtime rejects, so that every backend reports the
// same failure with the same message. The index and bound values come from
// the arguments (DebugFailures).

// SliceHi takes d[:hi].
func SliceHi(t cuda.Thread, d []int32, hi int, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(len(d[:hi]))
	}
}

// SliceLo takes d[lo:].
func SliceLo(t cuda.Thread, d []int32, lo int, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(len(d[lo:]))
	}
}

// SliceLoHi takes d[lo:hi].
func SliceLoHi(t cuda.Thread, d []int32, lo, hi int, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(len(d[lo:hi]))
	}
}

// SliceShortHi takes d[:2][:hi], whose capacity is d's.
func SliceShortHi(t cuda.Thread, d []int32, hi int, out []int32) {
	if t.Grid1() == 0 {
		s := d[:2]
		out[0] = int32(len(s[:hi]))
	}
}

// Slice3 takes d[lo:hi:max].
func Slice3(t cuda.Thread, d []int32, lo, hi, max int, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(cap(d[lo:hi:max]))
	}
}

// Slice3NoLo takes d[:hi:max].
func Slice3NoLo(t cuda.Thread, d []int32, hi, max int, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(cap(d[:hi:max]))
	}
}

// SliceHiUint takes d[:hi] with an unsigned hi.
func SliceHiUint(t cuda.Thread, d []int32, hi uint, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(len(d[:hi]))
	}
}

// SliceLoUint32 takes d[lo:] with a 32-bit unsigned lo.
func SliceLoUint32(t cuda.Thread, d []int32, lo uint32, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(len(d[lo:]))
	}
}

// Slice3Int8 takes d[lo:hi:max] with 8-bit signed indices.
func Slice3Int8(t cuda.Thread, d []int32, lo, hi, max int8, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(cap(d[lo:hi:max]))
	}
}

// Slice3Uint64 takes d[lo:hi:max] with 64-bit unsigned indices.
func Slice3Uint64(t cuda.Thread, d []int32, lo, hi, max uint64, out []int32) {
	if t.Grid1() == 0 {
		out[0] = int32(cap(d[lo:hi:max]))
	}
}

// ArraySlice takes a[lo:hi] of a local array of 4.
func ArraySlice(t cuda.Thread, lo, hi int, out []int32) {
	if t.Grid1() == 0 {
		var a [4]int32
		for i := range a {
			a[i] = int32(i + 1)
		}
		s := a[lo:hi]
		out[0] = int32(len(s))
	}
}

// ArraySliceLo takes a[lo:] of a local array of 4.
func ArraySliceLo(t cuda.Thread, lo int, out []int32) {
	if t.Grid1() == 0 {
		var a [4]int32
		a[1] = 3
		s := a[lo:]
		out[0] = int32(len(s))
	}
}

// ArraySlice3 takes a[lo:hi:max] of a local array of 4.
func ArraySlice3(t cuda.Thread, lo, hi, max int, out []int32) {
	if t.Grid1() == 0 {
		var a [4]int32
		a[2] = 5
		s := a[lo:hi:max]
		out[0] = int32(cap(s))
	}
}

// SharedSlice takes sh[lo:hi] of a shared array of 8.
func SharedSlice(t cuda.Thread, lo, hi int, out []int32) {
	sh := cuda.SharedArray[int32](t, 8)
	if i := t.ThreadIdx().X; i < len(sh) {
		sh[i] = 1
	}
	t.SyncThreads()
	if t.Grid1() == 0 {
		out[0] = int32(len(sh[lo:hi]))
	}
}

// SharedSlice3 takes sh[lo:hi:max] of a shared array of 8.
func SharedSlice3(t cuda.Thread, lo, hi, max int, out []int32) {
	sh := cuda.SharedArray[int32](t, 8)
	if i := t.ThreadIdx().X; i < len(sh) {
		sh[i] = 1
	}
	t.SyncThreads()
	if t.Grid1() == 0 {
		out[0] = int32(cap(sh[lo:hi:max]))
	}
}

// ToArrayPtr converts d to *[4]int32.
func ToArrayPtr(t cuda.Thread, d []int32, out []int32) {
	if t.Grid1() == 0 {
		p := (*[4]int32)(d)
		out[0] = p[3]
	}
}

// ToArray converts d to [4]int32.
func ToArray(t cuda.Thread, d []int32, out []int32) {
	if t.Grid1() == 0 {
		a := [4]int32(d)
		out[0] = a[1] + a[3]
	}
}

// IndexAt reads d[i].
func IndexAt(t cuda.Thread, d []int32, i int, out []int32) {
	if t.Grid1() == 0 {
		out[0] = d[i]
	}
}

// IndexUint reads d[i] with an unsigned i.
func IndexUint(t cuda.Thread, d []int32, i uint64, out []int32) {
	if t.Grid1() == 0 {
		out[0] = d[i]
	}
}

// ArrayIndex reads a[i] of a local array of 4.
func ArrayIndex(t cuda.Thread, i int, out []int32) {
	if t.Grid1() == 0 {
		var a [4]int32
		a[1] = 7
		out[0] = a[i]
	}
}

// At2 reads a.At(i, j).
func At2(t cuda.Thread, a cuda.Array2[float32], i, j int, out []float32) {
	if t.Grid1() == 0 {
		out[0] = a.At(i, j)
	}
}

// Set3 stores to a.Set(i, j, k).
func Set3(t cuda.Thread, a cuda.Array3[int64], i, j, k int) {
	if t.Grid1() == 0 {
		a.Set(i, j, k, 7)
	}
}

// View2 views d as rows×cols.
func View2(t cuda.Thread, d []int32, rows, cols int, out []int32) {
	if t.Grid1() == 0 {
		a := cuda.MustView2(d, rows, cols)
		out[0] = a.At(0, 0)
	}
}

// View3 views d as d0×d1×d2.
func View3(t cuda.Thread, d []int32, d0, d1, d2 int, out []int32) {
	if t.Grid1() == 0 {
		a := cuda.MustView3(d, d0, d1, d2)
		out[0] = a.At(0, 0, 0)
	}
}

// IndexAtThread reads d[i] in thread (3,1,2) of block (1,2,3) alone.
func IndexAtThread(t cuda.Thread, d []int32, i int, out []int32) {
	b, th := t.BlockIdx(), t.ThreadIdx()
	if b.X == 1 && b.Y == 2 && b.Z == 3 && th.X == 3 && th.Y == 1 && th.Z == 2 {
		out[0] = d[i]
	}
}

// DebugFailure is a launch of one of the kernels above that fails its
// debug check, with its launch shape.
type DebugFailure struct {
	Name        string
	Kernel      any
	Args        func() []any
	Grid, Block cuda.Dim3
}

// DebugFailures lists one launch for each form of Go's bounds messages
// (runtime boundsError): every slice expression form of slices, local
// and shared arrays, each of its conditions failing first, signed negative
// and huge unsigned indices, and the conversion to an array pointer.
// The cuda.Array2/Array3 and MustView checks fail too, and one launch has a
// three-dimensional grid and blocks.
func DebugFailures() []DebugFailure {
	d := func() []int32 { return []int32{1, 2, 3, 4} }
	out := func() []int32 { return make([]int32, 1) }
	a2 := func() cuda.Array2[float32] { return cuda.MustView2(make([]float32, 6), 2, 3) }
	a3 := func() cuda.Array3[int64] { return cuda.MustView3(make([]int64, 24), 2, 3, 4) }
	type launch struct {
		name   string
		kernel any
		args   func() []any
	}
	var fails []DebugFailure
	for _, l := range []launch{
		{"slice/hi>cap", SliceHi, func() []any { return []any{d(), 5, out()} }},
		{"slice/hi<0", SliceHi, func() []any { return []any{d(), -2, out()} }},
		{"slice/lo>len", SliceLo, func() []any { return []any{d(), 6, out()} }},
		{"slice/lo<0", SliceLo, func() []any { return []any{d(), -1, out()} }},
		{"slice/lo>hi", SliceLoHi, func() []any { return []any{d(), 3, 1, out()} }},
		{"slice/both>cap", SliceLoHi, func() []any { return []any{d(), 9, 7, out()} }},
		{"slice/lo<0<hi", SliceLoHi, func() []any { return []any{d(), -3, 2, out()} }},
		{"slice/short/hi>cap", SliceShortHi, func() []any { return []any{d(), 5, out()} }},
		{"slice3/max>cap", Slice3, func() []any { return []any{d(), 0, 1, 7, out()} }},
		{"slice3/max<0", Slice3, func() []any { return []any{d(), 0, 1, -1, out()} }},
		{"slice3/hi>max", Slice3, func() []any { return []any{d(), 0, 3, 2, out()} }},
		{"slice3/hi<0", Slice3, func() []any { return []any{d(), 0, -4, 2, out()} }},
		{"slice3/lo>hi", Slice3, func() []any { return []any{d(), 2, 1, 3, out()} }},
		{"slice3/lo<0", Slice3, func() []any { return []any{d(), -1, 1, 3, out()} }},
		{"slice3/all bad", Slice3, func() []any { return []any{d(), 9, 8, 7, out()} }},
		{"slice3/nolo/hi>max", Slice3NoLo, func() []any { return []any{d(), 4, 3, out()} }},
		{"slice3/nolo/max>cap", Slice3NoLo, func() []any { return []any{d(), 1, 5, out()} }},
		{"uint/hi huge", SliceHiUint, func() []any { return []any{d(), uint(1<<63 + 1), out()} }},
		{"uint/hi>cap", SliceHiUint, func() []any { return []any{d(), uint(5), out()} }},
		{"uint32/lo huge", SliceLoUint32, func() []any { return []any{d(), uint32(math.MaxUint32), out()} }},
		{"int8/max<0", Slice3Int8, func() []any { return []any{d(), int8(0), int8(1), int8(-128), out()} }},
		{"int8/lo>hi", Slice3Int8, func() []any { return []any{d(), int8(3), int8(2), int8(4), out()} }},
		{"uint64/max huge", Slice3Uint64, func() []any { return []any{d(), uint64(0), uint64(1), uint64(math.MaxUint64), out()} }},
		{"uint64/hi huge", Slice3Uint64, func() []any { return []any{d(), uint64(0), uint64(1 << 63), uint64(4), out()} }},
		{"uint64/lo>hi", Slice3Uint64, func() []any { return []any{d(), uint64(3), uint64(2), uint64(4), out()} }},
		{"array/hi>len", ArraySlice, func() []any { return []any{0, 5, out()} }},
		{"array/lo>hi", ArraySlice, func() []any { return []any{3, 2, out()} }},
		{"array/lo<0", ArraySlice, func() []any { return []any{-1, 2, out()} }},
		{"array/lo>len", ArraySliceLo, func() []any { return []any{5, out()} }},
		{"array3/max>len", ArraySlice3, func() []any { return []any{0, 1, 6, out()} }},
		{"array3/hi>max", ArraySlice3, func() []any { return []any{0, 3, 2, out()} }},
		{"array3/lo>hi", ArraySlice3, func() []any { return []any{2, 1, 4, out()} }},
		{"shared/hi>cap", SharedSlice, func() []any { return []any{0, 9, out()} }},
		{"shared/lo>hi", SharedSlice, func() []any { return []any{4, 3, out()} }},
		{"shared3/max>cap", SharedSlice3, func() []any { return []any{0, 1, 10, out()} }},
		{"shared3/lo>hi", SharedSlice3, func() []any { return []any{5, 4, 6, out()} }},
		{"convert/short", ToArrayPtr, func() []any { return []any{[]int32{1, 2, 3}, out()} }},
		{"convert/array", ToArray, func() []any { return []any{[]int32{1, 2}, out()} }},
		{"convert/empty", ToArrayPtr, func() []any { return []any{[]int32{}, out()} }},
		{"index/too big", IndexAt, func() []any { return []any{d(), 4, out()} }},
		{"index/negative", IndexAt, func() []any { return []any{d(), -5, out()} }},
		{"index/uint huge", IndexUint, func() []any { return []any{d(), uint64(math.MaxUint64 - 1), out()} }},
		{"index/array", ArrayIndex, func() []any { return []any{4, out()} }},
		{"index/array negative", ArrayIndex, func() []any { return []any{-1, out()} }},
		{"array2/i", At2, func() []any { return []any{a2(), 2, 0, make([]float32, 1)} }},
		{"array2/j<0", At2, func() []any { return []any{a2(), 1, -1, make([]float32, 1)} }},
		{"array2/transposed j", At2, func() []any { return []any{a2().T(), 0, 2, make([]float32, 1)} }},
		{"array2/strided i", At2, func() []any {
			v, _ := cuda.MustView2(make([]float32, 12), 3, 4).Sub(cuda.Every(-2), cuda.StepRange(1, 4, 2))
			return []any{v, 2, 1, make([]float32, 1)}
		}},
		{"array3/k", Set3, func() []any { return []any{a3(), 1, 2, 4} }},
		{"array3/transposed i", Set3, func() []any { return []any{a3().T(), 4, 0, 0} }},
		{"array3/i<0", Set3, func() []any { return []any{a3(), -7, 9, 1} }},
		{"view2/len", View2, func() []any { return []any{d(), 3, 2, out()} }},
		{"view2/negative", View2, func() []any { return []any{d(), -2, -2, out()} }},
		{"view3/len", View3, func() []any { return []any{d(), 1, 2, 3, out()} }},
		{"view3/negative", View3, func() []any { return []any{d(), 2, -1, 2, out()} }},
		{"view2/overflow", View2, func() []any { return []any{make([]int32, 0), 1 << 32, 1 << 32, out()} }},
		{"view3/overflow", View3, func() []any { return []any{make([]int32, 0), 1 << 21, 1 << 21, 1 << 22, out()} }},
	} {
		fails = append(fails, DebugFailure{Name: l.name, Kernel: l.kernel, Args: l.args, Grid: cuda.Dim1(1), Block: cuda.Dim1(32)})
	}
	return append(fails, DebugFailure{Name: "index/3d thread", Kernel: IndexAtThread,
		Args: func() []any { return []any{d(), 9, out()} }, Grid: cuda.Dim3{X: 2, Y: 3, Z: 4}, Block: cuda.Dim3{X: 4, Y: 2, Z: 3}})
}
