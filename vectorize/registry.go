package vectorize

import (
	"reflect"
	"sync"

	"github.com/nugo-dev/nugo/cuda"
)

// Compiled loops.
//
// On the CPU and Parallel targets a ufunc calls its scalar function
// through a func value once per element, a call the Go compiler cannot
// inline. A compiled loop is the same loop written for one function, in
// that function's package, where the call is a direct call the compiler
// inlines. `nugo gen` writes one for each named top-level function the
// package uses with vectorize and registers it here from an init function;
// a ufunc looks its function's loop up at every call (package-level ufuncs
// are made before init functions run, so New* is too early to look).
//
// The registry is keyed by the function's code pointer and type. That
// identifies a top-level function (each instantiation of a generic one
// has its own), but every closure made from one function literal, and
// every method value of one method, shares a code pointer whatever it
// captured, so loops for those are refused: one loop would serve them
// all. The type in the key is a cheap guard: two functions of different
// types never share a loop, whatever the linker does with their code.

// compiledLoops maps a function's loopKey to its compiled loop, a
// func(out []R, a []T, ...) of the function's element types. It is
// written by init functions and read by every call from any goroutine;
// sync.Map suits a map that is written once per key and read often.
var compiledLoops sync.Map

// RegisterLoop1 registers loop as the compiled loop of f, used by the CPU
// and Parallel targets of every Ufunc1 of f. It is written by `nugo gen`
// (see the package documentation) and rarely by hand.
//
// A ufunc calls loop on the runs of its output along which its operand is
// contiguous (not broadcast), with len(a) == len(out); loop must set
// out[i] = f(a[i]) for every i and write nothing else. out may be a itself
// (an in-place call, never a partial overlap), so loop must read a[i]
// before it writes out[i], as the plain loop does. The Parallel target
// calls loop from several goroutines at once, on disjoint parts of the
// output. A panic in loop is reported as a panic of f. Calls on broadcast
// operands, and all calls of the CUDA target, call f as if loop were not
// registered.
//
// f must be a top-level function (an instantiation of a generic one is
// fine); a closure or a method value is ignored, as is a nil f or loop. A
// later registration for the same f replaces the earlier one. It is safe
// to call from several goroutines, and concurrently with ufunc calls.
func RegisterLoop1[T, R cuda.Number](f func(T) R, loop func(out []R, a []T)) {
	if f != nil && loop != nil {
		registerLoop(f, loop)
	}
}

// RegisterLoop2 registers loop as the compiled loop of f, used by the CPU
// and Parallel targets of every Ufunc2 of f. It is written by `nugo gen`
// (see the package documentation) and rarely by hand:
//
//	func init() {
//		vectorize.RegisterLoop2(addF32, func(out []float32, a []float32, b []float32) {
//			a, b = a[:len(out)], b[:len(out)]
//			for i := range out {
//				out[i] = addF32(a[i], b[i])
//			}
//		})
//	}
//
// A ufunc calls loop on the runs of its output along which every operand
// is contiguous (not broadcast), with len(a) == len(b) == len(out); loop
// must set out[i] = f(a[i], b[i]) for every i and write nothing else. out
// may be one of the operands itself (an in-place call, never a partial
// overlap), so loop must read a[i] and b[i] before it writes out[i], as
// the plain loop does. The Parallel target calls loop from several
// goroutines at once, on disjoint parts of the output. A panic in loop is
// reported as a panic of f: the same error as without loop, which names f
// and, as that one, not the element. Calls with a broadcast operand along
// the last dimension, and all calls of the CUDA target, call f as if loop
// were not registered.
//
// f must be a top-level function (an instantiation of a generic one is
// fine); a closure or a method value is ignored, as is a nil f or loop. A
// later registration for the same f replaces the earlier one. It is safe
// to call from several goroutines, and concurrently with ufunc calls.
func RegisterLoop2[T, U, R cuda.Number](f func(T, U) R, loop func(out []R, a []T, b []U)) {
	if f != nil && loop != nil {
		registerLoop(f, loop)
	}
}

// RegisterLoop3 registers loop as the compiled loop of f, used by the CPU
// and Parallel targets of every Ufunc3 of f. It is written by `nugo gen`
// (see the package documentation) and rarely by hand.
//
// The contract is RegisterLoop2's with three operands: loop is called with
// len(a) == len(b) == len(c) == len(out) and must set
// out[i] = f(a[i], b[i], c[i]) for every i and write nothing else, reading
// the operands' element i before it writes out[i].
func RegisterLoop3[T, U, V, R cuda.Number](f func(T, U, V) R, loop func(out []R, a []T, b []U, c []V)) {
	if f != nil && loop != nil {
		registerLoop(f, loop)
	}
}

// RegisterLoop4 registers loop as the compiled loop of f, used by the CPU
// and Parallel targets of every Ufunc4 of f. It is written by `nugo gen`
// (see the package documentation) and rarely by hand.
//
// The contract is RegisterLoop2's with four operands: loop is called with
// len(a) == len(b) == len(c) == len(d) == len(out) and must set
// out[i] = f(a[i], b[i], c[i], d[i]) for every i and write nothing else,
// reading the operands' element i before it writes out[i].
func RegisterLoop4[T, U, V, W, R cuda.Number](f func(T, U, V, W) R, loop func(out []R, a []T, b []U, c []V, d []W)) {
	if f != nil && loop != nil {
		registerLoop(f, loop)
	}
}

// registerLoop stores loop under f's key, if f can have one.
func registerLoop(f, loop any) {
	if key := keyOf(f); key.typ != nil {
		compiledLoops.Store(key, loop)
	}
}

// loopKey is a function's key in the registry: its code pointer and type.
// The zero key is that of a function that cannot have a compiled loop.
type loopKey struct {
	pc  uintptr
	typ reflect.Type
}

// keyOf is the key of f, a func value, or the zero key when f is nil or
// not a top-level function (see compiledLoops).
func keyOf(f any) loopKey {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Func || v.IsNil() || topLevelErr(f) != nil {
		return loopKey{}
	}
	return loopKey{v.Pointer(), v.Type()}
}

// compiledLoop is the loop registered under key, or nil. L is the loop's
// type for the caller's element types; a loop of another type (which the
// typed RegisterLoop functions cannot store under one function's key) is
// not returned.
func compiledLoop[L any](key loopKey) L {
	var loop L
	if key.typ != nil {
		if v, ok := compiledLoops.Load(key); ok {
			loop, _ = v.(L)
		}
	}
	return loop
}

// contiguous says whether every segment of p is contiguous in every
// operand, so that a compiled loop can run it: each operand steps by 1
// along the last dimension, or the call is a single element.
func (p *plan) contiguous() bool {
	if p.n == 1 {
		return true
	}
	for k := range p.ops {
		if p.inc[k] != 1 {
			return false
		}
	}
	return true
}

// span is s[off:off+n] with its capacity cut to its length, so that a
// compiled loop that appends to it cannot write the elements of another
// segment, which another goroutine may be writing.
func span[T any](s []T, off, n int) []T {
	return s[off : off+n : off+n]
}
