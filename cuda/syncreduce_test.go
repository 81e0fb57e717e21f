package cuda_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// TestSyncThreadsReduce runs SyncThreadsCount, And and Or over blocks of
// several shapes, with predicates all true, all false and mixed, and with
// threads that return before the barriers, on the CPU backend and on
// ptxsim. Each thread must get its block's count of true predicates among
// the threads that did not return, and And and Or of them.
func TestSyncThreadsReduce(t *testing.T) {
	// mode gives each thread -1 (returns), 0 (false) or 1 (true) from its
	// block's linear index and its linear index within the block.
	type modeFunc func(block, tid int) int32
	cases := []struct {
		name        string
		grid, block Dim3
		mode        modeFunc
	}{
		{"even of 100", Dim1(3), Dim1(100), func(b, i int) int32 { return b2i(i%2 == 0) }},
		{"all true", Dim1(2), Dim1(64), func(b, i int) int32 { return 1 }},
		{"all false", Dim1(2), Dim1(33), func(b, i int) int32 { return 0 }},
		{"one true", Dim1(2), Dim1(200), func(b, i int) int32 { return b2i(i == 150+b) }},
		{"first threads return", Dim1(3), Dim1(70), func(b, i int) int32 {
			if i < 5 || i%9 == 4 {
				return -1
			}
			return b2i((i+b)%3 == 0)
		}},
		{"returned threads would break the And", Dim1(2), Dim1(50), func(b, i int) int32 {
			if i%4 == 1 {
				return -1
			}
			return 1
		}},
		{"all return but one", Dim1(2), Dim1(96), func(b, i int) int32 { return int32(i/95*(1+b)) - 1 }},
		{"all return", Dim1(2), Dim1(40), func(b, i int) int32 { return -1 }},
		{"2-D 12x5 by block", Dim2(2, 3), Dim2(12, 5), func(b, i int) int32 {
			switch b % 3 {
			case 0:
				return 1
			case 1:
				return 0
			}
			return b2i(i%7 < 3)
		}},
		{"3-D 4x4x4 with returns", Dim3{X: 1, Y: 2, Z: 2}, Dim3{X: 4, Y: 4, Z: 4}, func(b, i int) int32 {
			if i%7 == 0 {
				return -1
			}
			return b2i((i*b)%5 == 1)
		}},
		{"1024 threads", Dim1(2), Dim1(1024), func(b, i int) int32 { return b2i(i%(3+b) == 0) }},
		{"one thread", Dim1(3), Dim1(1), func(b, i int) int32 { return int32(b%2*2 - 1 + b/2) }},
	}
	for _, be := range warpBackends {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s/%s", be, tc.name), func(t *testing.T) {
				onBackend(t, be)
				g, bd := tc.grid, tc.block
				sx, sy := g.X*bd.X, g.Y*bd.Y
				n := g.Size() * bd.Size()
				mode := make([]int32, n)
				// blockOf and tidOf index threads by their grid position.
				blockOf, tidOf := make([]int, n), make([]int, n)
				for bz := range g.Z {
					for by := range g.Y {
						for bx := range g.X {
							b := bx + g.X*(by+g.Y*bz)
							for tz := range bd.Z {
								for ty := range bd.Y {
									for tx := range bd.X {
										x, y, z := bx*bd.X+tx, by*bd.Y+ty, bz*bd.Z+tz
										i := (z*sy+y)*sx + x
										tid := tx + bd.X*(ty+bd.Y*tz)
										blockOf[i], tidOf[i] = b, tid
										mode[i] = tc.mode(b, tid)
									}
								}
							}
						}
					}
				}
				trues, live := make([]int32, g.Size()), make([]int32, g.Size())
				for i, m := range mode {
					if m >= 0 {
						live[blockOf[i]]++
						trues[blockOf[i]] += m
					}
				}
				count, flags := make([]int32, n), make([]int32, n)
				for i := range count {
					count[i], flags[i] = -7, -7
				}
				if err := Jit(testkernels.BlockVotes).Launch(g, bd, mode, count, flags); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					b := blockOf[i]
					wantC, wantF := trues[b], int32(0)
					if trues[b] == live[b] {
						wantF |= 1
					}
					if trues[b] > 0 {
						wantF |= 2
					}
					if mode[i] < 0 {
						wantC, wantF = -7, -7
					}
					if count[i] != wantC || flags[i] != wantF {
						t.Errorf("block %d thread %d: count %d flags %d, want %d and %d", b, tidOf[i], count[i], flags[i], wantC, wantF)
					}
				}
			})
		}
	}
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// TestSyncThreadsCountFault: a thread that fails while the rest of its
// block waits in SyncThreadsCount fails the launch with a *KernelError
// instead of hanging.
func TestSyncThreadsCountFault(t *testing.T) {
	for _, b := range warpBackends {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			data := make([]int, 40)
			err := Jit(testkernels.SyncCountFault, Debug).Launch(Dim1(1), Dim1(64), data)
			var ke *KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("got %v, want a *KernelError", err)
			}
			if ke.Thread.X < 40 {
				t.Errorf("the error names thread %v, which indexes in range", ke.Thread)
			}
		})
	}
}

// TestFences: the three fences leave the kernel's results alone on every
// backend and compile to membar of their scope, which ptxas accepts.
func TestFences(t *testing.T) {
	for _, b := range warpBackends {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			v := make([]int64, 100)
			for i := range v {
				v[i] = int64(i)
			}
			if err := Jit(testkernels.Fences).Launch(Dim1(2), Dim1(64), v); err != nil {
				t.Fatal(err)
			}
			for i := range v {
				if v[i] != int64(i)+3 {
					t.Fatalf("v[%d] = %d, want %d", i, v[i], i+3)
				}
			}
		})
	}
}

// syncReducePTXWants is what TestSyncReducePTX counts in each kernel's
// release-mode PTX (debug mode adds its own membar.gl and bar.sync).
var syncReducePTXWants = map[string][]struct {
	text  string
	count int
}{
	"BlockVotes": {{"bar.red.popc.u32", 1}, {"bar.red.and.pred", 1}, {"bar.red.or.pred", 1}},
	"Fences":     {{"membar.cta", 1}, {"membar.gl", 1}, {"membar.sys", 1}, {"bar.red", 0}},
}

// TestSyncReducePTX: the reducing barriers compile to bar.red and the
// fences to membar.cta, .gl and .sys, which ptxas (where installed) accepts
// for sm_75 and sm_90.
func TestSyncReducePTX(t *testing.T) {
	kernels := map[string]any{"BlockVotes": testkernels.BlockVotes, "Fences": testkernels.Fences, "SyncCountFault": testkernels.SyncCountFault}
	for name, k := range kernels {
		for _, debug := range []bool{false, true} {
			var opts []Option
			if debug {
				opts = append(opts, Debug)
			}
			for _, sm := range []int{75, 90} {
				src, err := Jit(k, opts...).PTX(sm)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				for _, want := range syncReducePTXWants[name] {
					if n := strings.Count(src, want.text); n != want.count && (!debug || n < want.count || want.count == 0) {
						t.Errorf("%s debug=%v: %d times %q, want %d", name, debug, n, want.text, want.count)
					}
				}
				ptxastest.Assemble(t, fmt.Sprintf("%s debug=%v", name, debug), src, sm)
			}
		}
	}
}
