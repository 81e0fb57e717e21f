package cuda_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// maskBackends are the backends of the member-mask tests: the cpu (block
// loops where nugo gen wrote them), the cpu's goroutine path, ptxsim and
// the GPU backend over the simulated device.
var maskBackends = []struct {
	name  string
	setup func(t *testing.T)
}{
	{"cpu", func(t *testing.T) { onBackend(t, CPU) }},
	{"cpu-goroutines", func(t *testing.T) {
		onBackend(t, CPU)
		prev := cpu.SetRowsDisabled(true)
		t.Cleanup(func() { cpu.SetRowsDisabled(prev) })
	}},
	{"ptxsim", func(t *testing.T) { onBackend(t, PTXSim) }},
	{"gpu-sim", func(t *testing.T) { simGPU(t) }},
}

// quarterLanes is the member mask of lane's quarter of a warp whose live
// lanes are live.
func quarterLanes(lane int, live uint32) uint32 { return 0xff << (8 * (lane / 8)) & live }

// TestWarpMaskOps: every Mask form of the warp functions among the lanes
// of each quarter of the warp, even and odd quarters on the two sides of a
// branch, in blocks of 80 (the third warp has 16 lanes), with and without
// Debug: lanes outside the mask neither wait nor count, and a shuffle from
// one gives the reader its own value.
func TestWarpMaskOps(t *testing.T) {
	const n = 80
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(i)
	}
	for _, b := range maskBackends {
		for _, opts := range [][]Option{nil, {Debug}} {
			t.Run(fmt.Sprintf("%s/%d", b.name, len(opts)), func(t *testing.T) {
				b.setup(t)
				out := make([]uint32, 8*n)
				if err := Jit(testkernels.MaskOps, opts...).Launch(Dim1(1), Dim1(n), in, out); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					w, lane := i/32*32, i%32
					live := uint32(1)<<min(32, n-w) - 1
					if n-w >= 32 {
						live = 0xffffffff
					}
					q := quarterLanes(lane, live)
					val := func(l int) uint32 {
						if q&(1<<l) == 0 {
							return uint32(i)
						}
						return uint32(w + l)
					}
					var ballot, same uint32
					for l := range 32 {
						if q&(1<<l) != 0 && (w+l)%3 == 0 {
							ballot |= 1 << l
						}
						if q&(1<<l) != 0 && (w+l)%2 == i%2 {
							same |= 1 << l
						}
					}
					var votes uint32
					if ballot == q {
						votes |= 1
					}
					if ballot != 0 {
						votes |= 2
					}
					if ballot == 0 || ballot == q {
						votes |= 4
					}
					up, down := lane-1, lane+1
					if lane%8 == 0 {
						up = 32
					}
					want := []uint32{ballot, val(lane/8*8 + 2), val(up), val(down), val(lane ^ 3), votes, same, q}
					if got := out[8*i : 8*i+8]; !slices.Equal(got, want) {
						t.Errorf("thread %d: %#x, want %#x", i, got, want)
					}
				}
			})
		}
	}
}

// TestQuarterBallot: BallotSyncMask(t, 0xff << (8*(lane/8)), pred), each
// quarter of the warp a ballot of its own.
func TestQuarterBallot(t *testing.T) {
	const n = 96
	in := make([]int32, n)
	for i := range in {
		in[i] = int32(i%5 - 2)
	}
	for _, b := range maskBackends {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			out := make([]uint32, n)
			if err := Jit(testkernels.QuarterBallot).Launch(Dim1(2), Dim1(n/2), in, out); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				blk, lin := i/(n/2)*(n/2), i%(n/2)
				w, lane := blk+lin/32*32, lin%32
				live := uint32(1)<<min(32, n/2-lin/32*32) - 1
				if n/2-lin/32*32 >= 32 {
					live = 0xffffffff
				}
				var want uint32
				for l := range 32 {
					if quarterLanes(lane, live)&(1<<l) != 0 && in[w+l] > 0 {
						want |= 1 << l
					}
				}
				if out[i] != want {
					t.Errorf("thread %d: ballot %#x, want %#x", i, out[i], want)
				}
			}
		})
	}
}

