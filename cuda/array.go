package cuda

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Array2 is a row-major 2-D array view: element (i, j) is Data()[i*cols+j].
// Kernels take it as a parameter; on the host it wraps a slice. Launch
// copies a host Array2 to the device and back as it does a slice; a 2-D
// DeviceArray passed for an Array2 parameter stays on the device.
type Array2[T Element] struct {
	data       []T
	rows, cols int
}

// NewArray2 returns a zeroed rows×cols array. Like make, it panics if a
// dimension is negative or the array is too large for memory.
func NewArray2[T Element](rows, cols int) Array2[T] {
	return Array2[T]{data: makeArray[T]("NewArray2", rows, cols), rows: rows, cols: cols}
}

// makeArray makes the data of a new array of the given shape, panicking
// as make does, but with the shape in the message, where the shape is
// negative or too large (where make could be given a wrapped-around
// product that fits).
func makeArray[T Element](fn string, shape ...int) []T {
	var zero T
	n, ok := elements(int(unsafe.Sizeof(zero)), shape...)
	if !ok {
		why := "is too large"
		if slices.ContainsFunc(shape, func(d int) bool { return d < 0 }) {
			why = "has a negative dimension"
		}
		panic(shapeError(fmt.Sprintf("%s: shape %s %s", fn, shapeString(shape), why)))
	}
	return make([]T, n)
}

// shapeString formats a shape as "rows×cols".
func shapeString(shape []int) string {
	s := make([]string, len(shape))
	for i, d := range shape {
		s[i] = strconv.Itoa(d)
	}
	return strings.Join(s, "×")
}

// viewFits reports whether n elements view as shape: no dimension
// negative, and their product (without overflow) n.
func viewFits(n int, shape ...int) bool {
	m, ok := elements(1, shape...)
	return ok && m == n
}

// View2 views data as a rows×cols row-major array; len(data) must be
// rows*cols.
func View2[T Element](data []T, rows, cols int) (Array2[T], error) {
	if !viewFits(len(data), rows, cols) {
		return Array2[T]{}, fmt.Errorf("View2: %d elements cannot be viewed as %d×%d", len(data), rows, cols)
	}
	return Array2[T]{data: data, rows: rows, cols: cols}, nil
}

// MustView2 is View2 for kernels, which cannot handle errors: it views
// data as a rows×cols row-major array and panics if len(data) is not
// rows*cols or a dimension is negative. A kernel calls it to view part of
// a slice parameter as a matrix:
//
//	m := cuda.MustView2(data[off:off+rows*cols], rows, cols)
//
// On the cpu backend (and on the host) a mismatch panics; in a kernel the
// panic stops the launch with a *KernelError. The compiled backends check
// the shape in debug mode (Debug) only, as they check indexing: there a
// mismatch is a *KernelError too, and without Debug it is not detected.
func MustView2[T Element](data []T, rows, cols int) Array2[T] {
	if !viewFits(len(data), rows, cols) {
		panic(shapeError(fmt.Sprintf("MustView2: %d elements cannot be viewed as %d×%d", len(data), rows, cols)))
	}
	return Array2[T]{data: data, rows: rows, cols: cols}
}

// At returns element (i, j).
func (a Array2[T]) At(i, j int) T {
	if uint(i) >= uint(a.rows) || uint(j) >= uint(a.cols) {
		panic(indexError2(i, j, a.rows, a.cols))
	}
	return a.data[i*a.cols+j]
}

// Set stores v at (i, j).
func (a Array2[T]) Set(i, j int, v T) {
	if uint(i) >= uint(a.rows) || uint(j) >= uint(a.cols) {
		panic(indexError2(i, j, a.rows, a.cols))
	}
	a.data[i*a.cols+j] = v
}

// Shape returns the number of rows and columns.
func (a Array2[T]) Shape() (rows, cols int) { return a.rows, a.cols }

// Len is the number of elements, rows*cols.
func (a Array2[T]) Len() int { return len(a.data) }

// Data returns the row-major backing slice.
func (a Array2[T]) Data() []T { return a.data }

// Array3 is a row-major 3-D array view: element (i, j, k) is
// Data()[(i*d1+j)*d2+k].
type Array3[T Element] struct {
	data       []T
	d0, d1, d2 int
}

