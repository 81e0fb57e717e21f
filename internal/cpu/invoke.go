package cpu

import (
	"fmt"
	"reflect"
	"unsafe"
)

// Invoker calls one function value again and again with the same trailing
// arguments and a different first argument of type T. It is safe for
// concurrent use.
//
// T is a struct whose last field is a uint64, its counter: CallRow calls the
// function for a run of consecutive counter values in one loop.
type Invoker[T any] struct {
	call func(T)
	row  rowFunc[T]
	fast bool
}

// rowFunc is the loop behind CallRow.
type rowFunc[T any] func(t *T, n int, stop *bool)

// NewInvoker prepares calls of fn(t, args...). fn must be a func whose first
// parameter has type T, whose remaining parameters take args (assignable,
// same count) and which returns nothing. T must be a struct whose last field
// has type uint64.
//
// The arguments are copied: later changes to args do not affect the calls.
// Memory that the arguments point to (slice backing arrays) must stay
// reachable through other references for as long as the Invoker is used.
func NewInvoker[T any](fn reflect.Value, args []reflect.Value) (*Invoker[T], error) {
	ft := fn.Type()
	if ft.Kind() != reflect.Func {
		return nil, fmt.Errorf("cpu: invoker needs a func, got %s", ft)
	}
	tt := reflect.TypeFor[T]()
	if ft.NumIn() != len(args)+1 || ft.In(0) != tt || ft.NumOut() != 0 || ft.IsVariadic() {
		return nil, fmt.Errorf("cpu: cannot call %s as func(%s, %d arguments)", ft, tt, len(args))
	}
	off, ok := counterOffset(tt)
	if !ok {
		return nil, fmt.Errorf("cpu: invoker needs a struct ending in a uint64 as first parameter, got %s", tt)
	}
	vals := make([]reflect.Value, len(args))
	for i, a := range args {
		if !a.Type().AssignableTo(ft.In(i + 1)) {
			return nil, fmt.Errorf("cpu: argument %d has type %s, parameter wants %s", i+1, a.Type(), ft.In(i+1))
		}
		// An addressable copy of the argument, so its bytes can be read.
		v := reflect.New(ft.In(i + 1)).Elem()
		v.Set(a)
		vals[i] = v
	}
	if call, row, ok := fastCall[T](fn, vals, off); ok {
		return &Invoker[T]{call: call, row: row, fast: true}, nil
	}
	call := reflectCall[T](fn, vals)
	return &Invoker[T]{call: call, row: loopRow(call, off)}, nil
}

// counterOffset returns the offset of t's last field if t is a struct and
// that field is a uint64.
func counterOffset(t reflect.Type) (uintptr, bool) {
	if t.Kind() != reflect.Struct || t.NumField() == 0 {
		return 0, false
	}
	f := t.Field(t.NumField() - 1)
	return f.Offset, f.Type == reflect.TypeFor[uint64]()
}

// Call calls the function with t as its first argument.
func (inv *Invoker[T]) Call(t T) { inv.call(t) }

// CallRow calls the function n times: first with *t, then, increasing t's
// counter (its last field) by 1 before each further call, with the next
// n-1 values. After each call it reads *stop and returns at once if it is
// true (a call may set it through the function's arguments). When CallRow
// returns or a call panics, *t is the argument of the last call made, so a
// caller that recovers a panic knows which call panicked. Calls in a row
// cost less than as many Calls: one indirect call each instead of two.
func (inv *Invoker[T]) CallRow(t *T, n int, stop *bool) { inv.row(t, n, stop) }

// Fast reports whether calls bypass reflect.
func (inv *Invoker[T]) Fast() bool { return inv.fast }

func reflectCall[T any](fn reflect.Value, vals []reflect.Value) func(T) {
	return func(t T) {
		in := make([]reflect.Value, len(vals)+1)
		in[0] = reflect.ValueOf(t)
		copy(in[1:], vals)
		fn.Call(in)
	}
}

// loopRow builds CallRow on a single call, for the reflect path.
func loopRow[T any](call func(T), off uintptr) rowFunc[T] {
	return func(t *T, n int, stop *bool) {
		c := (*uint64)(unsafe.Add(unsafe.Pointer(t), off))
		for i := range n {
			if i > 0 {
				*c++
			}
			call(*t)
			if *stop {
				return
			}
		}
	}
}

// frame holds the fixed arguments laid out as ABIInternal passes them: the
// integer registers after the first argument's, all floating-point
// registers, and the stack-assigned part.
type frame struct {
	ints   [intArgRegs]uintptr
	floats [floatArgRegs]float64
	stack  [maxStackWords]uintptr
}

// abiAssigner implements the argument assignment algorithm of
// cmd/compile/abi-internal.md for one function's parameters.
type abiAssigner struct {
	ints, floats int     // next free integer and float register
	stack        uintptr // bytes of stack-assigned arguments so far
}

// abiSlot is one scalar component of an argument placed in a register.
type abiSlot struct {
	offset uintptr // within the argument value
	kind   reflect.Kind
	reg    int
}

// assign places an argument of type t; it returns the register slots, or
// onStack with the argument's offset in the stack-assigned area.
func (a *abiAssigner) assign(t reflect.Type) (slots []abiSlot, onStack bool, stackOff uintptr) {
	ints, floats := a.ints, a.floats
	if t.Size() != 0 && a.registers(t, 0, &slots) {
		return slots, false, 0
	}
	a.ints, a.floats = ints, floats
	a.stack = alignUp(a.stack, uintptr(t.Align()))
	off := a.stack
	a.stack += t.Size()
	return nil, true, off
}

