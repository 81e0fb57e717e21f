package vectorize

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/ptxas"
)

// Top-level scalar functions, which the compiled backends (gpu, ptxsim)
// take: the CUDA target's kernels are compiled for each of them.

func negHalf(x float64) float64 { return -x * 0.5 }

func scaleBy(x float32, y int32) float64 { return float64(x) * float64(y) }

func lerp4(a, b, w float64, n int16) float64 { return (a + (b-a)*w) * float64(n) }

func maxI32(a, b int32) int32 { return max(a, b) }

func addF64(a, b float64) float64 { return a + b }

func hypot32(a, b float32) float32 { return float32(math.Sqrt(float64(a*a + b*b))) }

// TestCompiledKernelsPTX compiles the CUDA target's kernels the way the
// compiled backends do, for each kind of call: the function is inlined or
// called in the module, the entry has PTX parameters for the slices and
// numbers only, and ptxas accepts the module for sm_75 and sm_90.
func TestCompiledKernelsPTX(t *testing.T) {
	tests := []struct {
		name   string
		kernel *cuda.Kernel
		fn     any
		want   string // a regexp the PTX matches: the function's body
		params int    // PTX parameters of the entry
	}{
		{"New1 flat", New1(negHalf).kernels().flat, negHalf, `mul\.rn\.f64`, 6},
		{"New1 broadcast", New1(negHalf).kernels().broadcast, negHalf, `mul\.rn\.f64`, 12},
		{"New2 flat", New2(scaleBy).kernels().flat, scaleBy, `cvt\.rn\.f64\.s32`, 9},
		{"New2 broadcast", New2(scaleBy).kernels().broadcast, scaleBy, `cvt\.rn\.f64\.s32`, 18},
		{"New3 flat", New3(axpy[float32]).kernels().flat, axpy[float32], `mul\.rn\.f32`, 12},
		{"New3 broadcast", New3(axpy[float32]).kernels().broadcast, axpy[float32], `mul\.rn\.f32`, 24},
		{"New4 flat", New4(lerp4).kernels().flat, lerp4, `sub\.rn\.f64`, 15},
		{"New4 broadcast", New4(lerp4).kernels().broadcast, lerp4, `sub\.rn\.f64`, 30},
		{"Reduce", New2(maxI32).reduceKernels().chunk, maxI32, `max\.s32`, 7},
		{"ReduceAxis", New2(addF64).reduceKernels().axis, addF64, `add\.rn\.f64`, 8},
		{"AccumulateAxis", New2(hypot32).reduceKernels().accumulate, hypot32, `sqrt\.rn\.f64`, 9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, sm := range []int{75, 90} {
				ptx, err := tc.kernel.PTX(sm, tc.fn)
				if err != nil {
					t.Fatal(err)
				}
				if !regexp.MustCompile(tc.want).MatchString(ptx) {
					t.Errorf("sm_%d: the PTX lacks the function's %s:\n%s", sm, tc.want, ptx)
				}
				entry := ptx[strings.Index(ptx, ".entry"):]
				if n := strings.Count(entry[:strings.Index(entry, ")")], ".param"); n != tc.params {
					t.Errorf("sm_%d: entry has %d parameters, want %d (none for the function)", sm, n, tc.params)
				}
				assemble(t, ptx, sm)
			}
		})
	}
}

// assemble checks the PTX with ptxas; it is skipped visibly where ptxas is
// absent, but not under CI=true.
func assemble(t *testing.T, ptx string, sm int) {
	t.Helper()
	if !ptxas.Available() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %v", ptxas.ErrNotFound)
		}
		t.Logf("SKIP ptxas check: %v", ptxas.ErrNotFound)
		return
	}
	if _, err := ptxas.Assemble(ptx, fmt.Sprintf("sm_%d", sm), false); err != nil {
		t.Errorf("ptxas sm_%d: %v", sm, err)
	}
}

// TestCompiledKernelsRefuseClosures: the compiled forms of the kernels
// refuse a closure as a compile error (resolve keeps such a ufunc off the
// compiled backends before it gets there).
func TestCompiledKernelsRefuseClosures(t *testing.T) {
	k := 2.0
	f := func(x float64) float64 { return x * k }
	_, err := New1(f).kernels().flat.PTX(75, f)
	if err == nil || !strings.Contains(err.Error(), "pass a top-level function, not a closure") {
		t.Fatalf("PTX with a closure: %v", err)
	}
}
