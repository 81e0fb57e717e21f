package corpus

import "github.com/nugo-dev/nugo/cuda"

// The copy and clear builtins on slices: global, shared and local memory,
// overlapping copies in both directions, slices of structs.

func copyGlobalToLocal(t cuda.Thread, a []int64, out []int64) {
	i := t.Grid1()
	if i < len(out) {
		var buf [8]int64
		lo := i % 10
		n := copy(buf[:], a[lo:lo+5])
		m := copy(buf[5:], a[lo:])
		var s int64
		for k, v := range buf {
			s += v * int64(k+1)
		}
		out[i] = s*100 + int64(n*10+m)
	}
}

func copyOverlap(t cuda.Thread, out []int32) {
	i := t.Grid1()
	if i < len(out) {
		var buf [10]int32
		for k := range buf {
			buf[k] = int32(k*7 + i)
		}
		copy(buf[1:], buf[:]) // dst above src: back to front
		copy(buf[:], buf[3:]) // dst below src: front to back
		n := copy(buf[2:4], buf[2:4])
		var s int32
		for k, v := range buf {
			s = s*3 + v*int32(k)
		}
		out[i] = s + int32(n)
	}
}

func copyGlobalSegments(t cuda.Thread, in []float32, out []float32) {
	i := t.Grid1()
	if i < len(out)/4 {
		n := copy(out[4*i:4*i+4], in[4*i+1:])
		out[4*i] += float32(n)
	}
}

func copyShared(t cuda.Thread, in []float64, out []float64) {
	sh := cuda.SharedArray[float64](t, 128)
	tid := t.ThreadIdx().X
	g := t.Grid1()
	if g < len(in) {
		copy(sh[tid:tid+1], in[g:])
	} else {
		clear(sh[tid : tid+1])
	}
	t.SyncThreads()
	if g < len(out) {
		k := (tid + 1) % 128
		copy(out[g:g+1], sh[k:])
	}
}

type copyPair struct {
	a int16
	b float64
	c bool
}

func copyStructs(t cuda.Thread, out []float64) {
	i := t.Grid1()
	if i < len(out) {
		var ps [5]copyPair
		for k := range ps {
			ps[k] = copyPair{int16(k * i), float64(k) + 0.5, k%2 == 0}
		}
		copy(ps[1:], ps[:4])
		clear(ps[4:])
		var s float64
		for k, p := range ps {
			if p.c {
				s += float64(p.a) * p.b * float64(k+1)
			} else {
				s -= p.b
			}
		}
		out[i] = s
	}
}

func clearSegments(t cuda.Thread, out []int32) {
	i := t.Grid1()
	if i < len(out)/4 {
		clear(out[4*i+1 : 4*i+3])
		var buf [6]uint8
		for k := range buf {
			buf[k] = uint8(k + 250)
		}
		clear(buf[2:5])
		clear(buf[:0])
		var s int32
		for _, v := range buf {
			s = s*2 + int32(v)
		}
		out[4*i] += s
	}
}

func fill4(n int, v int32) []int32 {
	out := make([]int32, n)
	for i := range out {
		out[i] = v + int32(i)
	}
	return out
}

var builtinCases = []Case{
	c1("builtins/copy_global_to_local", copyGlobalToLocal, func() []any { return []any{cycleI64(n1 + 20), zeros[int64](n1)} }),
	c1("builtins/copy_overlap", copyOverlap, func() []any { return []any{zeros[int32](n1)} }),
	c1("builtins/copy_global_segments", copyGlobalSegments, func() []any { return []any{cycleF32(4*n1 + 1), zeros[float32](4 * n1)} }),
	c1("builtins/copy_shared", copyShared, func() []any { return []any{iotaF64(n1), zeros[float64](n1)} }),
	c1("builtins/copy_structs", copyStructs, func() []any { return []any{zeros[float64](n1)} }),
	c1("builtins/clear", clearSegments, func() []any { return []any{fill4(4*n1, 7)} }),
}
