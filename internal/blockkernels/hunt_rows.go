package blockkernels

import (
	"runtime"

	"github.com/nugo-dev/nugo/cuda"
)

// Hunt kernels of row loops across blocks (hunt_rows_test.go): kernels
// that read only Grid1 (one row for a worker's run of blocks), one that
// ends its thread with runtime.Goexit, and shared memory in a kernel
// without barriers, whose row loop runs on from one block to the next.

// HuntGrid1 reads only Grid1; the thread at grid x bad indexes past a.
func HuntGrid1(t cuda.Thread, a []int32, bad int) {
	i := t.Grid1()
	if i < len(a) {
		a[i] = a[i]*3 + int32(i)
	}
	if i == bad {
		a[len(a)+i] = 0
	}
}

// HuntGrid1Goexit reads only Grid1; the thread at grid x bad ends with
// runtime.Goexit.
func HuntGrid1Goexit(t cuda.Thread, a []int32, bad int) {
	i := t.Grid1()
	if i == bad {
		runtime.Goexit()
	}
	if i < len(a) {
		a[i] = a[i]*3 + int32(i)
	}
}

// HuntRowShared counts, in shared memory, the threads of its block that
// ran before it (the CPU backend runs a block's threads in order; a GPU
// would race), and adds its block's x from shared memory set by thread 0.
func HuntRowShared(t cuda.Thread, a []int32) {
	sh := cuda.SharedArray[int32](t, 2)
	if t.ThreadIdx().X == 0 && t.ThreadIdx().Y == 0 {
		sh[1] = int32(t.BlockIdx().X + 10*t.BlockIdx().Y)
	}
	sh[0]++
	if i := t.Grid1(); i < len(a) {
		a[i] += sh[0]*100 + sh[1]
	}
}

// HuntBlockGoexit has a block loop (a barrier); the thread at grid x bad
// ends with runtime.Goexit before or after the barrier.
func HuntBlockGoexit(t cuda.Thread, a []int32, bad int, after bool) {
	sh := cuda.SharedArray[int32](t, HuntMax)
	tid := t.ThreadIdx().X
	i := t.Grid1()
	if i == bad && !after {
		runtime.Goexit()
	}
	if i < len(a) {
		sh[tid] = a[i]
	}
	t.SyncThreads()
	if i == bad && after {
		runtime.Goexit()
	}
	if i < len(a) {
		a[i] = sh[(tid+1)%t.BlockDim().X] * 2
	}
}
