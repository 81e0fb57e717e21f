package cuda_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/cuda/internal/testkernels"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// warpResults is everything the warp test kernels produce on one backend.
type warpResults struct {
	sums      []float32
	bcast     []int64
	bcast32   []uint32
	xor       []float64
	up, down  []int
	ballot    []uint32
	anyAll    []int32
	upDownLen int
}

const warpBlock = 1024

func warpInputs() (f32 []float32, i64 []int64, f64 []float64, ints []int, i32 []int32) {
	n := 2 * warpBlock
	f32, i64, f64, ints, i32 = make([]float32, n), make([]int64, n), make([]float64, n), make([]int, n), make([]int32, n)
	for i := range n {
		f32[i] = float32(i%37)*0.37 - 3.1
		i64[i] = int64(i)*0x1_0000_0003 - 1<<40
		f64[i] = float64(i%29)*1.1 - 7.3
		ints[i] = i*7 - 1000
		// Warp 0 of each block: all positive; warp 1: all negative;
		// others mixed.
		switch w := i % warpBlock / 32; {
		case w == 0:
			i32[i] = int32(i%5 + 1)
		case w == 1:
			i32[i] = int32(-1 - i%3)
		default:
			i32[i] = int32(i%3 - 1)
		}
	}
	return
}

func runWarpKernels(t *testing.T, opts []Option) warpResults {
	t.Helper()
	f32, i64, f64, ints, i32 := warpInputs()
	n := len(f32)
	r := warpResults{
		sums: make([]float32, n/warpBlock), bcast: make([]int64, n), bcast32: make([]uint32, n),
		xor: make([]float64, n), ballot: make([]uint32, n), anyAll: make([]int32, n),
	}
	grid, block := Dim1(n/warpBlock), Dim1(warpBlock)
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(Jit(testkernels.WarpSum, opts...).Launch(grid, block, f32, r.sums))
	check(Jit(testkernels.WarpBroadcast, opts...).Launch(grid, block, i64, r.bcast, r.bcast32))
	check(Jit(testkernels.XorAllReduce, opts...).Launch(grid, block, f64, r.xor))
	check(Jit(testkernels.Votes, opts...).Launch(grid, block, i32, r.ballot, r.anyAll))
	// A block of 48 threads: its second warp has 16 lanes.
	r.upDownLen = 3 * 48
	r.up, r.down = make([]int, r.upDownLen), make([]int, r.upDownLen)
	check(Jit(testkernels.UpDown, opts...).Launch(Dim1(3), Dim1(48), ints[:r.upDownLen], r.up, r.down, 3))
	return r
}

// checkWarpResults compares a backend's results with sums computed here.
func checkWarpResults(t *testing.T, r warpResults) {
	t.Helper()
	f32, i64, f64, ints, i32 := warpInputs()
	for b, got := range r.sums {
		var want float64
		for _, v := range f32[b*warpBlock : (b+1)*warpBlock] {
			want += float64(v)
		}
		if math.Abs(float64(got)-want) > 1e-2 {
			t.Errorf("WarpSum block %d = %v, want %v", b, got, want)
		}
	}
	for i := range r.bcast {
		w := i / 32 * 32
		if r.bcast[i] != i64[w] {
			t.Fatalf("WarpBroadcast[%d] = %#x, want %#x", i, r.bcast[i], i64[w])
		}
		if src := w + (i+31)%32; r.bcast32[i] != uint32(i64[src]) {
			t.Fatalf("WarpBroadcast 32-bit [%d] = %#x, want %#x", i, r.bcast32[i], uint32(i64[src]))
		}
		var sum float64
		for _, v := range f64[w : w+32] {
			sum += v
		}
		if math.Abs(r.xor[i]-sum) > 1e-9 {
			t.Fatalf("XorAllReduce[%d] = %v, want %v", i, r.xor[i], sum)
		}
		var ballot uint32
		all, anyNeg := true, false
		for l, v := range i32[w : w+32] {
			if v > 0 {
				ballot |= 1 << l
			}
			all = all && v >= 0
			anyNeg = anyNeg || v < 0
		}
		want := int32(0)
		if ballot != 0 {
			want |= 1
		}
		if ballot == math.MaxUint32 {
			want |= 2
		}
		if all {
			want |= 4
		}
		if anyNeg {
			want |= 8
		}
		if r.ballot[i] != ballot || r.anyAll[i] != want {
			t.Fatalf("Votes[%d] = ballot %#x flags %b, want %#x %b", i, r.ballot[i], r.anyAll[i], ballot, want)
		}
	}
	// Absent lanes (past the 48 threads of a block) read as the reader's
	// own value.
	for i := range r.upDownLen {
		blk, lin := i/48, i%48
		lane, live := lin%32, min(32, 48-lin/32*32)
		wantUp, wantDown := ints[i], ints[i]
		if lane >= 3 {
			wantUp = ints[i-3]
		}
		if lane+3 < live {
			wantDown = ints[i+3]
		}
		if r.up[i] != wantUp || r.down[i] != wantDown {
			t.Fatalf("UpDown block %d thread %d: up %d down %d, want %d %d", blk, lin, r.up[i], r.down[i], wantUp, wantDown)
		}
	}
}

