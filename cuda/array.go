package cuda

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"
)

// Array2 is a 2-D array view: element (i, j) is
// Data()[Offset()+i*s0+j*s1], where (s0, s1) = Strides(). The arrays made
// by NewArray2, View2 and MustView2 are row-major (strides (cols, 1),
// offset 0); T and the strided device views that kernels receive (see
// DeviceArray.Sub and DeviceArray.T) have other strides, negative ones too.
// Kernels take it as a parameter; on the host it wraps a slice. Launch
// copies a host Array2 to the device and back as it does a slice; a 2-D
// DeviceArray passed for an Array2 parameter stays on the device, strided
// or not.
type Array2[T Element] struct {
	data       []T
	rows, cols int
	off        int // index in data of element (0, 0)
	s0, s1     int // strides in elements
}

// NewArray2 returns a zeroed rows×cols array. Like make, it panics if a
// dimension is negative or the array is too large for memory.
func NewArray2[T Element](rows, cols int) Array2[T] {
	return rowMajor2(makeArray[T]("NewArray2", rows, cols), rows, cols)
}

// rowMajor2 views data as a rows×cols row-major array.
func rowMajor2[T Element](data []T, rows, cols int) Array2[T] {
	return Array2[T]{data: data, rows: rows, cols: cols, s0: cols, s1: 1}
}

// rowMajor3 views data as a d0×d1×d2 row-major array.
func rowMajor3[T Element](data []T, d0, d1, d2 int) Array3[T] {
	return Array3[T]{data: data, d0: d0, d1: d1, d2: d2, s0: d1 * d2, s1: d2, s2: 1}
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
	return rowMajor2(data, rows, cols), nil
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
	return rowMajor2(data, rows, cols)
}

// At returns element (i, j).
func (a Array2[T]) At(i, j int) T { return a.AtP(i, j) }

// Set stores v at (i, j).
func (a Array2[T]) Set(i, j int, v T) { a.SetP(i, j, v) }

// AtP is At through a pointer, for the loops nugo gen writes (kernels call
// At). An Array2 has too many fields for the Go compiler to keep in
// registers, so each call of At copies it, which in a loop of loads costs
// more than the load: the tiled matmul's tile loads ran twice as fast on
// AtP.
func (a *Array2[T]) AtP(i, j int) T {
	if uint(i) >= uint(a.rows) || uint(j) >= uint(a.cols) {
		panic(index2Error{i, j, a.rows, a.cols})
	}
	return a.data[a.off+i*a.s0+j*a.s1]
}

// SetP is Set through a pointer, for the loops nugo gen writes (see AtP).
func (a *Array2[T]) SetP(i, j int, v T) {
	if uint(i) >= uint(a.rows) || uint(j) >= uint(a.cols) {
		panic(index2Error{i, j, a.rows, a.cols})
	}
	a.data[a.off+i*a.s0+j*a.s1] = v
}

// Shape returns the number of rows and columns.
func (a Array2[T]) Shape() (rows, cols int) { return a.rows, a.cols }

// Len is the number of elements, rows*cols.
func (a Array2[T]) Len() int { return a.rows * a.cols }

// Data returns the backing slice: the elements in row-major order for an
// array made by NewArray2, View2 or MustView2; for a strided view, the
// memory from its lowest element to its highest, where element (i, j) is
// Data()[Offset()+i*s0+j*s1].
func (a Array2[T]) Data() []T { return a.data }

// Strides returns the distance in elements between rows (s0) and between
// columns (s1): (cols, 1) for a row-major array.
func (a Array2[T]) Strides() (s0, s1 int) { return a.s0, a.s1 }

// Offset is the index in Data() of element (0, 0): 0 unless a stride is
// negative.
func (a Array2[T]) Offset() int { return a.off }

// T returns the transpose: a cols×rows view of the same memory whose
// element (j, i) is a's (i, j). Nothing is copied.
func (a Array2[T]) T() Array2[T] {
	return Array2[T]{data: a.data, rows: a.cols, cols: a.rows, off: a.off, s0: a.s1, s1: a.s0}
}

// Contiguous reports whether the elements are Data() in row-major order.
func (a Array2[T]) Contiguous() bool {
	return a.off == 0 && len(a.data) == a.rows*a.cols && contiguous([]int{a.rows, a.cols}, []int{a.s0, a.s1})
}

// Array3 is a 3-D array view: element (i, j, k) is
// Data()[Offset()+i*s0+j*s1+k*s2], where (s0, s1, s2) = Strides(). The
// arrays made by NewArray3, View3 and MustView3 are row-major (strides
// (d1*d2, d2, 1), offset 0); see Array2 for strided views.
type Array3[T Element] struct {
	data       []T
	d0, d1, d2 int
	off        int // index in data of element (0, 0, 0)
	s0, s1, s2 int // strides in elements
}

// NewArray3 returns a zeroed d0×d1×d2 array. Like make, it panics if a
// dimension is negative or the array is too large for memory.
func NewArray3[T Element](d0, d1, d2 int) Array3[T] {
	return rowMajor3(makeArray[T]("NewArray3", d0, d1, d2), d0, d1, d2)
}

