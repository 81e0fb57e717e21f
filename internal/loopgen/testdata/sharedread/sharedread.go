// Package sharedread holds kernels whose loops and ifs around barriers
// read their conditions from shared memory (fission_sharedread.go).
package sharedread

//go:generate go tool nugo gen

import "github.com/nugo-dev/nugo/cuda"

// Converge loops until no thread raised the shared flag: the flag is read
// right after a barrier, and no thread writes it until the next one.
func Converge(t cuda.Thread, a []float32, tol float32) {
	flag := cuda.SharedArray[int32](t, 1)
	i := t.Grid1()
	for {
		if t.ThreadIdx().X == 0 {
			flag[0] = 0
		}
		t.SyncThreads()
		v := a[i] * 0.5
		if v > tol || v < -tol {
			flag[0] = 1
		}
		a[i] = v
		t.SyncThreads()
		if flag[0] == 0 {
			break
		}
		t.SyncThreads()
	}
}

// Trip runs a barrier loop as many times as thread 0 wrote into shared
// memory before a barrier.
func Trip(t cuda.Thread, a []int32) {
	cnt := cuda.SharedArray[int32](t, 2)
	sh := cuda.SharedArray[int32](t, 64)
	tid := t.ThreadIdx().X
	if tid == 0 {
		cnt[1] = a[0] & 3
	}
	sh[tid] = a[tid]
	t.SyncThreads()
	k := int(cnt[1])
	for r := 0; r < k; r++ {
		x := sh[(tid+1)%64]
		t.SyncThreads()
		sh[tid] = x
		t.SyncThreads()
	}
	a[tid] = sh[tid]
}

// WrittenAfter reads the flag after a barrier, but a thread writes it
// before the next barrier: threads may read different values.
func WrittenAfter(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	t.SyncThreads()
	for r := 0; r < int(flag[0]); r++ {
		t.SyncThreads()
	}
	if t.ThreadIdx().X == 3 {
		flag[0] = a[0]
	}
	t.SyncThreads()
}

// NotAfterBarrier reads the flag in the region where thread 0 writes it.
func NotAfterBarrier(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	if t.ThreadIdx().X == 0 {
		flag[0] = a[0]
	}
	k := int(flag[0])
	for r := 0; r < k; r++ {
		t.SyncThreads()
	}
}

// ThreadIndex reads the shared array at a thread's index.
func ThreadIndex(t cuda.Thread, a []int32) {
	sh := cuda.SharedArray[int32](t, 64)
	sh[t.ThreadIdx().X] = a[t.ThreadIdx().X]
	t.SyncThreads()
	for r := int32(0); r < sh[t.ThreadIdx().X]; r++ {
		t.SyncThreads()
	}
}

// Aliased passes the shared array to another variable: its writes are
// not followed.
func Aliased(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	other := flag
	t.SyncThreads()
	for r := int32(0); r < flag[0]; r++ {
		t.SyncThreads()
	}
	other[0] = a[0]
	t.SyncThreads()
}

// InLoopBody reads the flag at the top of a loop body, with no barrier
// before it in the body: the previous iteration's tail writes it.
func InLoopBody(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	for j := 0; j < 4; j++ {
		if flag[0] > 2 {
			break
		}
		t.SyncThreads()
		if t.ThreadIdx().X == 0 {
			flag[0] += a[j]
		}
	}
}

// WhileFlag loops while the flag is set, the body resetting and raising
// it between its first and last barriers.
func WhileFlag(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	i := t.Grid1()
	flag[0] = 1
	t.SyncThreads()
	for flag[0] != 0 {
		t.SyncThreads()
		if t.ThreadIdx().X == 0 {
			flag[0] = 0
		}
		t.SyncThreads()
		a[i] /= 2
		if a[i] != 0 {
			flag[0] = 1
		}
		t.SyncThreads()
	}
	a[i] += 1
}

// WhileContinue continues its loop from between the barriers, where the
// flag is written: the condition is then read with no barrier between.
func WhileContinue(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	flag[0] = 1
	t.SyncThreads()
	for flag[0] != 0 {
		t.SyncThreads()
		flag[0] = a[0]
		if len(a) > 3 {
			continue
		}
		t.SyncThreads()
	}
}

// WhileTailWrite writes the flag after the body's last barrier.
func WhileTailWrite(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	t.SyncThreads()
	for flag[0] != 0 {
		t.SyncThreads()
		flag[0] = a[0]
	}
}

// WhileAfterWrite writes the flag after the loop, before any barrier: a
// thread that left may write it while another reads the condition.
func WhileAfterWrite(t cuda.Thread, a []int32) {
	flag := cuda.SharedArray[int32](t, 1)
	t.SyncThreads()
	for flag[0] != 0 {
		t.SyncThreads()
		flag[0] = a[0]
		t.SyncThreads()
	}
	flag[0] = 5
}
