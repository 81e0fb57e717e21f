//go:build arm64

package cpu

import (
	"reflect"
	"runtime"
	"unsafe"
)

// Register counts of ABIInternal on arm64.
const (
	regABI        = true
	intArgRegs    = 16
	floatArgRegs  = 16
	firstArgInts  = 2  // a cuda.Thread is two integer words
	maxStackWords = 16 // stack-assigned argument bytes / 8 on the fast path
)

// Func types with the register shape of any kernel whose first argument
// takes two integer registers: the rest of the integer registers, every
// floating-point register and, for the larger ones, a stack-assigned part.
type (
	shape0[T any]  func(T, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64)
	shape4[T any]  func(T, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, [4]uintptr)
	shape16[T any] func(T, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, uintptr, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, float64, [16]uintptr)
)

func fastCall[T any](fn reflect.Value, vals []reflect.Value) (func(T), bool) {
	fr, stackWords, ok := layoutFrame[T](vals)
	if !ok {
		return nil, false
	}
	fp := funcPointer(fn)
	switch {
	case stackWords == 0:
		f := *(*shape0[T])(unsafe.Pointer(&fp))
		return func(t T) {
			f(t, fr.ints[2], fr.ints[3], fr.ints[4], fr.ints[5], fr.ints[6], fr.ints[7], fr.ints[8], fr.ints[9], fr.ints[10], fr.ints[11], fr.ints[12], fr.ints[13], fr.ints[14], fr.ints[15], fr.floats[0], fr.floats[1], fr.floats[2], fr.floats[3], fr.floats[4], fr.floats[5], fr.floats[6], fr.floats[7], fr.floats[8], fr.floats[9], fr.floats[10], fr.floats[11], fr.floats[12], fr.floats[13], fr.floats[14], fr.floats[15])
			runtime.KeepAlive(vals)
		}, true
	case stackWords <= 4:
		f := *(*shape4[T])(unsafe.Pointer(&fp))
		return func(t T) {
			f(t, fr.ints[2], fr.ints[3], fr.ints[4], fr.ints[5], fr.ints[6], fr.ints[7], fr.ints[8], fr.ints[9], fr.ints[10], fr.ints[11], fr.ints[12], fr.ints[13], fr.ints[14], fr.ints[15], fr.floats[0], fr.floats[1], fr.floats[2], fr.floats[3], fr.floats[4], fr.floats[5], fr.floats[6], fr.floats[7], fr.floats[8], fr.floats[9], fr.floats[10], fr.floats[11], fr.floats[12], fr.floats[13], fr.floats[14], fr.floats[15], [4]uintptr(fr.stack[:4]))
			runtime.KeepAlive(vals)
		}, true
	default:
		f := *(*shape16[T])(unsafe.Pointer(&fp))
		return func(t T) {
			f(t, fr.ints[2], fr.ints[3], fr.ints[4], fr.ints[5], fr.ints[6], fr.ints[7], fr.ints[8], fr.ints[9], fr.ints[10], fr.ints[11], fr.ints[12], fr.ints[13], fr.ints[14], fr.ints[15], fr.floats[0], fr.floats[1], fr.floats[2], fr.floats[3], fr.floats[4], fr.floats[5], fr.floats[6], fr.floats[7], fr.floats[8], fr.floats[9], fr.floats[10], fr.floats[11], fr.floats[12], fr.floats[13], fr.floats[14], fr.floats[15], fr.stack)
			runtime.KeepAlive(vals)
		}, true
	}
}
