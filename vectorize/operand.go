package vectorize

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/hostmem"
)

// ErrShape reports operands whose shapes do not fit together: shapes that
// do not broadcast, an output of the wrong shape, or data whose length does
// not match its shape. Errors wrapping it name the shapes.
var ErrShape = errors.New("shape mismatch")

// Operand is an argument of a ufunc call with elements of type T: an
// Array[T] (made directly or by Slice, Scalar, Array2, Array3 or Of) or a
// device array (Device). The interface is closed: only this package
// implements it.
type Operand[T Element] interface {
	operand() opnd[T]
}

// opnd is an operand resolved for a call: host data or a device array,
// with its shape.
type opnd[T Element] struct {
	data   []T
	dev    *cuda.DeviceArray[T]
	shape  []int
	nilDev bool // Device(nil) or a nil Operand
}

// get resolves an operand; a nil Operand is reported by check.
func get[T Element](o Operand[T]) opnd[T] {
	if o == nil {
		return opnd[T]{nilDev: true}
	}
	return o.operand()
}

// Array is a row-major N-d array on the host: element (i0, i1, ..., ik) is
// Data[((i0*Shape[1]+i1)*Shape[2]+...)+ik]. A 0-d array (empty Shape) is a
// scalar with one element. len(Data) must be the product of Shape.
type Array[T Element] struct {
	Data  []T
	Shape []int
}

func (a Array[T]) operand() opnd[T] { return opnd[T]{data: a.Data, shape: a.Shape} }

// Len is the number of elements, the product of Shape.
func (a Array[T]) Len() int { return size(a.Shape) }

// Array2 views a as a cuda.Array2; a must be 2-D.
func (a Array[T]) Array2() (cuda.Array2[T], error) {
	if len(a.Shape) != 2 {
		return cuda.Array2[T]{}, fmt.Errorf("vectorize: array of shape %s is not 2-D", shapeString(a.Shape))
	}
	return cuda.View2(a.Data, a.Shape[0], a.Shape[1])
}

// Array3 views a as a cuda.Array3; a must be 3-D.
func (a Array[T]) Array3() (cuda.Array3[T], error) {
	if len(a.Shape) != 3 {
		return cuda.Array3[T]{}, fmt.Errorf("vectorize: array of shape %s is not 3-D", shapeString(a.Shape))
	}
	return cuda.View3(a.Data, a.Shape[0], a.Shape[1], a.Shape[2])
}

// Slice is s as a 1-D operand.
func Slice[T Element](s []T) Array[T] { return Array[T]{Data: s, Shape: []int{len(s)}} }

// Scalar is x as a 0-d operand, broadcast over every element.
func Scalar[T Element](x T) Array[T] { return Array[T]{Data: []T{x}} }

// Array2 is a cuda.Array2 as a 2-D operand; it shares a's data.
func Array2[T Element](a cuda.Array2[T]) Array[T] {
	r, c := a.Shape()
	return Array[T]{Data: a.Data(), Shape: []int{r, c}}
}

// Array3 is a cuda.Array3 as a 3-D operand; it shares a's data.
func Array3[T Element](a cuda.Array3[T]) Array[T] {
	d0, d1, d2 := a.Shape()
	return Array[T]{Data: a.Data(), Shape: []int{d0, d1, d2}}
}

// Of views data as a row-major array of the given shape (any rank; none
// makes a 0-d array). A call reports an error if len(data) is not the
// product of shape.
func Of[T Element](data []T, shape ...int) Array[T] {
	return Array[T]{Data: data, Shape: append([]int(nil), shape...)}
}

// Zeros returns a zeroed array of the given shape. Like make, it panics
// if a dimension is negative or the array is too large.
func Zeros[T Element](shape ...int) Array[T] {
	a, err := zeros[T](shape)
	if err != nil {
		panic("vectorize.Zeros: " + err.Error())
	}
	return a
}

// zeros is Zeros returning an error: for a negative dimension, too many
// elements, or more bytes than the machine has (which would end the
// process rather than panic).
func zeros[T Element](shape []int) (Array[T], error) {
	n, ok := checkedSize(shape)
	size := int(unsafe.Sizeof(*new(T)))
	if !ok || n > math.MaxInt/size {
		return Array[T]{}, fmt.Errorf("%w: shape %s has a negative dimension or too many elements", ErrShape, shapeString(shape))
	}
	if err := hostmem.Check("array of shape "+shapeString(shape), n*size); err != nil {
		return Array[T]{}, err
	}
	return Array[T]{Data: make([]T, n), Shape: append([]int(nil), shape...)}, nil
}

// deviceOperand is a device array as an operand.
type deviceOperand[T Element] struct{ d *cuda.DeviceArray[T] }

func (o deviceOperand[T]) operand() opnd[T] {
	if o.d == nil {
		return opnd[T]{nilDev: true}
	}
	return opnd[T]{dev: o.d, shape: o.d.Shape()}
}

