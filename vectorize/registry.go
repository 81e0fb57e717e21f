package vectorize

import (
	"reflect"
	"sync"
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
// are made before init functions run, so New* is too early to look). The
// reductions' folds and scans (RegisterFold, RegisterScan) are compiled
// loops of other shapes, kept in the same registry under their own kind.
//
// The registry is keyed by the function's code pointer and type. That
// identifies a top-level function (each instantiation of a generic one
// has its own), but every closure made from one function literal, and
// every method value of one method, shares a code pointer whatever it
// captured, so loops for those are refused: one loop would serve them
// all. The type in the key is a cheap guard: two functions of different
// types never share a loop, whatever the linker does with their code.

// compiledLoops maps a function's regKey to its compiled loop (a
// func(out []R, a []T, ...) of the function's element types), fold or
// scan. It is written by init functions and read by every call from any
// goroutine; sync.Map suits a map that is written once per key and read
// often.
var compiledLoops sync.Map

// loopKind tells apart the kinds of compiled code one function can have.
type loopKind uint8

const (
	elementLoop loopKind = iota // RegisterLoop1..4
	foldLoop                    // RegisterFold
	scanLoop                    // RegisterScan
)

// regKey is the key of a function's compiled code of one kind.
type regKey struct {
	loopKey
	kind loopKind
}

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
func RegisterLoop1[T, R Element](f func(T) R, loop func(out []R, a []T)) {
	if f != nil && loop != nil {
		registerLoop(elementLoop, f, loop)
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
func RegisterLoop2[T, U, R Element](f func(T, U) R, loop func(out []R, a []T, b []U)) {
	if f != nil && loop != nil {
		registerLoop(elementLoop, f, loop)
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
func RegisterLoop3[T, U, V, R Element](f func(T, U, V) R, loop func(out []R, a []T, b []U, c []V)) {
	if f != nil && loop != nil {
		registerLoop(elementLoop, f, loop)
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
func RegisterLoop4[T, U, V, W, R Element](f func(T, U, V, W) R, loop func(out []R, a []T, b []U, c []V, d []W)) {
	if f != nil && loop != nil {
		registerLoop(elementLoop, f, loop)
	}
}

// RegisterFold registers fold as the compiled fold of f, used by Reduce
// and ReduceAxis on the CPU and Parallel targets of every ufunc of f. It
// is written by `nugo gen` (see the package documentation) and rarely by
// hand:
//
//	func init() {
//		vectorize.RegisterFold(addF64, func(acc float64, x []float64) float64 {
//			for _, v := range x {
//				acc = addF64(acc, v)
//			}
//			return acc
//		})
//	}
//
// fold(acc, x) must return the left fold of x onto acc,
// f(...f(f(acc, x[0]), x[1])..., x[len(x)-1]), or acc for an empty x,
// calling f in exactly that order (so that floating-point results are
// those of the per-element call), and write nothing. Reduce folds each
// chunk of its operand and then the chunks' results with it, in the same
// chunks as without fold; ReduceAxis folds each run along an axis after
// which every dimension has size 1 (the last axis, say). The Parallel
// target calls fold from several goroutines at once. A panic in fold is
// reported as a panic of f. Reductions along other axes use f's element
// loop (RegisterLoop2), if it has one, on whole rows; the CUDA target
// never uses either.
//
// f must be a top-level function (an instantiation of a generic one is
// fine); a closure or a method value is ignored, as is a nil f or fold. A
// later registration for the same f replaces the earlier one. It is safe
// to call from several goroutines, and concurrently with reductions. A
// fold whose element type is not f's does not compile.
func RegisterFold[T Element](f func(T, T) T, fold func(acc T, x []T) T) {
	if f != nil && fold != nil {
		registerLoop(foldLoop, f, fold)
	}
}

// RegisterScan registers scan as the compiled scan of f, used by
// Accumulate and AccumulateAxis on the CPU and Parallel targets of every
// ufunc of f. It is written by `nugo gen` (see the package documentation)
// and rarely by hand:
//
//	func init() {
//		vectorize.RegisterScan(addF64, func(acc float64, x []float64, out []float64) float64 {
//			x = x[:len(out)]
//			for i, v := range x {
//				acc = addF64(acc, v)
//				out[i] = acc
//			}
//			return acc
//		})
//	}
//
// scan(acc, x, out) is called with len(x) == len(out) and out not
// overlapping x; for each i in order it must set acc = f(acc, x[i]) and
// out[i] = acc, write nothing else, and return the last acc (acc itself
// for an empty x). Accumulate and AccumulateAxis call it for each run
// along an axis after which every dimension has size 1, from several
// goroutines at once on the Parallel target (on disjoint runs). A panic in
// scan is reported as a panic of f. Along other axes they use f's element
// loop (RegisterLoop2), if it has one, on whole rows; the CUDA target
// never uses either.
//
// The rules for f are RegisterFold's.
func RegisterScan[T Element](f func(T, T) T, scan func(acc T, x, out []T) T) {
	if f != nil && scan != nil {
		registerLoop(scanLoop, f, scan)
	}
}

// registerLoop stores loop as f's compiled code of that kind, if f can
// have one.
func registerLoop(kind loopKind, f, loop any) {
	if key := keyOf(f); key.typ != nil {
		compiledLoops.Store(regKey{key, kind}, loop)
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

// compiledLoop is the element loop registered under key, or nil. L is
// the loop's type for the caller's element types; a loop of another type
// (which the typed RegisterLoop functions cannot store under one
// function's key) is not returned.
func compiledLoop[L any](key loopKey) L { return compiled[L](elementLoop, key) }

// compiled is the compiled code of that kind registered under key, or nil
// (see compiledLoop).
func compiled[L any](kind loopKind, key loopKey) L {
	var loop L
	if key.typ != nil {
		if v, ok := compiledLoops.Load(regKey{key, kind}); ok {
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
