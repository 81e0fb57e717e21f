package cuda

import (
	"math"
	"runtime"
	"testing"
	"time"
)

func goroutines() int { return runtime.NumGoroutine() }

// checkNoLeak waits briefly for goroutines to exit and fails if more remain
// than before.
func checkNoLeak(t *testing.T, before int) {
	t.Helper()
	for range 100 {
		if goroutines() <= before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("%d goroutines before, %d after: leaked", before, goroutines())
}

func positions(t Thread, out Array3[int32]) {
	x, y, z := t.Grid3()
	tid, bid, bdim, gdim := t.ThreadIdx(), t.BlockIdx(), t.BlockDim(), t.GridDim()
	sx, sy, sz := t.GridSize3()
	if x != bid.X*bdim.X+tid.X || y != bid.Y*bdim.Y+tid.Y || z != bid.Z*bdim.Z+tid.Z ||
		sx != gdim.X*bdim.X || sy != gdim.Y*bdim.Y || sz != gdim.Z*bdim.Z {
		panic("inconsistent position")
	}
	gx, gy := t.Grid2()
	if gx != x || gy != y || t.Grid1() != x {
		panic("Grid1/Grid2 disagree with Grid3")
	}
	lin := tid.X + bdim.X*(tid.Y+bdim.Y*tid.Z)
	if t.LaneID() != lin%32 || t.WarpSize() != WarpSize {
		panic("lane")
	}
	out.Set(z, y, x, out.At(z, y, x)+1)
}

func TestThreadPositions(t *testing.T) {
	tests := []struct{ grid, block Dim3 }{
		{Dim1(3), Dim1(7)},
		{Dim2(2, 3), Dim2(4, 5)},
		{Dim3{2, 2, 3}, Dim3{3, 2, 4}},
	}
	for _, tc := range tests {
		d0, d1, d2 := tc.grid.Z*tc.block.Z, tc.grid.Y*tc.block.Y, tc.grid.X*tc.block.X
		out := NewArray3[int32](d0, d1, d2)
		if err := Jit(positions).Launch(tc.grid, tc.block, out); err != nil {
			t.Fatalf("grid %v block %v: %v", tc.grid, tc.block, err)
		}
		for i, v := range out.Data() {
			if v != 1 {
				t.Fatalf("grid %v block %v: element %d visited %d times", tc.grid, tc.block, i, v)
			}
		}
	}
}

// reverse reverses each block's part of data through shared memory: it is
// only correct if every thread writes before any thread reads.
func reverse(t Thread, data []int64) {
	sh := SharedArray[int64](t, 256)
	i, n := t.ThreadIdx().X, t.BlockDim().X
	sh[i] = data[t.Grid1()]
	t.SyncThreads()
	data[t.Grid1()] = sh[n-1-i]
}

func TestSyncThreadsAndSharedArray(t *testing.T) {
	data := make([]int64, 256*50)
	for i := range data {
		data[i] = int64(i)
	}
	if err := Jit(reverse).Launch(Dim1(50), Dim1(256), data); err != nil {
		t.Fatal(err)
	}
	for b := range 50 {
		for i := range 256 {
			if want := int64(b*256 + 255 - i); data[b*256+i] != want {
				t.Fatalf("data[%d] = %d, want %d", b*256+i, data[b*256+i], want)
			}
		}
	}
}

// blockSum sums each block's elements with a tree reduction in shared
// memory; several barriers, and threads that exit early.
func blockSum(t Thread, in, out []float64) {
	sh := SharedArray[float64](t, 128)
	i := t.ThreadIdx().X
	sh[i] = in[t.Grid1()]
	t.SyncThreads()
	for s := t.BlockDim().X / 2; s > 0; s /= 2 {
		if i < s {
			sh[i] += sh[i+s]
		}
		t.SyncThreads()
	}
	if i == 0 {
		out[t.BlockIdx().X] = sh[0]
	}
}

func TestReductionWithBarriers(t *testing.T) {
	in := make([]float64, 128*20)
	for i := range in {
		in[i] = float64(i % 128)
	}
	out := make([]float64, 20)
	before := goroutines()
	if err := Jit(blockSum).Launch(Dim1(20), Dim1(128), in, out); err != nil {
		t.Fatal(err)
	}
	for b, v := range out {
		if v != 127*128/2 {
			t.Fatalf("block %d sum %v, want %v", b, v, 127*128/2)
		}
	}
	checkNoLeak(t, before)
}

func TestEarlyExitDoesNotDeadlockBarrier(t *testing.T) {
	k := Jit(func(t Thread, out []int32) {
		i := t.Grid1()
		if i >= len(out) {
			return // exits before the barrier, as many CUDA kernels do
		}
		sh := SharedArray[int32](t, 32)
		sh[t.ThreadIdx().X] = 1
		t.SyncThreads()
		var s int32
		for _, v := range sh {
			s += v
		}
		out[i] = s
	})
	out := make([]int32, 40)
	if err := k.Launch(Dim1(2), Dim1(32), out); err != nil {
		t.Fatal(err)
	}
	if out[0] != 32 || out[39] != 8 {
		t.Fatalf("out[0] = %d (want 32), out[39] = %d (want 8)", out[0], out[39])
	}
}

func TestDynamicSharedArray(t *testing.T) {
	k := Jit(func(t Thread, out []float32) {
		f := DynamicSharedArray[float32](t)
		u := DynamicSharedArray[uint32](t)
		i := t.ThreadIdx().X
		f[i] = float32(i) + 0.5
		t.SyncThreads()
		out[t.Grid1()] = float32(len(f)) + float32(u[len(u)-1-i]&1)
	})
	out := make([]float32, 64)
	if err := k.LaunchWith(LaunchConfig{Grid: Dim1(2), Block: Dim1(32), SharedMem: 32 * 4}, out); err != nil {
		t.Fatal(err)
	}
	for i, v := range out {
		// len is 32; bit 0 of the float bits of x.5 for x in 0..31 varies,
		// so check against the same computation on the host.
		x := float32(31-i%32) + 0.5
		want := 32 + float32(math.Float32bits(x)&1)
		if v != want {
			t.Fatalf("out[%d] = %v, want %v", i, v, want)
		}
	}
}
