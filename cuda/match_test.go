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

// matchCase is one launch of testkernels.Match: n values in blocks of
// block threads, of which those where skip is true return first.
type matchCase struct {
	name  string
	block int
	n     int // threads past n (in the last block) are absent too
	run   func(t *testing.T, c matchCase)
}

// bitsOf is v's representation, which MatchAnySync and MatchAllSync
// compare.
func bitsOf[T Shuffleable](v T) uint64 {
	switch x := any(v).(type) {
	case float32:
		return uint64(math.Float32bits(x))
	case float64:
		return math.Float64bits(x)
	case int32:
		return uint64(uint32(x))
	case uint32:
		return uint64(x)
	case int64:
		return uint64(x)
	case uint64:
		return x
	case int:
		return uint64(x)
	case uint:
		return uint64(x)
	case Float16:
		return uint64(x.Bits())
	}
	panic(fmt.Sprintf("bitsOf %T", v))
}

// runMatch launches Match[T] on vals with the threads where skip is true
// returning first, and checks every live thread's masks against the
// definition: the live lanes of its warp whose value has the same bits.
func runMatch[T Shuffleable](t *testing.T, kernel any, block int, vals []T, skip func(i int) bool) {
	t.Helper()
	n := len(vals)
	skips := make([]int32, n)
	for i := range skips {
		if skip != nil && skip(i) {
			skips[i] = 1
		}
	}
	anyMask, allMask, all := make([]uint32, n), make([]uint32, n), make([]int32, n)
	for i := range anyMask {
		anyMask[i], allMask[i], all[i] = 0xbad, 0xbad, -1
	}
	if err := Jit(kernel).Launch(Dim1((n+block-1)/block), Dim1(block), vals, skips, anyMask, allMask, all); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if skips[i] != 0 {
			if anyMask[i] != 0xbad || allMask[i] != 0xbad || all[i] != -1 {
				t.Errorf("thread %d returned but wrote %#x %#x %d", i, anyMask[i], allMask[i], all[i])
			}
			continue
		}
		// The warp's lanes are block-relative: a block's last warp may
		// be partial, and so may the grid's last block.
		b, lin := i/block, i%block
		w := b*block + lin/32*32
		end := min(b*block+block, w+32, n)
		var live, same uint32
		for j := w; j < end; j++ {
			if skips[j] != 0 {
				continue
			}
			live |= 1 << (j - w)
			if bitsOf(vals[j]) == bitsOf(vals[i]) {
				same |= 1 << (j - w)
			}
		}
		wantAll, wantFlag := uint32(0), int32(0)
		if same == live {
			wantAll, wantFlag = live, 1
		}
		if anyMask[i] != same || allMask[i] != wantAll || all[i] != wantFlag {
			t.Errorf("thread %d (value %v): any %#x, all %#x %d; want %#x, %#x %d", i, vals[i], anyMask[i], allMask[i], all[i], same, wantAll, wantFlag)
		}
	}
}

// fill makes n values of f(i).
func fill[T any](n int, f func(i int) T) []T {
	out := make([]T, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

// TestMatchSync runs MatchAnySync and MatchAllSync over the types they
// take, with warps of a few distinct values, uniform warps, partial warps
// and returned lanes, and floats whose bits differ where == would not
// (-0 and +0) or agree where == would not (the same NaN), on the cpu and
// ptxsim backends.
func TestMatchSync(t *testing.T) {
	negZero, nan := math.Copysign(0, -1), math.NaN()
	otherNaN := math.Float64frombits(math.Float64bits(nan) ^ 1)
	cases := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"int32 four values per warp", func(t *testing.T) {
			runMatch(t, testkernels.Match[int32], 64, fill(256, func(i int) int32 { return int32(i * 7 % 4) }), nil)
		}},
		{"int32 uniform and non-uniform warps", func(t *testing.T) {
			runMatch(t, testkernels.Match[int32], 128, fill(256, func(i int) int32 {
				if i/32%2 == 0 || i%32 != 17 {
					return -5
				}
				return 5
			}), nil)
		}},
		{"uint32 block of 48 and a partial grid", func(t *testing.T) {
			runMatch(t, testkernels.Match[uint32], 48, fill(130, func(i int) uint32 { return uint32(i % 48 / 20) }), nil)
		}},
		{"int64 high halves differ", func(t *testing.T) {
			runMatch(t, testkernels.Match[int64], 96, fill(192, func(i int) int64 { return int64(i%3)<<32 | int64(i%2) }), nil)
		}},
		{"uint64 uniform among the live lanes", func(t *testing.T) {
			runMatch(t, testkernels.Match[uint64], 100, fill(200, func(i int) uint64 {
				if i%7 == 3 {
					return uint64(i) // returns before the match
				}
				return 1 << 63
			}), func(i int) bool { return i%7 == 3 })
		}},
		{"int with returned lanes", func(t *testing.T) {
			runMatch(t, testkernels.Match[int], 70, fill(140, func(i int) int { return i % 5 / 2 }), func(i int) bool { return i%32 == 0 || i%9 == 4 })
		}},
		{"uint one live lane", func(t *testing.T) {
			runMatch(t, testkernels.Match[uint], 32, fill(64, func(i int) uint { return uint(i) }), func(i int) bool { return i%32 != 5 })
		}},
		{"float64 zeros and NaNs", func(t *testing.T) {
			runMatch(t, testkernels.Match[float64], 64, fill(128, func(i int) float64 {
				return []float64{0, negZero, nan, otherNaN, 1}[i%5]
			}), nil)
		}},
		{"float64 NaN warp is uniform", func(t *testing.T) {
			runMatch(t, testkernels.Match[float64], 64, fill(64, func(i int) float64 { return nan }), nil)
		}},
		{"float32 zeros and NaNs", func(t *testing.T) {
			runMatch(t, testkernels.MatchFloat32, 50, fill(150, func(i int) float32 {
				return []float32{0, float32(negZero), float32(nan), 2.5}[i%9%4]
			}), func(i int) bool { return i%11 == 10 })
		}},
		{"Float16 zeros, NaNs and neighbours", func(t *testing.T) {
			// 0x7E00 and 0x7FFF are NaNs with other payloads, 0xFE00 the
			// first negated; 0x3C01 is 1's neighbour.
			pal := []uint16{0x0000, 0x8000, 0x7E00, 0x7FFF, 0xFE00, 0x3C00, 0x3C01}
			runMatch(t, testkernels.Match[Float16], 64, fill(192, func(i int) Float16 {
				if i/64 == 1 {
					return Float16FromBits(0x7E00) // a uniform NaN block
				}
				return Float16FromBits(pal[i*3%7])
			}), func(i int) bool { return i%13 == 6 })
		}},
	}
	for _, be := range warpBackends {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%s", be, c.name), func(t *testing.T) {
				onBackend(t, be)
				c.run(t)
			})
		}
	}
}

