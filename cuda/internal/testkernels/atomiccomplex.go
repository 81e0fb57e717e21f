package testkernels

import "github.com/nugo-dev/nugo/cuda"

// AtomicComplexAll makes every thread add y[i] to acc[0] (global memory)
// and to a block-shared sum that thread 0 then adds to acc[1], and add
// y[i] to its own element own[i], keeping the old value in olds[i]. Generic
// over both complex types, so that each instantiation goes through the
// same path as a user's generic kernel.
func AtomicComplexAll[T cuda.Complex](t cuda.Thread, y, own, olds, acc []T) {
	sh := cuda.SharedArray[T](t, 1)
	tid := t.ThreadIdx().X
	if tid == 0 {
		sh[0] = 0
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(y) {
		cuda.AtomicAddComplex(&acc[0], y[i])
		cuda.AtomicAddComplex(&sh[0], y[i])
		olds[i] = cuda.AtomicAddComplex(&own[i], y[i])
	}
	t.SyncThreads()
	if tid == 0 {
		cuda.AtomicAddComplex(&acc[1], sh[0])
	}
}
