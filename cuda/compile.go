package cuda

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// target is the compiler target for this kernel on a device of compute
// capability sm (75, 90, ...).
func (k *Kernel) target(sm int) compiler.Target {
	f := k.opts.Flags
	return compiler.Target{SM: sm, Debug: f&Debug != 0, FastMath: f&FastMath != 0, LineInfo: f&LineInfo != 0, MaxRegisters: k.opts.MaxRegisters,
		MaxThreads: k.opts.MaxThreads, MinBlocksPerSM: k.opts.MinBlocksPerSM}
}

// minSM is the oldest compute capability PTX's .target can name for the
// PTX ISA version nugo writes (sm_50 for PTX 7.8); smaller numbers are
// not GPUs nugo can compile for.
const minSM = 50

// moduleKey keys a compiled module in Kernel.compiled: the target and
// the identities of the functions passed for func parameters.
type moduleKey struct {
	target compiler.Target
	funcs  string
}

// funcsKey identifies the functions of a launch's func arguments: entry
// point and type of each (a generic function's instantiations have
// different entry points). It is "" for a kernel without func parameters.
func funcsKey(args []boundArg) string {
	var b strings.Builder
	for _, a := range args {
		if a.param.kind != funcParam {
			continue
		}
		pc := a.value.Pointer()
		name := "?"
		if rf := runtime.FuncForPC(pc); rf != nil {
			pc, name = rf.Entry(), rf.Name()
		}
		fmt.Fprintf(&b, "%d=%s@%#x:%s;", a.param.index, name, pc, a.value.Type())
	}
	return b.String()
}