// TestActiveMaskDivergence: ActiveMask is the lanes that run it together,
// on ptxsim and the simulated GPU (with and without Debug, whose checks add
// branches) in every divergent place of testkernels.ActiveMasks; on the cpu
// where the lanes that went elsewhere wait in another ActiveMask (places 0
// to 3), as docs/backends.md says.
func TestActiveMaskDivergence(t *testing.T) {
	const n = 48 // a full warp and one of 16 lanes
	for _, b := range maskBackends {
		for _, opts := range [][]Option{nil, {Debug}} {
			t.Run(fmt.Sprintf("%s/%d", b.name, len(opts)), func(t *testing.T) {
				b.setup(t)
				out := make([]uint32, 8*n)
				for i := range out {
					out[i] = 0xbad
				}
				if err := Jit(testkernels.ActiveMasks, opts...).Launch(Dim1(1), Dim1(n), out); err != nil {
					t.Fatal(err)
				}
				places := 8
				if strings.HasPrefix(b.name, "cpu") {
					places = 4
				}
				for i := range n {
					lane := i % 32
					live := uint32(0xffffffff)
					if i >= 32 {
						live = 0xffff
					}
					want := []uint32{live, 0xaaaaaaaa & live, live, 0xbad, 0xbad, 0xbad, 0, 0xbad}
					if lane%2 == 0 {
						want[1] = 0x55555555 & live
					}
					if lane < 16 && lane%4 == 0 {
						want[3] = 0x1111 & live
					}
					if lane < 16 {
						want[4] = 0xffff & live
					}
					if lane%4 >= 2 {
						want[5] = 0xcccccccc & live
					}
					if lane < 8 {
						want[6] = 0xff & live
					}
					if lane < 24 {
						want[7] = 0xffffff & live
					}
					if got := out[8*i : 8*i+places]; !slices.Equal(got, want[:places]) {
						t.Errorf("thread %d: active masks %#x, want %#x", i, got, want[:places])
					}
				}
			})
		}
	}
}

// TestWarpMaskOutsideLane: a lane that calls a warp function with a mask
// without its own bit fails the launch with a *KernelError that says so:
// always on the cpu and ptxsim, in debug mode on the (simulated) GPU.
func TestWarpMaskOutsideLane(t *testing.T) {
	for _, b := range maskBackends {
		t.Run(b.name, func(t *testing.T) {
			b.setup(t)
			var opts []Option
			if b.name == "gpu-sim" {
				opts = append(opts, Debug)
			}
			err := Jit(testkernels.OutsideMask, opts...).Launch(Dim1(1), Dim1(32), make([]uint32, 32))
			var ke *KernelError
			if !errors.As(err, &ke) || !strings.Contains(err.Error(), "which is not in the mask") || !strings.Contains(err.Error(), "0x0000ffff") {
				t.Fatalf("got %v, want a *KernelError about a lane outside mask 0x0000ffff", err)
			}
			if ke.Thread.X < 16 {
				t.Errorf("the error names thread %v, which is in the mask", ke.Thread)
			}
		})
	}
}

// TestWarpMaskPTX: the Mask forms pass their mask to shfl.sync, vote.sync,
// match.sync and bar.warp.sync (a register, or the constant); Debug adds
// the check of the caller's lane against %lanemask_eq; ptxas (where
// installed) accepts the PTX for sm_75 and sm_90.
func TestWarpMaskPTX(t *testing.T) {
	kernels := []struct {
		name   string
		kernel any
		wants  []string
	}{
		{"MaskOps", testkernels.MaskOps, []string{"vote.sync.ballot.b32", "vote.sync.uni.pred", "vote.sync.all.pred", "vote.sync.any.pred", "shfl.sync.idx.b32", "shfl.sync.up.b32", "shfl.sync.down.b32", "shfl.sync.bfly.b32", "match.any.sync.b32", "match.all.sync.b32", "bar.warp.sync \t%r"}},
		{"QuarterBallot", testkernels.QuarterBallot, []string{"vote.sync.ballot.b32"}},
		{"ActiveMasks", testkernels.ActiveMasks, []string{"activemask.b32"}},
		{"OutsideMask", testkernels.OutsideMask, []string{", 0xffff;"}},
	}
	for _, k := range kernels {
		for _, debug := range []bool{false, true} {
			var opts []Option
			if debug {
				opts = append(opts, Debug)
			}
			for _, sm := range []int{75, 90} {
				src, err := Jit(k.kernel, opts...).PTX(sm)
				if err != nil {
					t.Fatalf("%s: %v", k.name, err)
				}
				for _, w := range k.wants {
					if !strings.Contains(src, w) && !(debug && w == ", 0xffff;") {
						t.Errorf("%s sm_%d debug=%v: PTX lacks %q", k.name, sm, debug, w)
					}
				}
				if hasCheck := strings.Contains(src, "%lanemask_eq"); debug != hasCheck && k.name != "ActiveMasks" {
					t.Errorf("%s sm_%d debug=%v: lane check in PTX %v", k.name, sm, debug, hasCheck)
				}
				ptxastest.Assemble(t, fmt.Sprintf("%s debug=%v", k.name, debug), src, sm)
			}
		}
	}
}