// View3 views data as a d0×d1×d2 row-major array; len(data) must be
// d0*d1*d2.
func View3[T Element](data []T, d0, d1, d2 int) (Array3[T], error) {
	if !viewFits(len(data), d0, d1, d2) {
		return Array3[T]{}, fmt.Errorf("View3: %d elements cannot be viewed as %d×%d×%d", len(data), d0, d1, d2)
	}
	return rowMajor3(data, d0, d1, d2), nil
}

// MustView3 is View3 for kernels: it views data as a d0×d1×d2 row-major
// array and panics if len(data) is not d0*d1*d2 or a dimension is
// negative. It is checked as MustView2 is: always on the cpu backend, in
// debug mode (Debug) on the compiled backends.
func MustView3[T Element](data []T, d0, d1, d2 int) Array3[T] {
	if !viewFits(len(data), d0, d1, d2) {
		panic(shapeError(fmt.Sprintf("MustView3: %d elements cannot be viewed as %d×%d×%d", len(data), d0, d1, d2)))
	}
	return rowMajor3(data, d0, d1, d2)
}

// At returns element (i, j, k).
func (a Array3[T]) At(i, j, k int) T { return a.AtP(i, j, k) }

// Set stores v at (i, j, k).
func (a Array3[T]) Set(i, j, k int, v T) { a.SetP(i, j, k, v) }

// AtP is At through a pointer, for the loops nugo gen writes (kernels call
// At; see Array2.AtP).
func (a *Array3[T]) AtP(i, j, k int) T {
	if uint(i) >= uint(a.d0) || uint(j) >= uint(a.d1) || uint(k) >= uint(a.d2) {
		panic(index3Error{i, j, k, a.d0, a.d1, a.d2})
	}
	return a.data[a.off+i*a.s0+j*a.s1+k*a.s2]
}

// SetP is Set through a pointer, for the loops nugo gen writes (see
// Array2.AtP).
func (a *Array3[T]) SetP(i, j, k int, v T) {
	if uint(i) >= uint(a.d0) || uint(j) >= uint(a.d1) || uint(k) >= uint(a.d2) {
		panic(index3Error{i, j, k, a.d0, a.d1, a.d2})
	}
	a.data[a.off+i*a.s0+j*a.s1+k*a.s2] = v
}

// Shape returns the three dimensions.
func (a Array3[T]) Shape() (d0, d1, d2 int) { return a.d0, a.d1, a.d2 }

// Len is the number of elements, d0*d1*d2.
func (a Array3[T]) Len() int { return a.d0 * a.d1 * a.d2 }

// Data returns the backing slice: the elements in row-major order for an
// array made by NewArray3, View3 or MustView3; for a strided view, the
// memory from its lowest element to its highest (see Array3).
func (a Array3[T]) Data() []T { return a.data }

// Strides returns the distances in elements between consecutive indices
// of each dimension: (d1*d2, d2, 1) for a row-major array.
func (a Array3[T]) Strides() (s0, s1, s2 int) { return a.s0, a.s1, a.s2 }

// Offset is the index in Data() of element (0, 0, 0): 0 unless a stride
// is negative.
func (a Array3[T]) Offset() int { return a.off }

// T returns the transpose, the axes reversed: a d2×d1×d0 view of the same
// memory whose element (k, j, i) is a's (i, j, k), as NumPy's a.T.
func (a Array3[T]) T() Array3[T] {
	return Array3[T]{data: a.data, d0: a.d2, d1: a.d1, d2: a.d0, off: a.off, s0: a.s2, s1: a.s1, s2: a.s0}
}

// Contiguous reports whether the elements are Data() in row-major order.
func (a Array3[T]) Contiguous() bool {
	return a.off == 0 && len(a.data) == a.d0*a.d1*a.d2 && contiguous([]int{a.d0, a.d1, a.d2}, []int{a.s0, a.s1, a.s2})
}

// contiguous reports whether strides are row-major for shape: dimensions
// of one element (or an empty array) may have any stride.
func contiguous(shape, strides []int) bool {
	want := 1
	for i := len(shape) - 1; i >= 0; i-- {
		switch {
		case shape[i] == 0:
			return true
		case shape[i] != 1 && strides[i] != want:
			return false
		}
		want *= shape[i]
	}
	return true
}

// shapeError is MustView2's and MustView3's panic value.
type shapeError string

func (e shapeError) Error() string { return string(e) }

type indexError string

func (e indexError) Error() string { return string(e) }

func indexError2(i, j, r, c int) error {
	return indexError(fmt.Sprintf("index (%d,%d) out of range for shape (%d,%d)", i, j, r, c))
}

// index2Error and index3Error are the panic values of At and Set: the
// message is made only when read, so that At and Set stay cheap enough
// for the compiler to inline them into the loops nugo gen writes.
type (
	index2Error struct{ i, j, r, c int }
	index3Error struct{ i, j, k, d0, d1, d2 int }
)

