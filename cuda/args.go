package cuda

import (
	"fmt"
	"math"
	"reflect"
)

// boundArg is a launch argument checked against its parameter.
type boundArg struct {
	param *param
	// value is a scalar converted to the parameter's type, or a host slice
	// or host Array2/Array3 that the launch copies in and out.
	value reflect.Value
	// dev is the device array passed for a slice or array parameter.
	dev deviceArg
	// dir is the copies a host slice gets (In, Out; both by default).
	dir transferDir
}

// isHost reports whether the argument is host memory (a slice or array
// parameter bound to a value: Kernel.bindFuncs leaves them unbound).
func (a boundArg) isHost() bool {
	return a.dev == nil && a.value.IsValid() && (a.param.kind == sliceParam || a.param.kind == arrayParam)
}

// deviceArg is what Launch needs of a *DeviceArray[T].
type deviceArg interface {
	owner() backend
	mem() (memory, error)
	offset() int // bytes from the start of mem to the lowest element
	dims() []int
	// spanBytes is the size from the lowest element to the end of the
	// highest; layout the index of the first element (index 0 in every
	// dimension) from the lowest, and the strides in elements.
	spanBytes() int
	layout() (first int, strides []int)
	contiguous() bool
	elemType() reflect.Type
}

var deviceArgType = reflect.TypeFor[deviceArg]()

// bind checks args against the kernel's parameters.
func (k *Kernel) bind(be backend, args []any) ([]boundArg, error) {
	if len(args) != len(k.params) {
		return nil, fmt.Errorf("kernel takes %d arguments after the Thread, got %d", len(k.params), len(args))
	}
	out := make([]boundArg, len(args))
	for i, a := range args {
		p := &k.params[i]
		b, err := bindArg(be, p, a)
		if err != nil {
			return nil, fmt.Errorf("%v: %w", p, err)
		}
		out[i] = b
	}
	return out, nil
}

func bindArg(be backend, p *param, a any) (boundArg, error) {
	if t, ok := a.(Transfer); ok {
		if p.kind != sliceParam {
			return boundArg{param: p}, fmt.Errorf("got %v; In, Out and InOut wrap host slices, for slice parameters", t)
		}
		if _, isDev := t.value.(deviceArg); isDev {
			return boundArg{param: p}, fmt.Errorf("got %v; a device array needs no transfer: pass it bare", t)
		}
		b, err := bindArg(be, p, t.value)
		b.dir = t.dir
		return b, err
	}
	b := boundArg{param: p}
	v := reflect.ValueOf(a)
	if !v.IsValid() {
		return b, fmt.Errorf("got nil")
	}
	if v.Type().Implements(deviceArgType) {
		if p.kind == scalarParam || p.kind == funcParam || p.kind == valueParam {
			return b, fmt.Errorf("got a device array for a %s parameter", map[paramKind]string{scalarParam: "scalar", funcParam: "func", valueParam: "by-value " + p.typ.Kind().String()}[p.kind])
		}
		if v.IsNil() {
			return b, fmt.Errorf("got a nil device array")
		}
		d := a.(deviceArg)
		if d.elemType() != p.elem {
			return b, fmt.Errorf("got a device array of %s; the parameter's elements are %s", d.elemType(), p.elem)
		}
		if p.kind == arrayParam && len(d.dims()) != p.ndim {
			return b, fmt.Errorf("got a %d-D device array for a %d-D parameter", len(d.dims()), p.ndim)
		}
		if p.kind == sliceParam && !d.contiguous() {
			_, st := d.layout()
			return b, fmt.Errorf("got a strided device array view (shape %v, strides %v) for a slice parameter; pass it for an Array%d parameter, which takes strides, or copy it into a contiguous array first", d.dims(), st, max(len(d.dims()), 2))
		}
		if _, err := d.mem(); err != nil {
			return b, err
		}
		if d.owner().root() != be.root() {
			return b, fmt.Errorf("device array belongs to the %s backend, not %s", d.owner().kind(), be.kind())
		}
		if !sameDevice(d.owner(), be) {
			return b, fmt.Errorf("device array is on %s, the launch on %s; copy it there with CopyPeer", d.owner().deviceName(), be.deviceName())
		}
		b.dev = d
		return b, nil
	}
	switch p.kind {
	case scalarParam:
		c, err := convertScalar(v, p.typ)
		if err != nil {
			return b, err
		}
		b.value = c
	case sliceParam:
		if v.Type() != p.typ {
			return b, fmt.Errorf("got %s; pass a %s or a *cuda.DeviceArray[%s]", v.Type(), p.typ, p.elem)
		}
		if v.IsNil() {
			return b, fmt.Errorf("got a nil slice")
		}
		b.value = v
	case arrayParam:
		if v.Type() != p.typ {
			return b, fmt.Errorf("got %s; pass a %s or a %d-D *cuda.DeviceArray[%s]", v.Type(), p.typ, p.ndim, p.elem)
		}
		if v.Interface().(ndArray).flat().IsNil() {
			return b, fmt.Errorf("got an array without data (make it with NewArray%d or View%d)", p.ndim, p.ndim)
		}
		b.value = v
	case valueParam:
		// A value of the same layout converts: an unnamed struct or array
		// literal for a named type, or a struct differing only in tags.
		if v.Kind() != p.typ.Kind() || !v.Type().ConvertibleTo(p.typ) {
			return b, fmt.Errorf("got %s; pass a %s", v.Type(), p.typ)
		}
		b.value = v.Convert(p.typ)
	case funcParam:
		if v.Type() != p.typ {
			return b, fmt.Errorf("got %s; pass a function of type %s", v.Type(), p.typ)
		}
		if v.IsNil() {
			return b, fmt.Errorf("got a nil func")
		}
		b.value = v
	}
	return b, nil
}

