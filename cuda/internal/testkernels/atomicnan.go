package testkernels

import "github.com/nugo-dev/nugo/cuda"

// AtomicNanEach applies AtomicNanMax of y[i] to mx[i] and AtomicNanMin of
// y[i] to mn[i], keeping the old values in oldMx[i] and oldMn[i], once on
// global memory and once on a copy of the element in shared memory (at
// most 256 threads a block), whose result goes to shMx[i] and shMn[i].
// Generic over every AtomicNanMax type, so that each instantiation goes
// through the same path as a user's generic kernel.
func AtomicNanEach[T cuda.AtomicElement](t cuda.Thread, mx, mn, y, oldMx, oldMn, shMx, shMn []T) {
	sh := cuda.SharedArray[T](t, 512)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	if i < len(y) {
		sh[2*tid] = shMx[i]
		sh[2*tid+1] = shMn[i]
	}
	t.SyncThreads()
	if i < len(y) {
		oldMx[i] = cuda.AtomicNanMax(&mx[i], y[i])
		oldMn[i] = cuda.AtomicNanMin(&mn[i], y[i])
		cuda.AtomicNanMax(&sh[2*tid], y[i])
		cuda.AtomicNanMin(&sh[2*tid+1], y[i])
	}
	t.SyncThreads()
	if i < len(y) {
		shMx[i] = sh[2*tid]
		shMn[i] = sh[2*tid+1]
	}
}

// AtomicNanAll makes every thread apply AtomicNanMax and AtomicNanMin of
// y[i] to acc[0] and acc[1] in global memory, and to two shared elements
// that start as init[0] and init[1], which each block then folds into
// acc[2] and acc[3] with the same atomics.
func AtomicNanAll[T cuda.AtomicElement](t cuda.Thread, y, init, acc []T) {
	sh := cuda.SharedArray[T](t, 2)
	tid := t.ThreadIdx().X
	if tid == 0 {
		sh[0] = init[0]
		sh[1] = init[1]
	}
	t.SyncThreads()
	if i := t.Grid1(); i < len(y) {
		cuda.AtomicNanMax(&acc[0], y[i])
		cuda.AtomicNanMin(&acc[1], y[i])
		cuda.AtomicNanMax(&sh[0], y[i])
		cuda.AtomicNanMin(&sh[1], y[i])
	}
	t.SyncThreads()
	if tid == 0 {
		cuda.AtomicNanMax(&acc[2], sh[0])
		cuda.AtomicNanMin(&acc[3], sh[1])
	}
}