// module returns the kernel compiled to PTX for target and the functions
// of args' func arguments, compiling it on first use; the result is cached
// per target and functions.
func (k *Kernel) module(target compiler.Target, args []boundArg) (*compiler.Module, error) {
	c, err := k.compiledFor(moduleKey{target, funcsKey(args)}, func() (any, error) {
		fk, err := frontend.LoadFunc(k.fn.Interface())
		if err != nil {
			return nil, compileError(k.name, err)
		}
		var bound map[int]*frontend.Kernel
		for i, a := range args {
			if a.param.kind != funcParam {
				continue
			}
			d, err := frontend.LoadDevice(a.value.Interface())
			if err != nil {
				return nil, compileError(k.name, fmt.Errorf("%v: %w", a.param, err))
			}
			if bound == nil {
				bound = map[int]*frontend.Kernel{}
			}
			bound[i] = d
		}
		m, err := compiler.CompileBound(fk, target, bound)
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

// checkSource loads and checks the kernel's source without compiling it:
// what Compile does for a kernel with func parameters, which is compiled
// at launch for the functions passed.
func (k *Kernel) checkSource() error {
	if _, err := frontend.LoadFunc(k.fn.Interface()); err != nil {
		return compileError(k.name, err)
	}
	return nil
}

// PTX returns the kernel's PTX for a device of compute capability sm (75
// for sm_75, 90 for sm_90; 0 means 75), compiling it if needed. A kernel
// with func parameters is compiled for the functions given in funcs, one
// per func parameter in order, as a launch passing them would compile it.
func (k *Kernel) PTX(sm int, funcs ...any) (string, error) {
	if err := k.usable(); err != nil {
		return "", err
	}
	if sm != 0 && sm < minSM {
		return "", fmt.Errorf("kernel %s: PTX for compute capability %d; the PTX nugo writes targets %d (sm_%d) and later", k.name, sm, minSM, minSM)
	}
	args, err := k.bindFuncs("PTX", funcs)
	if err != nil {
		return "", err
	}
	m, err := k.module(k.target(sm), args)
	if err != nil {
		return "", err
	}
	return m.PTX, nil
}

// bindFuncs binds funcs, one per func parameter in order, as a launch
// passing them would, for what (PTX, MaxCooperativeBlocks) compiles the
// kernel without launching it. The other parameters get no value.
func (k *Kernel) bindFuncs(what string, funcs []any) ([]boundArg, error) {
	var args []boundArg
	n := 0
	for i := range k.params {
		p := &k.params[i]
		if p.kind != funcParam {
			args = append(args, boundArg{param: p})
			continue
		}
		if n >= len(funcs) {
			return nil, fmt.Errorf("kernel %s: %v: %s needs a function for each func parameter (got %d)", k.name, p, what, len(funcs))
		}
		b, err := bindArg(nil, p, funcs[n])
		if err != nil {
			return nil, fmt.Errorf("kernel %s: %v: %w", k.name, p, err)
		}
		args = append(args, b)
		n++
	}
	if n != len(funcs) {
		return nil, fmt.Errorf("kernel %s has %d func parameters, got %d functions", k.name, n, len(funcs))
	}
	return args, nil
}

// compileError turns the front end's and compiler's positioned errors into
// a *CompileError; other errors are wrapped with the kernel's name.
func compileError(kernel string, err error) error {
	var fe *frontend.Error
	if errors.As(err, &fe) {
		ce := &CompileError{Kernel: kernel}
		// Context added around the positioned error (the argument a
		// function was bound to) leads its first message.
		prefix := strings.TrimSuffix(strings.TrimSuffix(err.Error(), fe.Error()), ": ")
		for i, d := range fe.Diags {
			pos := ""
			if d.Pos.IsValid() {
				pos = d.Pos.String()
			}
			msg := d.Msg
			if i == 0 && prefix != "" && prefix != err.Error() {
				msg = prefix + ": " + msg
			}
			ce.Diagnostics = append(ce.Diagnostics, Diagnostic{Pos: pos, Msg: msg})
		}
		return ce
	}
	return fmt.Errorf("compile %s: %w", kernel, err)
}

// packParams lays the launch's arguments out as the PTX entry's parameter
// buffer: each PTX parameter at its offset, little-endian. addrs[i] is the
// device address of argument i when it is a slice or an array.
func packParams(m *compiler.Module, args []boundArg, addrs []uint64) ([]byte, error) {
	if len(m.Params)+len(m.FuncParams) != len(args) {
		return nil, fmt.Errorf("compiled kernel has %d parameters, launch has %d arguments", len(m.Params)+len(m.FuncParams), len(args))
	}
	buf := make([]byte, m.ParamBytes)
	for _, p := range m.Params {
		// Func arguments have no PTX parameters: the module calls them.
		i := p.Arg
		if i < 0 || i >= len(args) || args[i].param.kind == funcParam {
			return nil, fmt.Errorf("compiled parameter %s is not launch argument %d", p.Name, i+1)
		}
		a := args[i]
		dims := argDims(a)
		n := 1
		for _, d := range dims {
			n *= d
		}
		// An array's first element and strides; len and cap are its span.
		first, strides := 0, rowMajor(dims)
		switch {
		case a.param.kind != arrayParam:
		case a.dev != nil:
			if n > 0 {
				first, strides = a.dev.layout()
				n = a.dev.spanBytes() / int(a.param.elem.Size())
			}
		default:
			arr := a.value.Interface().(ndArray)
			first, strides = arr.layout()
			n = arr.flat().Len()
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
			case "real", "imag":
				v = complexPartBits(a.value, pp.Role == "imag", pp.Size)
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
			case "bytes":
				if pp.Offset+pp.Size > len(buf) || pp.Size != int(a.value.Type().Size()) {
					return nil, fmt.Errorf("parameter %s: %d bytes at %d for a %d-byte %s in a %d-byte buffer", pp.Name, pp.Size, pp.Offset, a.value.Type().Size(), a.value.Type(), len(buf))
				}
				copy(buf[pp.Offset:], valueBytes(a.value))
				continue
			case "off":
				v = uint64(first)
			case "s0", "s1", "s2":
				v = uint64(strides[pp.Role[1]-'0'])
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

// rowMajor is the row-major strides of shape, in elements.
func rowMajor(shape []int) []int {
	st := make([]int, len(shape))
	n := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = n
		n *= shape[i]
	}
	return st
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

// valueBytes is the memory of an array or struct argument passed by value,
// as Go lays it out (a copy).
func valueBytes(v reflect.Value) []byte {
	n := int(v.Type().Size())
	if n == 0 {
		return nil
	}
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	return reflect.SliceAt(reflect.TypeFor[byte](), p.UnsafePointer(), n).Interface().([]byte)
}

// complexPartBits is the real or imaginary part of a complex scalar
// argument as the bits of its PTX parameter (.f32 for complex64, .f64 for
// complex128).
func complexPartBits(v reflect.Value, imaginary bool, size int) uint64 {
	c := v.Complex()
	x := real(c)
	if imaginary {
		x = imag(c)
	}
	if size == 4 {
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

// scalarBits is a scalar argument's value as the bits of its PTX parameter.
func scalarBits(v reflect.Value) (uint64, error) {
	switch {
	case v.Type() == float16Type:
		return uint64(v.Interface().(Float16).bits), nil
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

// ptxArgs drops the func arguments, which have no PTX parameters, from a
// launch's argument values: one value per entry of m.Params remains, for
// backends that pack m.Params from Go values (ptxsim).
func ptxArgs(m *compiler.Module, args []reflect.Value) []reflect.Value {
	if len(m.FuncParams) == 0 {
		return args
	}
	out := make([]reflect.Value, 0, len(m.Params))
	for _, p := range m.Params {
		out = append(out, args[p.Arg])
	}
	return out
}