// TestLanemasks: the lane masks depend on the lane alone, in 1-, 2- and
// 3-D blocks and in a block's partial last warp.
func TestLanemasks(t *testing.T) {
	for _, be := range warpBackends {
		for _, block := range []Dim3{Dim1(70), Dim2(10, 7), {X: 3, Y: 5, Z: 4}} {
			t.Run(fmt.Sprintf("%s/%v", be, block), func(t *testing.T) {
				onBackend(t, be)
				const grid = 2
				n := grid * block.Size()
				out := make([]uint32, 5*n)
				if err := Jit(testkernels.Lanemasks).Launch(Dim1(grid), block, out); err != nil {
					t.Fatal(err)
				}
				for i := range n {
					lane := i % block.Size() % 32
					var want [5]uint32
					for l := range 32 {
						bit := uint32(1) << l
						for k, in := range [5]bool{l < lane, l <= lane, l == lane, l >= lane, l > lane} {
							if in {
								want[k] |= bit
							}
						}
					}
					if got := out[5*i : 5*i+5]; !slices.Equal(got, want[:]) {
						t.Errorf("thread %d (lane %d): Lt, Le, Eq, Ge, Gt = %#x, want %#x", i, lane, got, want)
					}
				}
			})
		}
	}
}

// TestRankAmongTrue: BallotSync masked with LanemaskLt ranks a lane among
// the lanes whose predicate holds, as stream compaction needs.
func TestRankAmongTrue(t *testing.T) {
	const n = 150 // a partial last warp
	in := fill(n, func(i int) int32 { return int32(i%3 - i%7%2) })
	for _, be := range warpBackends {
		t.Run(string(be), func(t *testing.T) {
			onBackend(t, be)
			rank := make([]int32, n)
			if err := Jit(testkernels.RankAmongTrue).Launch(Dim1(2), Dim1(96), in, rank); err != nil {
				t.Fatal(err)
			}
			next := int32(0)
			for i := range n {
				if i%96%32 == 0 {
					next = 0
				}
				want := int32(-1)
				if in[i] > 0 {
					want, next = next, next+1
				}
				if rank[i] != want {
					t.Errorf("rank[%d] = %d, want %d", i, rank[i], want)
				}
			}
		})
	}
}

// TestMatchPTX: MatchAnySync and MatchAllSync compile to match.sync of
// the value's width and the lane masks to their special registers, which
// ptxas (where installed) accepts for sm_75 and sm_90; for a target
// before sm_70, which has no match.sync, compiling is a *CompileError.
func TestMatchPTX(t *testing.T) {
	kernels := []struct {
		name   string
		kernel any
		wants  []string
	}{
		{"Match[int32]", testkernels.Match[int32], []string{"match.any.sync.b32", "match.all.sync.b32", "|%p"}},
		{"Match[float32]", testkernels.MatchFloat32, []string{"match.any.sync.b32", "match.all.sync.b32"}},
		{"Match[int]", testkernels.Match[int], []string{"match.any.sync.b64", "match.all.sync.b64"}},
		{"Match[float64]", testkernels.Match[float64], []string{"match.any.sync.b64", "match.all.sync.b64"}},
		{"Lanemasks", testkernels.Lanemasks, []string{"%lanemask_lt", "%lanemask_le", "%lanemask_eq", "%lanemask_ge", "%lanemask_gt"}},
		{"RankAmongTrue", testkernels.RankAmongTrue, []string{"vote.sync.ballot.b32", "%lanemask_lt", "popc.b32"}},
	}
	for _, k := range kernels {
		for _, sm := range []int{75, 90} {
			src, err := Jit(k.kernel).PTX(sm)
			if err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
			for _, w := range k.wants {
				if !strings.Contains(src, w) {
					t.Errorf("%s sm_%d: PTX lacks %q", k.name, sm, w)
				}
			}
			ptxastest.Assemble(t, k.name, src, sm)
		}
	}
	for _, sm := range []int{60, 61} {
		_, err := Jit(testkernels.Match[int64]).PTX(sm)
		var ce *CompileError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "sm_70") || !strings.Contains(err.Error(), "match.go:") {
			t.Errorf("Match for sm_%d: got %v, want a *CompileError at the call that names sm_70", sm, err)
		}
	}
	if _, err := Jit(testkernels.Lanemasks).PTX(60); err != nil {
		t.Errorf("Lanemasks for sm_60: %v (the lane masks need no sm_70)", err)
	}
}
