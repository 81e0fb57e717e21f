// Package kern holds kernels that call other packages of the module.
package kern

import (
	"example.com/multimod/bad"
	"example.com/multimod/lib"
	"example.com/multimod/missing"
	"example.com/multimod/other"
	"example.com/replaced/sub"
	"example.org/vend"
	"fmt"
	"os"

	"github.com/nugo-dev/nugo/cuda"
)

func kCalls(t cuda.Thread, a []int32) {
	if i := t.Grid1(); i < len(a) {
		v := lib.Vec{X: a[i], Y: lib.Scale}
		a[i] = lib.Clamp(v.Dot(lib.Vec{X: 2, Y: 1}), 0, 100) + lib.Sum(a[i:i+1]) + lib.Table[i%3]
	}
}

func kGeneric[T cuda.Number](t cuda.Thread, a []T) {
	if i := t.Grid1(); i < len(a) {
		a[i] = lib.Sum(a[i:]) * lib.Scale
	}
}

func kSame(t cuda.Thread, a []int32) {
	if i := t.Grid1(); i < len(a) {
		a[i] = lib.Helper(a[i]) + other.Helper(a[i]) + helper(a[i])
	}
}

func helper(x int32) int32 {
	if x <= 2 {
		return x
	}
	return helper(x-1) + helper(x-2)
}

func kMissing(t cuda.Thread, a []int32) { a[0] = missing.F() }

func kBad(t cuda.Thread, a []int32) { a[0] = bad.Lookup(a[1]) + bad.Env() }

func kWrite(t cuda.Thread, a []int32) { lib.Counter = a[0] }

func kReadVar(t cuda.Thread, a []int32) { a[0] = lib.Config[0] }

func kReplacedVendored(t cuda.Thread, a []int32) { a[0] = namedsub.Neg(vend.Inc(a[0])) }

func kStd(t cuda.Thread, a []int32) { a[0] = int32(len(os.Args)) }

// Report is host code.
func Report() { fmt.Println(namedsub.Neg(1)) }

func kMap(t cuda.Thread, a []int32) { a[0] = bad.Lookup(a[1]) }
