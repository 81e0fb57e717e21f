package compiler

import (
	"fmt"
	"go/types"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// scalar is the machine kind of one leaf of a lowered value.
type scalar int

const (
	sBool scalar = iota
	sI8
	sI16
	sI32
	sI64
	sU8
	sU16
	sU32
	sU64
	sF32
	sF64
	sPtr
	sF16 // cuda.Float16: IEEE binary16 bits in a .b16 register
)

var scalarInfo = [...]struct {
	class  ptx.RegClass
	mem    string // type of ld/st
	op     string // type of arithmetic
	size   int
	signed bool
	name   string
}{
	sBool: {ptx.Pred, ".u8", ".pred", 1, false, "bool"},
	sI8:   {ptx.B32, ".s8", ".s32", 1, true, "int8"},
	sI16:  {ptx.B32, ".s16", ".s32", 2, true, "int16"},
	sI32:  {ptx.B32, ".s32", ".s32", 4, true, "int32"},
	sI64:  {ptx.B64, ".s64", ".s64", 8, true, "int64"},
	sU8:   {ptx.B32, ".u8", ".u32", 1, false, "uint8"},
	sU16:  {ptx.B32, ".u16", ".u32", 2, false, "uint16"},
	sU32:  {ptx.B32, ".u32", ".u32", 4, false, "uint32"},
	sU64:  {ptx.B64, ".u64", ".u64", 8, false, "uint64"},
	sF32:  {ptx.F32, ".f32", ".f32", 4, false, "float32"},
	sF64:  {ptx.F64, ".f64", ".f64", 8, false, "float64"},
	sPtr:  {ptx.B64, ".u64", ".u64", 8, false, "pointer"},
	sF16:  {ptx.B16, ".b16", ".f16", 2, false, "cuda.Float16"},
}

func (s scalar) class() ptx.RegClass { return scalarInfo[s].class }
func (s scalar) mem() string         { return scalarInfo[s].mem }
func (s scalar) op() string          { return scalarInfo[s].op }
func (s scalar) size() int           { return scalarInfo[s].size }
func (s scalar) signed() bool        { return scalarInfo[s].signed }
func (s scalar) isFloat() bool       { return s == sF32 || s == sF64 }
func (s scalar) isInt() bool         { return s >= sI8 && s <= sU64 }
func (s scalar) is64() bool          { return s.class() == ptx.B64 || s == sF64 }
func (s scalar) small() bool         { return s == sI8 || s == sI16 || s == sU8 || s == sU16 }

// bits returns the operand type of bitwise instructions (.b32, .b64).
func (s scalar) bits() string {
	if s.is64() {
		return ".b64"
	}
	return ".b32"
}

// movType is the type of mov for the scalar's register class.
func (s scalar) movType() string {
	switch s.class() {
	case ptx.Pred:
		return ".pred"
	case ptx.F32:
		return ".f32"
	case ptx.F64:
		return ".f64"
	case ptx.B64:
		return ".b64"
	case ptx.B16:
		return ".b16"
	}
	return ".b32"
}

// basicScalar maps a basic type to its scalar kind.
func basicScalar(b *types.Basic) (scalar, bool) {
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return sBool, true
	case types.Int8:
		return sI8, true
	case types.Int16:
		return sI16, true
	case types.Int32, types.UntypedRune:
		return sI32, true
	case types.Int, types.Int64, types.UntypedInt:
		return sI64, true
	case types.Uint8:
		return sU8, true
	case types.Uint16:
		return sU16, true
	case types.Uint32:
		return sU32, true
	case types.Uint, types.Uint64, types.Uintptr:
		return sU64, true
	case types.Float32:
		return sF32, true
	case types.Float64, types.UntypedFloat:
		return sF64, true
	}
	return 0, false
}

// complexPart returns the scalar kind of each half of a complex type
// (sF32 for complex64, sF64 for complex128): a complex value is held as two
// float registers, real then imaginary, laid out in memory as Go does.
func complexPart(t types.Type) (scalar, bool) {
	if b, ok := t.Underlying().(*types.Basic); ok {
		switch b.Kind() {
		case types.Complex64:
			return sF32, true
		case types.Complex128, types.UntypedComplex:
			return sF64, true
		}
	}
	return 0, false
}

// scalarOf returns the scalar kind of a type with one leaf.
func scalarOf(t types.Type) (scalar, error) {
	if isFloat16(t) {
		return sF16, nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if s, ok := basicScalar(u); ok {
			return s, nil
		}
	case *types.Pointer:
		return sPtr, nil
	}
	return 0, fmt.Errorf("type %s is not a scalar", t)
}

// leaves flattens a type into its scalar leaves.
func leaves(t types.Type) ([]scalar, error) {
	var out []scalar
	var walk func(t types.Type) error
	walk = func(t types.Type) error {
		if isFloat16(t) {
			out = append(out, sF16)
			return nil
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if c, ok := complexPart(u); ok {
				out = append(out, c, c)
				return nil
			}
			s, ok := basicScalar(u)
			if !ok {
				return fmt.Errorf("values of type %s are not supported in kernels", t)
			}
			out = append(out, s)
		case *types.Pointer:
			out = append(out, sPtr)
		case *types.Slice:
			out = append(out, sPtr, sI64, sI64)
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if err := walk(u.Field(i).Type()); err != nil {
					return err
				}
			}
		case *types.Array:
			for i := int64(0); i < u.Len(); i++ {
				if err := walk(u.Elem()); err != nil {
					return err
				}
			}
		case *types.Tuple:
			for i := 0; i < u.Len(); i++ {
				if err := walk(u.At(i).Type()); err != nil {
					return err
				}
			}
		default:
			return fmt.Errorf("values of type %s are not supported in kernels", t)
		}
		return nil
	}
	if tup, ok := t.(*types.Tuple); ok {
		for i := 0; i < tup.Len(); i++ {
			if err := walk(tup.At(i).Type()); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	err := walk(t)
	return out, err
}

// sizes is Go's layout on 64-bit targets, which kernels' memory follows.
var sizes = types.SizesFor("gc", "amd64")

// leafOffsets returns the byte offset of each leaf of t in memory.
func leafOffsets(t types.Type) []int64 {
	var out []int64
	var walk func(t types.Type, base int64)
	walk = func(t types.Type, base int64) {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if c, ok := complexPart(u); ok {
				out = append(out, base, base+int64(c.size()))
				return
			}
			out = append(out, base)
		case *types.Slice:
			out = append(out, base, base+8, base+16)
		case *types.Struct:
			fields := make([]*types.Var, u.NumFields())
			for i := range fields {
				fields[i] = u.Field(i)
			}
			offs := sizes.Offsetsof(fields)
			for i, f := range fields {
				walk(f.Type(), base+offs[i])
			}
		case *types.Array:
			es := sizes.Sizeof(u.Elem())
			for i := int64(0); i < u.Len(); i++ {
				walk(u.Elem(), base+i*es)
			}
		default:
			out = append(out, base)
		}
	}
	walk(t, 0)
	return out
}

// fieldLeafRange returns the range [lo, hi) of leaves of field i of struct st.
func fieldLeafRange(st *types.Struct, field int) (int, int, error) {
	lo := 0
	for i := 0; i < field; i++ {
		l, err := leaves(st.Field(i).Type())
		if err != nil {
			return 0, 0, err
		}
		lo += len(l)
	}
	l, err := leaves(st.Field(field).Type())
	return lo, lo + len(l), err
}
