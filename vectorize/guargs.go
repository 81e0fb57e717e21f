package vectorize

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
)

// bind checks argument a against operand k.
func (g *GUfunc) bind(k int, a any) (guArg, error) {
	p := g.ops[k]
	v := reflect.ValueOf(a)
	var b guArg
	switch {
	case !v.IsValid():
		return b, errors.New("got nil")
	case v.Type() == reflect.SliceOf(p.elem):
		b.data, b.shape = v, []int{v.Len()}
	case p.info != nil && (v.Type() == p.info.array || v.Type() == p.info.array2 || v.Type() == p.info.array3):
		b.data, b.shape, _ = p.info.parts(a)
		if _, ok := checkedSize(b.shape); !ok {
			if slices.ContainsFunc(b.shape, func(d int) bool { return d < 0 }) {
				return b, fmt.Errorf("negative dimension in shape %s: %w", shapeString(b.shape), ErrShape)
			}
			return b, tooLarge(b.shape)
		}
		if n := size(b.shape); b.data.Len() != n {
			return b, fmt.Errorf("%d elements for shape %s: %w", b.data.Len(), shapeString(b.shape), ErrShape)
		}
	case p.info != nil && v.Type() == p.info.device:
		if v.IsNil() {
			return b, errors.New("got a nil device array")
		}
		b.dev = a
		b.shape = v.MethodByName("Shape").Call(nil)[0].Interface().([]int)
	case isElement(v.Type()) && p.rank() == 0 && !p.out:
		c, err := convertNumber(v, p.elem)
		if err != nil {
			return b, err
		}
		b.data = reflect.MakeSlice(reflect.SliceOf(p.elem), 1, 1)
		b.data.Index(0).Set(c)
		b.shape = []int{}
	default:
		want := fmt.Sprintf("a []%[1]s, vectorize.Array[%[1]s], cuda.Array2[%[1]s], cuda.Array3[%[1]s] or *cuda.DeviceArray[%[1]s]", p.elem)
		if p.rank() == 0 && !p.out {
			want += " or a number"
		}
		return b, fmt.Errorf("got %s; pass %s", v.Type(), want)
	}
	r := p.rank()
	if len(b.shape) < r {
		return b, fmt.Errorf("shape %s has fewer than the %d core dimensions: %w", shapeString(b.shape), r, ErrShape)
	}
	b.loop, b.core = b.shape[:len(b.shape)-r], b.shape[len(b.shape)-r:]
	return b, nil
}

// convertNumber converts v to type to if no information is lost.
func convertNumber(v reflect.Value, to reflect.Type) (reflect.Value, error) {
	if v.Type() == to {
		return v, nil
	}
	if to.Kind() == reflect.Complex64 || to.Kind() == reflect.Complex128 {
		if v.CanInt() || v.CanUint() || v.CanFloat() {
			// A real number is a complex one with imaginary part 0, as
			// NumPy casts it: through float64, which must hold it.
			f, err := convertNumber(v, reflect.TypeFor[float64]())
			if err != nil {
				return reflect.Value{}, err
			}
			v = reflect.ValueOf(complex(f.Float(), 0))
		}
	}
	if !v.CanConvert(to) {
		return reflect.Value{}, fmt.Errorf("cannot convert %s to %s", v.Type(), to)
	}
	c := v.Convert(to)
	back := c.Convert(v.Type())
	lossless := back.Equal(v)
	if v.CanFloat() && math.IsNaN(v.Float()) {
		lossless = true
	}
	if v.CanComplex() {
		// NaN parts stay NaN (as a NaN float does); the others must survive.
		z, bz := v.Complex(), back.Complex()
		lossless = sameOrNaN(real(z), real(bz)) && sameOrNaN(imag(z), imag(bz))
	}
	if (v.CanInt() && v.Int() < 0) && (c.CanUint()) {
		lossless = false
	}
	if v.CanUint() && c.CanInt() && c.Int() < 0 {
		lossless = false
	}
	if !lossless {
		return reflect.Value{}, fmt.Errorf("%v (%s) does not convert to %s without loss", v, v.Type(), to)
	}
	return c, nil
}

// sameOrNaN reports whether a and b are equal or both NaN.
func sameOrNaN(a, b float64) bool { return a == b || a != a && b != b }

// coreSizes binds each core dimension name to its size, from the first
// n arguments.
func (g *GUfunc) coreSizes(args []guArg, n int) map[string]int {
	dims := map[string]int{}
	for k := range n {
		for i, d := range g.ops[k].dims {
			if _, ok := dims[d]; !ok {
				dims[d] = args[k].core[i]
			}
		}
	}
	return dims
}

// shapes checks the core dimensions of the first n arguments and the loop
// shapes, and returns the broadcast loop shape.
func (g *GUfunc) shapes(args []guArg, n int) ([]int, error) {
	nin := len(g.lay.ins)
	type seen struct{ size, arg int }
	dims := map[string]seen{}
	for k := range n {
		for i, d := range g.ops[k].dims {
			s, ok := dims[d]
			if !ok {
				dims[d] = seen{args[k].core[i], k}
				continue
			}
			if s.size != args[k].core[i] {
				return nil, g.cfg.errorf("core dimension %s is %d in argument %d (shape %s) but %d in argument %d (shape %s): %w",
					d, s.size, s.arg+1, shapeString(args[s.arg].shape), args[k].core[i], k+1, shapeString(args[k].shape), ErrShape)
			}
		}
	}
	loops := make([][]int, 0, nin)
	for k := range min(n, nin) {
		loops = append(loops, args[k].loop)
	}
	loop, err := broadcast(loops...)
	if err != nil {
		return nil, g.cfg.errorf("loop dimensions: %w", err)
	}
	if _, ok := checkedSize(loop); !ok {
		return nil, g.cfg.errorf("loop dimensions: %w", tooLarge(loop))
	}
	for k := nin; k < n; k++ {
		if !equalShape(args[k].loop, loop) {
			return nil, g.cfg.errorf("output %d has loop dimensions %s (shape %s), but the inputs' loop dimensions broadcast to %s: %w",
				k-nin+1, shapeString(args[k].loop), shapeString(args[k].shape), shapeString(loop), ErrShape)
		}
	}
	return loop, nil
}