func (e index2Error) Error() string { return indexError2(e.i, e.j, e.r, e.c).Error() }
func (e index3Error) Error() string {
	return indexError3(e.i, e.j, e.k, e.d0, e.d1, e.d2).Error()
}

func indexError3(i, j, k, d0, d1, d2 int) error {
	return indexError(fmt.Sprintf("index (%d,%d,%d) out of range for shape (%d,%d,%d)", i, j, k, d0, d1, d2))
}

// ndArray is what Launch needs of Array2 and Array3 values.
type ndArray interface {
	shape() []int
	// layout is the index in flat of the first element and the strides.
	layout() (off int, strides []int)
	flat() reflect.Value
	// view returns an array of the same type over the n elements at p,
	// of the given shape, strides and first element.
	view(p unsafe.Pointer, n int, shape, strides []int, off int) reflect.Value
}

func (a Array2[T]) shape() []int                { return []int{a.rows, a.cols} }
func (a Array2[T]) layout() (off int, st []int) { return a.off, []int{a.s0, a.s1} }
func (a Array2[T]) flat() reflect.Value         { return reflect.ValueOf(a.data) }
func (a Array3[T]) shape() []int                { return []int{a.d0, a.d1, a.d2} }
func (a Array3[T]) layout() (off int, st []int) { return a.off, []int{a.s0, a.s1, a.s2} }
func (a Array3[T]) flat() reflect.Value         { return reflect.ValueOf(a.data) }
func (Array2[T]) view(p unsafe.Pointer, n int, s, st []int, off int) reflect.Value {
	return reflect.ValueOf(Array2[T]{data: unsafe.Slice((*T)(p), n), rows: s[0], cols: s[1], off: off, s0: st[0], s1: st[1]})
}
func (Array3[T]) view(p unsafe.Pointer, n int, s, st []int, off int) reflect.Value {
	return reflect.ValueOf(Array3[T]{data: unsafe.Slice((*T)(p), n), d0: s[0], d1: s[1], d2: s[2], off: off, s0: st[0], s1: st[1], s2: st[2]})
}

var ndArrayType = reflect.TypeFor[ndArray]()

// Sub returns the part of the array that rows and cols select, as NumPy's
// a[lo:hi:step, lo:hi:step] does (see Span): a view of the same memory,
// strided, nothing copied. Index spans, which would drop a dimension, are
// an error here: use Range(i, i+1).
func (a Array2[T]) Sub(rows, cols Span) (Array2[T], error) {
	l, err := subLayout("Sub", []int{a.rows, a.cols}, []int{a.s0, a.s1}, a.off, []Span{rows, cols})
	if err != nil {
		return Array2[T]{}, err
	}
	return Array2[T]{data: a.data[l.lo:l.hi], rows: l.shape[0], cols: l.shape[1], off: l.off, s0: l.strides[0], s1: l.strides[1]}, nil
}

// Sub returns the part of the array that the spans select (see
// Array2.Sub).
func (a Array3[T]) Sub(s0, s1, s2 Span) (Array3[T], error) {
	l, err := subLayout("Sub", []int{a.d0, a.d1, a.d2}, []int{a.s0, a.s1, a.s2}, a.off, []Span{s0, s1, s2})
	if err != nil {
		return Array3[T]{}, err
	}
	return Array3[T]{data: a.data[l.lo:l.hi], d0: l.shape[0], d1: l.shape[1], d2: l.shape[2], off: l.off, s0: l.strides[0], s1: l.strides[1], s2: l.strides[2]}, nil
}

// viewLayout is where a host view's elements lie: data[lo:hi] holds them,
// the first at off from lo.
type viewLayout struct {
	shape, strides []int
	off, lo, hi    int
}

// subLayout applies spans (one per dimension, none an Index) to a host
// array of the given shape, strides and first element.
func subLayout(fn string, shape, strides []int, off int, spans []Span) (viewLayout, error) {
	l := viewLayout{off: off}
	n := 1
	for k, s := range spans {
		if s.kind == spanIndex {
			return viewLayout{}, fmt.Errorf("%s%s: dimension %d: an Index span would drop the dimension; use Range(%d, %d)", fn, indexString(spans), k, s.lo, s.lo+1)
		}
		first, count, step, _, err := s.resolve(shape[k])
		if err != nil {
			return viewLayout{}, fmt.Errorf("%s%s of a %s array: dimension %d: %w", fn, indexString(spans), shapeString(shape), k, err)
		}
		if count > 0 {
			l.off += first * strides[k]
		}
		l.shape = append(l.shape, count)
		l.strides = append(l.strides, strides[k]*step)
		n *= count
	}
	if n == 0 {
		return viewLayout{shape: l.shape, strides: l.strides}, nil
	}
	l.lo, l.hi = l.off, l.off
	for k, st := range l.strides {
		if ext := (l.shape[k] - 1) * st; ext < 0 {
			l.lo += ext
		} else {
			l.hi += ext
		}
	}
	l.hi++
	l.off -= l.lo
	return l, nil
}
