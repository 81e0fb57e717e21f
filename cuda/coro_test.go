package cuda

import (
	"errors"
	"testing"
	"time"
)

// coroRounds is how many rounds of SyncThreadsCount coroLeaving runs.
const coroRounds = 4

// coroLeaving: the thread of linear index l in its block takes part in
// l%5 rounds of SyncThreadsCount and returns; thread r+1, the first in
// round r, writes the count it got to out[block*coroRounds+r]. The thread
// of grid-wide linear index fail panics in round 1.
func coroLeaving(t Thread, out []int32, fail int) {
	d, tid := t.BlockDim(), t.ThreadIdx()
	l := tid.X + d.X*(tid.Y+d.Y*tid.Z)
	bi := t.BlockIdx().X
	for r := range l % 5 {
		if r == 1 && bi*d.Size()+l == fail {
			panic("thread fails")
		}
		c := t.SyncThreadsCount(l%2 == 0)
		if l == r+1 {
			out[bi*coroRounds+r] = int32(c)
		}
	}
}

// A block's threads, as coroutines reused from block to block by each
// worker, leave their barriers as they return, count right in every round
// of every block, and leak nothing; a thread that panics fails the launch
// naming itself, and the coroutines of its block unwind.
func TestCoroutinesAcrossBlocks(t *testing.T) {
	defer SetBackend(Auto)
	if err := SetBackend(CPU); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		grid  int
		block Dim3
		fail  int // -1: none
	}{
		{"5 threads", 40, Dim1(5), -1},
		{"33 threads", 40, Dim1(33), -1},
		{"256 threads", 24, Dim1(256), -1},
		{"3-D block", 16, Dim3{8, 4, 2}, -1},
		{"thread fails", 24, Dim1(96), 5*96 + 37},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := goroutines()
			n := c.block.Size()
			out := make([]int32, c.grid*coroRounds)
			err := Jit(coroLeaving).LaunchWith(LaunchConfig{Grid: Dim1(c.grid), Block: c.block}, out, c.fail)
			checkNoLeak(t, before)
			if c.fail >= 0 {
				var ke *KernelError
				if !errors.As(err, &ke) || ke.Block != (Dim3{c.fail / n, 0, 0}) || ke.Thread != (Dim3{c.fail % n, 0, 0}) || ke.Msg != "thread fails" {
					t.Fatalf("got %v, want thread %d of block %d failing", err, c.fail%n, c.fail/n)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for r := range coroRounds {
				want := 0
				for l := range n {
					if l%5 > r && l%2 == 0 {
						want++
					}
				}
				for b := range c.grid {
					if got := out[b*coroRounds+r]; got != int32(want) {
						t.Fatalf("block %d round %d: count %d, want %d", b, r, got, want)
					}
				}
			}
		})
	}
}

// coroDeadlock: thread `waiter` shuffles with the whole warp while the
// other threads wait at SyncThreads, each for the others: on a GPU the
// block hangs. With waiter 0 the worker's own thread (the first to
// synchronise) is the one in the warp operation; otherwise thread 0 makes
// the block concurrent with a warp sync of its own lane and returns, and
// the threads left, coroutines, deadlock among themselves.
func coroDeadlock(t Thread, out []int32, waiter int) {
	l := t.ThreadIdx().X
	if l == 0 && waiter != 0 {
		t.SyncWarpMask(1)
		return
	}
	if l == waiter {
		out[0] = int32(ShflSync(t, int32(l), 1))
		return
	}
	t.SyncThreads()
	out[l] = 1
}

// Threads that wait for each other at different barriers fail the launch
// with a KernelError saying so, where goroutines used to hang.
func TestCoroutinesDeadlock(t *testing.T) {
	defer SetBackend(Auto)
	if err := SetBackend(CPU); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		waiter int
	}{
		{"worker's thread waits", 0},
		{"coroutine waits", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := goroutines()
			done := make(chan error, 1)
			go func() {
				done <- Jit(coroDeadlock).Launch(Dim1(2), Dim1(32), make([]int32, 32), c.waiter)
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("Launch did not return")
			}
			var ke *KernelError
			if !errors.As(err, &ke) || ke.Msg != deadlockMsg {
				t.Fatalf("got %v, want a KernelError %q", err, deadlockMsg)
			}
			checkNoLeak(t, before)
		})
	}
}
