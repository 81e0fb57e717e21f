package vectorize

import (
	"reflect"

	"github.com/nugo-dev/nugo/cuda"
)

// elemTypes is what gufuncs need to know, per element type, of the
// generic types they take and make: cuda.Array2/Array3 core operands,
// vectorize.Array and *cuda.DeviceArray arguments. Go's reflect cannot
// instantiate generic types, so they are registered here for Go's
// predeclared numeric, complex and bool types and cuda.Float16, the Element types (named
// types over them work as slices and scalars, not as 2-D or 3-D cores). It is filled at init and only read
// afterwards.
var elemTypes = map[reflect.Type]*elemInfo{}

// coreTypes maps cuda.Array2[E] and cuda.Array3[E] to their element's info.
var coreTypes = map[reflect.Type]*elemInfo{}

type elemInfo struct {
	elem           reflect.Type
	array          reflect.Type // vectorize.Array[E]
	device         reflect.Type // *cuda.DeviceArray[E]
	array2, array3 reflect.Type
	// view2 and view3 view a []E as a cuda.Array2/Array3 of the given shape.
	view2, view3 func(s reflect.Value, d []int) reflect.Value
	// newArray makes a zeroed vectorize.Array[E].
	newArray func(shape []int) (any, reflect.Value, error)
	// parts returns the data and shape of a vectorize.Array[E],
	// cuda.Array2[E] or cuda.Array3[E] value.
	parts func(v any) (reflect.Value, []int, bool)
}

func register[E Element]() {
	e := &elemInfo{
		elem:   reflect.TypeFor[E](),
		array:  reflect.TypeFor[Array[E]](),
		device: reflect.TypeFor[*cuda.DeviceArray[E]](),
		array2: reflect.TypeFor[cuda.Array2[E]](),
		array3: reflect.TypeFor[cuda.Array3[E]](),
		view2: func(s reflect.Value, d []int) reflect.Value {
			a, _ := cuda.View2(s.Interface().([]E), d[0], d[1])
			return reflect.ValueOf(a)
		},
		view3: func(s reflect.Value, d []int) reflect.Value {
			a, _ := cuda.View3(s.Interface().([]E), d[0], d[1], d[2])
			return reflect.ValueOf(a)
		},
		newArray: func(shape []int) (any, reflect.Value, error) {
			a, err := zeros[E](shape)
			return a, reflect.ValueOf(a.Data), err
		},
		parts: func(v any) (reflect.Value, []int, bool) {
			switch a := v.(type) {
			case Array[E]:
				return reflect.ValueOf(a.Data), a.Shape, true
			case cuda.Array2[E]:
				o := Array2(a)
				return reflect.ValueOf(o.Data), o.Shape, true
			case cuda.Array3[E]:
				o := Array3(a)
				return reflect.ValueOf(o.Data), o.Shape, true
			}
			return reflect.Value{}, nil, false
		},
	}
	elemTypes[e.elem] = e
	coreTypes[e.array2] = e
	coreTypes[e.array3] = e
}

func init() {
	register[int]()
	register[int8]()
	register[int16]()
	register[int32]()
	register[int64]()
	register[uint]()
	register[uint8]()
	register[uint16]()
	register[uint32]()
	register[uint64]()
	register[uintptr]()
	register[float32]()
	register[float64]()
	register[complex64]()
	register[complex128]()
	register[bool]()
	register[cuda.Float16]()
}

// isElement reports whether t is one of Element's types: its kind a
// number, complex64, complex128 or bool, or cuda.Float16.
func isElement(t reflect.Type) bool {
	if t == float16Type {
		return true
	}
	k := t.Kind()
	return k == reflect.Bool || k >= reflect.Int && k <= reflect.Complex128
}