func (a *abiAssigner) registers(t reflect.Type, off uintptr, slots *[]abiSlot) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan, reflect.Func:
		return a.intReg(t.Kind(), off, slots)
	case reflect.Float32, reflect.Float64:
		return a.floatReg(t.Kind(), off, slots)
	case reflect.Complex64:
		return a.floatReg(reflect.Float32, off, slots) && a.floatReg(reflect.Float32, off+4, slots)
	case reflect.Complex128:
		return a.floatReg(reflect.Float64, off, slots) && a.floatReg(reflect.Float64, off+8, slots)
	case reflect.String, reflect.Interface:
		return a.intReg(reflect.Uintptr, off, slots) && a.intReg(reflect.Uintptr, off+ptrSize, slots)
	case reflect.Slice:
		return a.intReg(reflect.Uintptr, off, slots) && a.intReg(reflect.Uintptr, off+ptrSize, slots) &&
			a.intReg(reflect.Uintptr, off+2*ptrSize, slots)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if !a.registers(f.Type, off+f.Offset, slots) {
				return false
			}
		}
		return true
	case reflect.Array:
		switch t.Len() {
		case 0:
			return true
		case 1:
			return a.registers(t.Elem(), off, slots)
		}
	}
	return false
}

func (a *abiAssigner) intReg(k reflect.Kind, off uintptr, slots *[]abiSlot) bool {
	if a.ints >= intArgRegs {
		return false
	}
	*slots = append(*slots, abiSlot{offset: off, kind: k, reg: a.ints})
	a.ints++
	return true
}

func (a *abiAssigner) floatReg(k reflect.Kind, off uintptr, slots *[]abiSlot) bool {
	if a.floats >= floatArgRegs {
		return false
	}
	*slots = append(*slots, abiSlot{offset: off, kind: k, reg: a.floats})
	a.floats++
	return true
}

const ptrSize = unsafe.Sizeof(uintptr(0))

func alignUp(n, a uintptr) uintptr { return (n + a - 1) &^ (a - 1) }

// layoutFrame lays out vals after a first argument of type T. It reports
// how many integer registers after T's, float registers and stack words the
// arguments take, and fails when T is not exactly firstArgInts integer
// registers or the stack part does not fit the frame.
func layoutFrame[T any](vals []reflect.Value) (fr *frame, ints, floats, stackWords int, ok bool) {
	if !regABI {
		return nil, 0, 0, 0, false
	}
	var a abiAssigner
	slots, onStack, _ := a.assign(reflect.TypeFor[T]())
	if onStack || a.ints != firstArgInts || a.floats != 0 || len(slots) != firstArgInts {
		return nil, 0, 0, 0, false
	}
	fr = new(frame)
	for _, v := range vals {
		base := v.Addr().UnsafePointer()
		slots, onStack, off := a.assign(v.Type())
		if onStack {
			size := v.Type().Size()
			if off+size > uintptr(len(fr.stack))*ptrSize {
				return nil, 0, 0, 0, false
			}
			dst := unsafe.Slice((*byte)(unsafe.Pointer(&fr.stack[0])), len(fr.stack)*int(ptrSize))
			copy(dst[off:off+size], unsafe.Slice((*byte)(base), size))
			continue
		}
		for _, s := range slots {
			p := unsafe.Add(base, s.offset)
			if s.kind == reflect.Float32 || s.kind == reflect.Float64 {
				fr.floats[s.reg] = floatWord(s.kind, p)
			} else {
				fr.ints[s.reg] = intWord(s.kind, p)
			}
		}
	}
	return fr, a.ints - firstArgInts, a.floats, int(alignUp(a.stack, ptrSize) / ptrSize), true
}

// roundUp returns the first of the ascending shapes that is at least n, or
// -1 if none is.
func roundUp(n int, shapes []int) int {
	for _, s := range shapes {
		if s >= n {
			return s
		}
	}
	return -1
}

//go:generate go run gen_shapes.go

// intWord reads an integer-class value as the full register word, sign- or
// zero-extended as its type requires.
func intWord(k reflect.Kind, p unsafe.Pointer) uintptr {
	switch k {
	case reflect.Bool, reflect.Uint8:
		return uintptr(*(*uint8)(p))
	case reflect.Int8:
		return uintptr(int64(*(*int8)(p)))
	case reflect.Uint16:
		return uintptr(*(*uint16)(p))
	case reflect.Int16:
		return uintptr(int64(*(*int16)(p)))
	case reflect.Uint32:
		return uintptr(*(*uint32)(p))
	case reflect.Int32:
		return uintptr(int64(*(*int32)(p)))
	default:
		return *(*uintptr)(p)
	}
}

// floatWord returns the register contents for a float: a float32 occupies
// the low 32 bits of the register.
func floatWord(k reflect.Kind, p unsafe.Pointer) float64 {
	if k == reflect.Float32 {
		return *(*float64)(unsafe.Pointer(&[2]uint32{*(*uint32)(p), 0}))
	}
	return *(*float64)(p)
}

// funcPointer returns the closure pointer of a func value, the word that a
// func-typed variable holds.
func funcPointer(fn reflect.Value) unsafe.Pointer {
	f := fn.Interface()
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&f))[1]
}
