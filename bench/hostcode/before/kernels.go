package main

import "github.com/nugo-dev/nugo/cuda"

const tpb = 256

func saxpy(t cuda.Thread, a float32, x, y []float32) {
	if i := t.Grid1(); i < len(y) {
		y[i] = a*x[i] + y[i]
	}
}

func addIndex(t cuda.Thread, m cuda.Array2[int32]) {
	x, y := t.Grid2()
	if rows, cols := m.Shape(); y < rows && x < cols {
		m.Set(y, x, m.At(y, x)+int32(10*y+x))
	}
}

func blockSum(t cuda.Thread, x []float32, total []float32) {
	buf := cuda.SharedArray[float32](t, tpb)
	tid := t.ThreadIdx().X
	if i := t.Grid1(); i < len(x) {
		buf[tid] = x[i]
	}
	t.SyncThreads()
	for s := tpb / 2; s > 0; s >>= 1 {
		if tid < s {
			buf[tid] += buf[tid+s]
		}
		t.SyncThreads()
	}
	if tid == 0 {
		cuda.AtomicAdd(&total[0], buf[0])
	}
}

func hypot2(x, y float64) float64 { return x*x + y*y }

func movingAverage(x []float64, width int64, out []float64) {
	w := int(width)
	for i := range x {
		lo, hi := max(0, i-w/2), min(len(x)-1, i+w/2)
		var s float64
		for j := lo; j <= hi; j++ {
			s += x[j]
		}
		out[i] = s / float64(hi-lo+1)
	}
}
