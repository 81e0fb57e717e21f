package corpus

import (
	"math"

	"github.com/nugo-dev/nugo/cuda"
)

// Case is one kernel of the corpus with its launch and inputs.
type Case struct {
	Name      string    // unique, e.g. "arith/int_division"
	Kernel    any       // the kernel's func value
	Grid      cuda.Dim3 // launch grid
	Block     cuda.Dim3 // launch block
	SharedMem int       // dynamic shared memory bytes
	Args      func() []any
	// MathULP is the largest error, in units in the last place, allowed
	// between an engine's float results and the native ones (0: bit-exact).
	MathULP int
	// Printf marks kernels whose output is text on stdout (compare it too).
	Printf bool
	// Devmath marks kernels that call transcendental math functions, which
	// compiled engines take from nugo's device math library.
	Devmath bool
	// Cooperative marks kernels that sync the grid (t.SyncGrid): they are
	// launched with LaunchConfig.Cooperative, on grids small enough for
	// every backend.
	Cooperative bool
}

// Config is the case's launch configuration (on the default stream).
func (c Case) Config() cuda.LaunchConfig {
	return cuda.LaunchConfig{Grid: c.Grid, Block: c.Block, SharedMem: c.SharedMem, Cooperative: c.Cooperative}
}

// All returns every case, in a stable order.
func All() []Case {
	var all []Case
	for _, group := range [][]Case{
		typeCases, arithCases, convertCases, controlCases, localCases,
		sliceCases, arrayCases, funcCases, mathCases, bitsCases,
		threadCases, sharedCases, syncReduceCases, warpCases, warpTreeCases, warpMaskCases, warpBranchCases, atomicCases, printfCases, miscCases,
		builtinCases, mixedCases, structCases, byValueCases, tableCases, packageCases, halfCases, gridSyncCases, complexCases,
	} {
		all = append(all, group...)
	}
	return all
}

// Lookup returns the case named name.
func Lookup(name string) (Case, bool) {
	for _, c := range All() {
		if c.Name == name {
			return c, true
		}
	}
	return Case{}, false
}

// n1 is the element count of most one-dimensional cases: more than one
// block, not a multiple of the block size, so that bounds guards matter.
const n1 = 300

func grid1(n, block int) cuda.Dim3 { return cuda.Dim1((n + block - 1) / block) }

// c1 builds a one-dimensional case over n1 elements with blocks of 128.
func c1(name string, k any, args func() []any) Case {
	return Case{Name: name, Kernel: k, Grid: grid1(n1, 128), Block: cuda.Dim1(128), Args: args}
}

// Inputs with edge values.

var edgeI64 = []int64{0, 1, -1, 2, -2, 7, -7, 100, -100, 1 << 31, -(1 << 31), 1<<32 + 5, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32, 123456789012, -98765432109}
var edgeF64 = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-310, -1e-310, 1e300, -1e300, math.Inf(1), math.Inf(-1), math.NaN(), math.Pi, -math.E, 3.7, -3.7, 0.49999999999999994, 4503599627370497}
var edgeF32 = []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, -0.5, 1.5, 2.5, -2.5, 1e-40, -1e-40, 3e38, -3e38, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Pi, -math.E, 3.7, -3.7, 8388609}

// cycle fills n values by repeating vals and mixing in a pseudo-random tail.
func cycleI64(n int) []int64 {
	out := make([]int64, n)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range out {
		if i < len(edgeI64) {
			out[i] = edgeI64[i]
			continue
		}
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		out[i] = int64(x) >> (i % 40)
	}
	return out
}

func cycleF64(n int) []float64 {
	out := make([]float64, n)
	x := uint64(12345)
	for i := range out {
		if i < len(edgeF64) {
			out[i] = edgeF64[i]
			continue
		}
		x = x*6364136223846793005 + 1442695040888963407
		out[i] = (float64(x>>11)/float64(1<<53) - 0.5) * math.Pow(10, float64(i%12)-4)
	}
	return out
}

func cycleF32(n int) []float32 {
	f := cycleF64(n)
	out := make([]float32, n)
	for i := range out {
		if i < len(edgeF32) {
			out[i] = edgeF32[i]
		} else {
			out[i] = float32(f[i])
		}
	}
	return out
}

// conv makes n values of type T from int64 inputs (wrapping).
func cycleOf[T cuda.Integer](n int) []T {
	src := cycleI64(n)
	out := make([]T, n)
	for i, v := range src {
		out[i] = T(v)
	}
	return out
}

func zeros[T cuda.Number](n int) []T { return make([]T, n) }

func iota64(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

func iotaF64(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = float64(i)*0.25 - 10
	}
	return out
}
