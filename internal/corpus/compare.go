package corpus

import (
	"errors"
	"fmt"
	"math"
	"reflect"

	"github.com/nugo-dev/nugo/cuda"
)

// Compare checks an engine's arguments after a launch (got) against the
// native run's (want): every slice and Array2/Array3 element-wise, integers
// and bools exactly, floats bit for bit or, when ulp > 0, within ulp units in
// the last place. A NaN matches any NaN: payloads are not portable (x86
// makes negative "default" NaNs where NVIDIA GPUs make a canonical positive
// one, and they propagate operands' payloads differently). It names the
// first difference.
func Compare(want, got []any, ulp int) error {
	if d := Diffs(want, got, ulp); len(d) > 0 {
		return errors.New(d[0])
	}
	return nil
}

// Diffs compares like Compare and returns one line per difference.
func Diffs(want, got []any, ulp int) []string {
	if len(want) != len(got) {
		return []string{fmt.Sprintf("%d arguments, want %d", len(got), len(want))}
	}
	var out []string
	for i := range want {
		w, g := flat(want[i]), flat(got[i])
		if !w.IsValid() {
			continue // a scalar: inputs only
		}
		if !g.IsValid() || w.Type() != g.Type() || w.Len() != g.Len() {
			out = append(out, fmt.Sprintf("argument %d: got %T of another shape, want %T", i, got[i], want[i]))
			continue
		}
		for j := 0; j < w.Len(); j++ {
			if msg := diff(w.Index(j), g.Index(j), ulp); msg != "" {
				out = append(out, fmt.Sprintf("argument %d (%T) element %d: %s", i, want[i], j, msg))
			}
		}
	}
	return out
}

// flat returns the elements of a slice or of an Array2/Array3 (through its
// Data method), or an invalid Value for scalars.
func flat(x any) reflect.Value {
	v := reflect.ValueOf(x)
	if !v.IsValid() {
		return v
	}
	if v.Kind() == reflect.Slice {
		return v
	}
	if m := v.MethodByName("Data"); m.IsValid() {
		return m.Call(nil)[0]
	}
	return reflect.Value{}
}

var float16Type = reflect.TypeFor[cuda.Float16]()

func diff(w, g reflect.Value, ulp int) string {
	if w.Type() == float16Type {
		a, b := w.Interface().(cuda.Float16), g.Interface().(cuda.Float16)
		an, bn := a.Float32() != a.Float32(), b.Float32() != b.Float32()
		if a == b || an && bn {
			return ""
		}
		if ulp > 0 && !an && !bn && ulpDiff16(a.Bits(), b.Bits()) <= uint64(ulp) {
			return ""
		}
		return fmt.Sprintf("got %v (%#04x), want %v (%#04x)", b, b.Bits(), a, a.Bits())
	}
	switch w.Kind() {
	case reflect.Float32:
		a, b := float32(w.Float()), float32(g.Float())
		if math.Float32bits(a) == math.Float32bits(b) || a != a && b != b {
			return ""
		}
		if ulp > 0 && ulpDiff32(a, b) <= uint64(ulp) {
			return ""
		}
		return fmt.Sprintf("got %v (%#x), want %v (%#x)", b, math.Float32bits(b), a, math.Float32bits(a))
	case reflect.Float64:
		a, b := w.Float(), g.Float()
		if math.Float64bits(a) == math.Float64bits(b) || a != a && b != b {
			return ""
		}
		if ulp > 0 && ulpDiff64(a, b) <= uint64(ulp) {
			return ""
		}
		return fmt.Sprintf("got %v (%#x), want %v (%#x)", b, math.Float64bits(b), a, math.Float64bits(a))
	case reflect.Complex64, reflect.Complex128:
		// Each part as a float of its precision (a NaN part matches a NaN).
		ft := reflect.TypeFor[float64]()
		if w.Kind() == reflect.Complex64 {
			ft = reflect.TypeFor[float32]()
		}
		a, b := w.Complex(), g.Complex()
		if msg := diff(reflect.ValueOf(real(a)).Convert(ft), reflect.ValueOf(real(b)).Convert(ft), ulp); msg != "" {
			return "real part: " + msg
		}
		if msg := diff(reflect.ValueOf(imag(a)).Convert(ft), reflect.ValueOf(imag(b)).Convert(ft), ulp); msg != "" {
			return "imaginary part: " + msg
		}
		return ""
	case reflect.Struct:
		for i := range w.NumField() {
			if msg := diff(w.Field(i), g.Field(i), ulp); msg != "" {
				return "field " + w.Type().Field(i).Name + ": " + msg
			}
		}
		return ""
	case reflect.Array:
		for i := range w.Len() {
			if msg := diff(w.Index(i), g.Index(i), ulp); msg != "" {
				return fmt.Sprintf("[%d]: %s", i, msg)
			}
		}
		return ""
	}
	if !reflect.DeepEqual(w.Interface(), g.Interface()) {
		return fmt.Sprintf("got %v, want %v", g.Interface(), w.Interface())
	}
	return ""
}

// ordered maps float bits to integers that are ordered like the floats.
func ordered64(x float64) int64 {
	b := int64(math.Float64bits(x))
	if b < 0 {
		b = math.MinInt64 - b
	}
	return b
}

func ulpDiff64(a, b float64) uint64 {
	if a != a || b != b {
		return math.MaxUint64
	}
	x, y := ordered64(a), ordered64(b)
	if x > y {
		return uint64(x - y)
	}
	return uint64(y - x)
}

func ulpDiff32(a, b float32) uint64 {
	if a != a || b != b {
		return math.MaxUint64
	}
	x, y := int64(math.Float32bits(a)), int64(math.Float32bits(b))
	if x >= 1<<31 {
		x = 1<<31 - x
	}
	if y >= 1<<31 {
		y = 1<<31 - y
	}
	if x > y {
		return uint64(x - y)
	}
	return uint64(y - x)
}

func ulpDiff16(a, b uint16) uint64 {
	x, y := int64(a), int64(b)
	if x >= 1<<15 {
		x = 1<<15 - x
	}
	if y >= 1<<15 {
		y = 1<<15 - y
	}
	if x > y {
		return uint64(x - y)
	}
	return uint64(y - x)
}
