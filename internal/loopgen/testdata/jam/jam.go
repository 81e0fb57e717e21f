// Package jam holds kernels whose block loops TestJamForms reads: which
// regions are run four threads at a time (unroll-and-jam) and which are
// not, because jamming could change what they do.
package jam

import "github.com/nugo-dev/nugo/cuda"

// Dot has a region made of a declaration, one uniform loop over the
// thread's own variables and nothing else: jammed.
func Dot(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = a[i]
	t.SyncThreads()
	var sum float32
	for p := 0; p < 8; p++ {
		sum += sh[(tid+p)%64] * sh[p]
	}
	t.SyncThreads()
	out[i] = sum
}

// StoresShared writes shared memory in its loop: not jammed.
func StoresShared(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	sh[tid] = a[t.Grid1()]
	t.SyncThreads()
	for p := 0; p < 8; p++ {
		sh[tid] += float32(p)
	}
	t.SyncThreads()
	out[t.Grid1()] = sh[63-tid]
}

// ThreadBound runs its loop a number of times that depends on the
// thread: not jammed.
func ThreadBound(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	sh[tid] = a[t.Grid1()]
	t.SyncThreads()
	var sum float32
	for p := 0; p < tid; p++ {
		sum += sh[p]
	}
	t.SyncThreads()
	out[t.Grid1()] = sum
}

// Calls calls a function in its loop: not jammed.
func Calls(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	sh[tid] = a[t.Grid1()]
	t.SyncThreads()
	var sum float32
	for p := 0; p < 8; p++ {
		sum += twice(sh[p])
	}
	t.SyncThreads()
	out[t.Grid1()] = sum
}

// Branches has an if in its loop: not jammed.
func Branches(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	sh[tid] = a[t.Grid1()]
	t.SyncThreads()
	var sum float32
	for p := 0; p < 8; p++ {
		if sh[p] > 0 {
			sum += sh[p]
		}
	}
	t.SyncThreads()
	out[t.Grid1()] = sum
}

// Exits returns early, so the region's loop skips threads that left:
// not jammed.
func Exits(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	sh[tid] = a[t.Grid1()]
	if tid == 5 {
		return
	}
	t.SyncThreads()
	var sum float32
	for p := 0; p < 8; p++ {
		sum += sh[p]
	}
	t.SyncThreads()
	out[t.Grid1()] = sum
}

func twice(x float32) float32 { return 2 * x }

func Swapped(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = a[i]
	t.SyncThreads()
	var sum float32
	for p := 0; p < 32; p++ {
		sum += sh[(tid+p)%64] * sh[p]
	}
	t.SyncThreads()
	out[i] = sum
}

func SwappedAfter(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = a[i]
	t.SyncThreads()
	var sum float32
	for p := 0; p < 32; p++ {
		sum += sh[(tid+p)%64] * sh[p]
	}
	sum *= 2
	t.SyncThreads()
	out[i] = sum
}

func UniformBound(t cuda.Thread, a, out []float32, n int) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = a[i]
	t.SyncThreads()
	var sum float32
	for p := 0; p < n; p++ {
		sum += sh[(tid+p)%64] * sh[p]
	}
	t.SyncThreads()
	out[i] = sum
}

func Unrolled(t cuda.Thread, a, out []float32) {
	sh := cuda.SharedArray[float32](t, 64)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	sh[tid] = a[i]
	t.SyncThreads()
	var sum float32
	for p := 0; p < 16; p++ {
		sum += sh[(tid+p)%64] * sh[p]
	}
	t.SyncThreads()
	out[i] = sum
}