// convertScalar converts v to type to if no information is lost. A float64
// narrowed to float32 is rounded, as a Go constant would be, but must not
// overflow.
func convertScalar(v reflect.Value, to reflect.Type) (reflect.Value, error) {
	from := v.Type()
	if from == to {
		return v, nil
	}
	if to == float16Type || from == float16Type {
		return reflect.Value{}, fmt.Errorf("got %s for a %s parameter; convert with cuda.F16 or Float32", from, to)
	}
	if to.Kind() == reflect.Bool || from.Kind() == reflect.Bool {
		if to.Kind() == from.Kind() {
			return v.Convert(to), nil
		}
		return reflect.Value{}, fmt.Errorf("got %s for a %s parameter", from, to)
	}
	if !isNumberKind(from.Kind()) {
		return reflect.Value{}, fmt.Errorf("got %s; the parameter takes a number of type %s", from, to)
	}
	if isComplexKind(to.Kind()) || isComplexKind(from.Kind()) {
		return convertComplex(v, to)
	}
	out := v.Convert(to)
	if isFloatKind(from.Kind()) && isFloatKind(to.Kind()) {
		if f := v.Float(); math.Abs(f) > math.MaxFloat32 && !math.IsInf(f, 0) && to.Kind() == reflect.Float32 {
			return reflect.Value{}, fmt.Errorf("value %v overflows %s", f, to)
		}
		return out, nil
	}
	if out.Convert(from).Interface() != v.Interface() || sign(out) != sign(v) {
		return reflect.Value{}, fmt.Errorf("value %v of type %s does not fit %s without loss", v, from, to)
	}
	return out, nil
}

// convertComplex converts a complex, float or integer argument to a
// complex parameter's type (a real one becomes the real part; an integer
// must convert exactly), refusing a complex one for a real parameter and
// parts that overflow complex64.
func convertComplex(v reflect.Value, to reflect.Type) (reflect.Value, error) {
	from := v.Type()
	var c complex128
	switch {
	case !isComplexKind(to.Kind()):
		return reflect.Value{}, fmt.Errorf("got %s for a %s parameter; pass real(x) or imag(x)", from, to)
	case isComplexKind(from.Kind()):
		c = v.Complex()
	case isFloatKind(from.Kind()):
		c = complex(v.Float(), 0)
	default:
		// An integer becomes the real part when it converts exactly, as
		// Numba coerces 123 to 123+0j.
		f, exact := exactFloat(v, to.Kind() == reflect.Complex64)
		if !exact {
			return reflect.Value{}, fmt.Errorf("value %v of type %s is not exactly a %s; convert it yourself (complex(float64(x), 0)) to round", v, from, to)
		}
		c = complex(f, 0)
	}
	if to.Kind() == reflect.Complex64 {
		for _, f := range []float64{real(c), imag(c)} {
			if math.Abs(f) > math.MaxFloat32 && !math.IsInf(f, 0) {
				return reflect.Value{}, fmt.Errorf("value %v overflows %s", c, to)
			}
		}
	}
	return reflect.ValueOf(c).Convert(to), nil
}

// exactFloat converts an integer to float64 (float32 precision if f32),
// reporting whether it converts without rounding.
func exactFloat(v reflect.Value, f32 bool) (float64, bool) {
	var f float64
	var exact bool
	if v.CanInt() {
		x := v.Int()
		f = float64(x)
		exact = f < 1<<63 && int64(f) == x
	} else {
		x := v.Uint()
		f = float64(x)
		exact = f < 1<<64 && uint64(f) == x
	}
	if f32 && float64(float32(f)) != f {
		exact = false
	}
	return f, exact
}

func isFloatKind(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }

// sign is -1, 0 or 1.
func sign(v reflect.Value) int {
	switch {
	case v.CanInt():
		return cmpZero(v.Int() > 0, v.Int() < 0)
	case v.CanUint():
		return cmpZero(v.Uint() > 0, false)
	default:
		return cmpZero(v.Float() > 0, v.Float() < 0)
	}
}

func cmpZero(pos, neg bool) int {
	switch {
	case pos:
		return 1
	case neg:
		return -1
	}
	return 0
}
