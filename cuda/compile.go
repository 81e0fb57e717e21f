package cuda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// target is the compiler target for this kernel on a device of compute
// capability sm (75, 90, ...).
func (k *Kernel) target(sm int) compiler.Target {
	return compiler.Target{SM: sm, Debug: k.opts&Debug != 0, FastMath: k.opts&FastMath != 0}
}

// module returns the kernel compiled to PTX for target, compiling it on
// first use; the result is cached per target.
func (k *Kernel) module(target compiler.Target) (*compiler.Module, error) {
	c, err := k.compiledFor(target, func() (any, error) {
		fk, err := frontend.LoadFunc(k.fn.Interface())
		if err != nil {
			return nil, compileError(k.name, err)
		}
		m, err := compiler.Compile(fk, target)
		if err != nil {
			return nil, compileError(k.name, err)
		}
		return m, nil
	})
	if err != nil {
		return nil, err
	}
	return c.(*compiler.Module), nil
}

// PTX returns the kernel's PTX for a device of compute capability sm (75
// for sm_75, 90 for sm_90; 0 means 75), compiling it if needed.
func (k *Kernel) PTX(sm int) (string, error) {
	if k.err != nil {
		return "", k.err
	}
	m, err := k.module(k.target(sm))
	if err != nil {
		return "", err
	}
	return m.PTX, nil
}

// compileError turns the front end's and compiler's positioned errors into
// a *CompileError; other errors are wrapped with the kernel's name.
func compileError(kernel string, err error) error {
	var fe *frontend.Error
	if errors.As(err, &fe) {
		ce := &CompileError{Kernel: kernel}
		for _, d := range fe.Diags {
			pos := ""
			if d.Pos.IsValid() {
				pos = d.Pos.String()
			}
			ce.Diagnostics = append(ce.Diagnostics, Diagnostic{Pos: pos, Msg: d.Msg})
		}
		return ce
	}
	return fmt.Errorf("compile %s: %w", kernel, err)
}

// packParams lays the launch's arguments out as the PTX entry's parameter
// buffer: each PTX parameter at its offset, little-endian. addrs[i] is the
// device address of argument i when it is a slice or an array.
func packParams(m *compiler.Module, args []boundArg, addrs []uint64) ([]byte, error) {
	if len(m.Params) != len(args) {
		return nil, fmt.Errorf("compiled kernel has %d parameters, launch has %d arguments", len(m.Params), len(args))
	}
	buf := make([]byte, m.ParamBytes)
	for i, p := range m.Params {
		a := args[i]
		dims := argDims(a)
		n := 1
		for _, d := range dims {
			n *= d
		}
		for _, pp := range p.PTX {
			var v uint64
			switch pp.Role {
			case "value":
				bits, err := scalarBits(a.value)
				if err != nil {
					return nil, fmt.Errorf("%v: %w", a.param, err)
				}
				v = bits
			case "ptr":
				v = addrs[i]
			case "len", "cap":
				v = uint64(n)
			case "rows", "d0":
				v = uint64(dims[0])
			case "cols", "d1":
				v = uint64(dims[1])
			case "d2":
				v = uint64(dims[2])
			default:
				return nil, fmt.Errorf("parameter %s: unknown role %q", pp.Name, pp.Role)
			}
			if pp.Offset+pp.Size > len(buf) {
				return nil, fmt.Errorf("parameter %s lies outside the %d-byte buffer", pp.Name, len(buf))
			}
			var word [8]byte
			binary.LittleEndian.PutUint64(word[:], v)
			copy(buf[pp.Offset:pp.Offset+pp.Size], word[:pp.Size])
		}
	}
	return buf, nil
}

// argDims is the shape of a slice or array argument (a slice's length as
// its only dimension).
func argDims(a boundArg) []int {
	switch {
	case a.dev != nil:
		if a.param.kind == arrayParam {
			return a.dev.dims()
		}
		n := 1
		for _, d := range a.dev.dims() {
			n *= d
		}
		return []int{n}
	case a.param.kind == arrayParam:
		return a.value.Interface().(ndArray).shape()
	case a.param.kind == sliceParam:
		return []int{a.value.Len()}
	}
	return nil
}

// hostBytes is the memory of a host slice or array argument.
func hostBytes(a boundArg) []byte {
	v := a.value
	if a.param.kind == arrayParam {
		v = v.Interface().(ndArray).flat()
	}
	n := v.Len() * int(v.Type().Elem().Size())
	if n == 0 {
		return nil
	}
	return reflect.SliceAt(reflect.TypeFor[byte](), v.UnsafePointer(), n).Interface().([]byte)
}

// scalarBits is a scalar argument's value as the bits of its PTX parameter.
func scalarBits(v reflect.Value) (uint64, error) {
	switch {
	case v.Kind() == reflect.Bool:
		if v.Bool() {
			return 1, nil
		}
		return 0, nil
	case v.CanInt():
		return uint64(v.Int()), nil
	case v.CanUint():
		return v.Uint(), nil
	case v.Kind() == reflect.Float32:
		return uint64(math.Float32bits(float32(v.Float()))), nil
	case v.Kind() == reflect.Float64:
		return math.Float64bits(v.Float()), nil
	}
	return 0, fmt.Errorf("cannot pass %s as a scalar", v.Type())
}