// TestWarpPrimitives runs shuffles and votes on the CPU and ptxsim
// backends, in release and debug mode: each gives the expected results,
// and both give the same bits (the float sums run in the same order).
func TestWarpPrimitives(t *testing.T) {
	var ref *warpResults
	for _, b := range warpBackends {
		for _, debug := range []bool{false, true} {
			var opts []Option
			if debug {
				opts = append(opts, Debug)
			}
			t.Run(fmt.Sprintf("%s debug=%v", b, debug), func(t *testing.T) {
				onBackend(t, b)
				r := runWarpKernels(t, opts)
				checkWarpResults(t, r)
				if ref == nil {
					ref = &r
					return
				}
				if !slices.Equal(r.sums, ref.sums) || !slices.Equal(r.xor, ref.xor) {
					t.Errorf("float results differ from %s: sums %v vs %v", warpBackends[0], r.sums, ref.sums)
				}
			})
		}
	}
}

// warpBackends are the backends TestWarpPrimitives runs on.
var warpBackends = []Backend{CPU, PTXSim}

// warpPTXWants is what TestWarpPTX counts in each kernel's PTX (in
// debug mode, at least as many).
var warpPTXWants = map[string][]struct {
	text  string
	count int
}{
	// Two reduction loops, one float32 shuffle each, and a block barrier
	// (and the one after the prologue that zeroes its shared array).
	"WarpSum":       {{"shfl.sync.down.b32", 2}, {"bar.sync", 2}, {"shfl.sync.up", 0}},
	"WarpBroadcast": {{"shfl.sync.idx.b32", 3}, {"mov.b64 \t{", 1}},     // int64: two halves; uint32: one
	"XorAllReduce":  {{"shfl.sync.bfly.b32", 2}, {"shfl.sync.down", 0}}, // float64: two halves
	"UpDown":        {{"shfl.sync.up.b32", 2}, {"shfl.sync.down.b32", 2}, {"bar.warp.sync \t0xffffffff", 1}, {", 0, 0xffffffff", 2}},
	"EarlyReturn":   {{"activemask.b32", 1}, {"vote.sync.ballot.b32", 1}},
	"Votes":         {{"membar.gl", 1}, {"vote.sync.ballot.b32", 1}, {"vote.sync.any.pred", 2}, {"vote.sync.all.pred", 2}},
}

// TestWarpPTX: the warp primitives compile to shfl.sync, vote.sync and
// bar.warp.sync, which ptxas (where installed) accepts for sm_75 and sm_90.
func TestWarpPTX(t *testing.T) {
	kernels := map[string]any{
		"WarpSum": testkernels.WarpSum, "WarpBroadcast": testkernels.WarpBroadcast,
		"XorAllReduce": testkernels.XorAllReduce, "UpDown": testkernels.UpDown, "Votes": testkernels.Votes,
		"EarlyReturn": testkernels.EarlyReturn, "WarpFault": testkernels.WarpFault,
	}
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
				for _, want := range warpPTXWants[name] {
					// Debug mode adds its checks' own membar.gl and
					// bar.sync; release must match exactly.
					if n := strings.Count(src, want.text); n != want.count && (!debug || n < want.count || want.count == 0) {
						t.Errorf("%s debug=%v: %d times %q, want %d", name, debug, n, want.text, want.count)
					}
				}
				ptxastest.Assemble(t, fmt.Sprintf("%s debug=%v", name, debug), src, sm)
			}
		}
	}
}

// TestWarpEarlyReturn: threads that returned before a warp operation are
// absent from it, on both backends; reading an absent lane gives the
// reader's own value.
func TestWarpEarlyReturn(t *testing.T) {
	const n = 80 // a partial third warp too
	for _, b := range warpBackends {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			ballot, active, from0 := make([]uint32, n), make([]uint32, n), make([]int, n)
			for i := range from0 {
				from0[i] = -1
			}
			if err := Jit(testkernels.EarlyReturn).Launch(Dim1(1), Dim1(n), ballot, active, from0); err != nil {
				t.Fatal(err)
			}
			returned := func(i int) bool { return i%32 == 0 || i%5 == 1 }
			for i := range n {
				if returned(i) {
					if ballot[i] != 0 || active[i] != 0 || from0[i] != -1 {
						t.Errorf("thread %d returned but wrote %#x %d", i, ballot[i], from0[i])
					}
					continue
				}
				var want uint32
				w := i / 32 * 32
				for l := range min(32, n-w) {
					if !returned(w + l) {
						want |= 1 << l
					}
				}
				if ballot[i] != want || active[i] != want || from0[i] != i {
					t.Errorf("thread %d: ballot %#x, active %#x, from lane 0 %d; want %#x, %#x, %d", i, ballot[i], active[i], from0[i], want, want, i)
				}
			}
		})
	}
}

// TestWarpFault: a thread that fails while the rest of its warp waits in
// a shuffle fails the launch with a *KernelError instead of hanging.
func TestWarpFault(t *testing.T) {
	for _, b := range warpBackends {
		t.Run(string(b), func(t *testing.T) {
			onBackend(t, b)
			data := make([]int, 40)
			err := Jit(testkernels.WarpFault, Debug).Launch(Dim1(1), Dim1(64), data)
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

// BenchmarkWarpSum reduces 2^16 float32 values in blocks of 1024 with
// WarpSum (two rounds of ShflDownSync and a SyncThreads per block), on
// the CPU backend and on ptxsim.
func BenchmarkWarpSum(b *testing.B) {
	const n = 1 << 16
	in, out := make([]float32, n), make([]float32, n/warpBlock)
	for i := range in {
		in[i] = float32(i % 7)
	}
	for _, be := range warpBackends {
		b.Run(string(be), func(b *testing.B) {
			prev, _ := CurrentBackend()
			if err := SetBackend(be); err != nil {
				b.Fatal(err)
			}
			defer func() { _ = SetBackend(prev) }()
			k := Jit(testkernels.WarpSum)
			for b.Loop() {
				if err := k.Launch(Dim1(n/warpBlock), Dim1(warpBlock), in, out); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(4 * n)
		})
	}
}