// NewArray3 returns a zeroed d0×d1×d2 array. Like make, it panics if a
// dimension is negative or the array is too large for memory.
func NewArray3[T Element](d0, d1, d2 int) Array3[T] {
	return Array3[T]{data: makeArray[T]("NewArray3", d0, d1, d2), d0: d0, d1: d1, d2: d2}
}

// View3 views data as a d0×d1×d2 row-major array; len(data) must be
// d0*d1*d2.
func View3[T Element](data []T, d0, d1, d2 int) (Array3[T], error) {
	if !viewFits(len(data), d0, d1, d2) {
		return Array3[T]{}, fmt.Errorf("View3: %d elements cannot be viewed as %d×%d×%d", len(data), d0, d1, d2)
	}
	return Array3[T]{data: data, d0: d0, d1: d1, d2: d2}, nil
}

// MustView3 is View3 for kernels: it views data as a d0×d1×d2 row-major
// array and panics if len(data) is not d0*d1*d2 or a dimension is
// negative. It is checked as MustView2 is: always on the cpu backend, in
// debug mode (Debug) on the compiled backends.
func MustView3[T Element](data []T, d0, d1, d2 int) Array3[T] {
	if !viewFits(len(data), d0, d1, d2) {
		panic(shapeError(fmt.Sprintf("MustView3: %d elements cannot be viewed as %d×%d×%d", len(data), d0, d1, d2)))
	}
	return Array3[T]{data: data, d0: d0, d1: d1, d2: d2}
}

// At returns element (i, j, k).
func (a Array3[T]) At(i, j, k int) T {
	if uint(i) >= uint(a.d0) || uint(j) >= uint(a.d1) || uint(k) >= uint(a.d2) {
		panic(indexError3(i, j, k, a.d0, a.d1, a.d2))
	}
	return a.data[(i*a.d1+j)*a.d2+k]
}

// Set stores v at (i, j, k).
func (a Array3[T]) Set(i, j, k int, v T) {
	if uint(i) >= uint(a.d0) || uint(j) >= uint(a.d1) || uint(k) >= uint(a.d2) {
		panic(indexError3(i, j, k, a.d0, a.d1, a.d2))
	}
	a.data[(i*a.d1+j)*a.d2+k] = v
}

// Shape returns the three dimensions.
func (a Array3[T]) Shape() (d0, d1, d2 int) { return a.d0, a.d1, a.d2 }

// Len is the number of elements.
func (a Array3[T]) Len() int { return len(a.data) }

// Data returns the row-major backing slice.
func (a Array3[T]) Data() []T { return a.data }

// shapeError is MustView2's and MustView3's panic value.
type shapeError string

func (e shapeError) Error() string { return string(e) }

type indexError string

func (e indexError) Error() string { return string(e) }

func indexError2(i, j, r, c int) error {
	return indexError(fmt.Sprintf("index (%d,%d) out of range for shape (%d,%d)", i, j, r, c))
}

func indexError3(i, j, k, d0, d1, d2 int) error {
	return indexError(fmt.Sprintf("index (%d,%d,%d) out of range for shape (%d,%d,%d)", i, j, k, d0, d1, d2))
}

// ndArray is what Launch needs of Array2 and Array3 values.
type ndArray interface {
	shape() []int
	flat() reflect.Value
	// view returns an array of the same type over n elements at p.
	view(p unsafe.Pointer, shape []int) reflect.Value
}

func (a Array2[T]) shape() []int        { return []int{a.rows, a.cols} }
func (a Array2[T]) flat() reflect.Value { return reflect.ValueOf(a.data) }
func (a Array3[T]) shape() []int        { return []int{a.d0, a.d1, a.d2} }
func (a Array3[T]) flat() reflect.Value { return reflect.ValueOf(a.data) }
func (Array2[T]) view(p unsafe.Pointer, s []int) reflect.Value {
	return reflect.ValueOf(Array2[T]{data: unsafe.Slice((*T)(p), s[0]*s[1]), rows: s[0], cols: s[1]})
}
func (Array3[T]) view(p unsafe.Pointer, s []int) reflect.Value {
	return reflect.ValueOf(Array3[T]{data: unsafe.Slice((*T)(p), s[0]*s[1]*s[2]), d0: s[0], d1: s[1], d2: s[2]})
}

var ndArrayType = reflect.TypeFor[ndArray]()