// Device is a device array as an operand. Calls with a device operand run
// on the CUDA target; a device output stays on the device.
func Device[T Element](d *cuda.DeviceArray[T]) Operand[T] { return deviceOperand[T]{d} }

// check validates the operand's shape against its data.
func (o opnd[T]) check(what string) error {
	if o.nilDev {
		return fmt.Errorf("%s: nil operand or device array", what)
	}
	for _, d := range o.shape {
		if d < 0 {
			return fmt.Errorf("%s: negative dimension in shape %s: %w", what, shapeString(o.shape), ErrShape)
		}
	}
	if _, ok := checkedSize(o.shape); !ok {
		return fmt.Errorf("%s: %w", what, tooLarge(o.shape))
	}
	if o.dev != nil {
		return nil
	}
	if n := size(o.shape); len(o.data) != n {
		return fmt.Errorf("%s: %d elements for shape %s (%d elements): %w", what, len(o.data), shapeString(o.shape), n, ErrShape)
	}
	return nil
}

// arg is the operand as a kernel launch argument: the device array, or
// the host data (copied in and out by the launch).
func (o opnd[T]) arg() any {
	if o.dev != nil {
		return o.dev
	}
	return o.data
}

// unalias returns in with its data copied when it shares memory with
// out's host data other than element for element (the same elements in
// the same places, as in Into(a, a, b)), so that every result is computed
// from the inputs as they were before the call wrote anything, as NumPy
// does. Device arrays never overlap partially.
func unalias[T, R Element](out opnd[R], in opnd[T]) opnd[T] {
	if len(out.data) == 0 || len(in.data) == 0 {
		return in
	}
	ob, ib := bytesSpan(out.data), bytesSpan(in.data)
	if ib[0] >= ob[1] || ob[0] >= ib[1] {
		return in
	}
	if ob == ib && unsafe.Sizeof(out.data[0]) == unsafe.Sizeof(in.data[0]) && equalShape(out.shape, in.shape) {
		return in
	}
	in.data = slices.Clone(in.data)
	return in
}

// bytesSpan is the address range [start, end) of a slice's elements.
func bytesSpan[T Element](s []T) [2]uintptr {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return [2]uintptr{p, p + uintptr(len(s))*unsafe.Sizeof(s[0])}
}

// checkedSize is the number of elements of a shape, and false if a
// dimension is negative or the product overflows int (an empty shape of
// any dimensions is fine).
func checkedSize(shape []int) (int, bool) {
	if slices.ContainsFunc(shape, func(d int) bool { return d < 0 }) {
		return 0, false
	}
	if slices.Contains(shape, 0) {
		return 0, true
	}
	n := 1
	for _, d := range shape {
		if n > math.MaxInt/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// tooLarge reports a shape whose number of elements overflows int.
func tooLarge(shape []int) error {
	return fmt.Errorf("shape %s is too large: its number of elements overflows int: %w", shapeString(shape), ErrShape)
}

// size is the number of elements of a shape.
func size(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// shapeString formats a shape as NumPy does: (3,), (2, 3), ().
func shapeString(shape []int) string {
	if len(shape) == 1 {
		return fmt.Sprintf("(%d,)", shape[0])
	}
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = fmt.Sprint(d)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// broadcast returns the shape that shapes broadcast to by NumPy's rules,
// or an error naming the first two shapes that disagree.
func broadcast(shapes ...[]int) ([]int, error) {
	nd := 0
	for _, s := range shapes {
		nd = max(nd, len(s))
	}
	out := make([]int, nd)
	for i := range out {
		out[i] = 1
	}
	from := make([]int, nd) // which operand set each dimension
	for k, s := range shapes {
		off := nd - len(s)
		for i, d := range s {
			j := off + i
			switch {
			case d == out[j] || d == 1:
			case out[j] == 1:
				out[j], from[j] = d, k
			default:
				return nil, fmt.Errorf("operands could not be broadcast together with shapes %s and %s: %w",
					shapeString(shapes[from[j]]), shapeString(s), ErrShape)
			}
		}
	}
	return out, nil
}

// stridesFor returns, for each dimension of out, the step in elements of
// an operand of shape s broadcast to out: 0 where the operand repeats.
func stridesFor(s, out []int) []int {
	st := make([]int, len(out))
	off := len(out) - len(s)
	step := 1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != 1 {
			st[off+i] = step
		}
		step *= s[i]
	}
	return st
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Element is the set of operand and result types of ufuncs: the numbers,
// complex64 and complex128, cuda.Float16 (Numba's float16: a ufunc of
// Float16 calls cuda.HAdd, cuda.HMul ... on every target) and bool
// (NumPy's boolean arrays: a predicate vectorized over an array gives a
// []bool, which a ufunc of bools may combine).
type Element interface {
	cuda.Number | cuda.Complex | cuda.Float16 | ~bool
}
