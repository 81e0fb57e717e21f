package compiler

import (
	"encoding/binary"
	"fmt"
	"go/constant"
	"go/types"
	"math"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/nugo-dev/nugo/internal/ptx"
)

// globalTable returns a register holding the address of a read-only table
// (a package-level variable initialized with constants), emitting the table
// as initialized .global data on first use.
func (f *fnState) globalTable(g *ssa.Global) string {
	sym, ok := f.m.tables[g]
	if !ok {
		v, _ := g.Object().(*types.Var)
		var vals []constant.Value
		if v != nil {
			vals, ok = f.m.tableInit(v)
		}
		if !ok {
			f.errorf("cannot use package-level variable %s in a kernel; pass it as a parameter or declare a constant", g.Name())
		}
		elem := g.Type().(*types.Pointer).Elem()
		data := make([]byte, sizes.Sizeof(elem))
		if rest := f.tableBytes(data, elem, vals); len(rest) != 0 {
			f.errorf("table %s: %d initial values left over", g.Name(), len(rest))
		}
		sym = f.m.symbol("__nugo_tbl_" + sanitize(g.Name()))
		f.m.tables[g] = sym
		var b strings.Builder
		fmt.Fprintf(&b, ".global .align 8 .b8 %s[%d] = {", sym, len(data))
		for i, c := range data {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprint(&b, c)
		}
		b.WriteString("};")
		f.m.mod.Globals = append(f.m.mod.Globals, b.String())
	}
	r := f.p.NewReg(ptx.B64).String()
	f.p.Emit("mov.u64", r, sym)
	return r
}

// tableBytes writes the leaves of a value of type t, taken from vals in
// memory order, into data (t's memory, laid out as Go lays it out: n-d
// arrays and arrays of structs, padding zero) and returns the values left.
func (f *fnState) tableBytes(data []byte, t types.Type, vals []constant.Value) []constant.Value {
	switch u := t.Underlying().(type) {
	case *types.Array:
		es := sizes.Sizeof(u.Elem())
		for i := range u.Len() {
			vals = f.tableBytes(data[i*es:], u.Elem(), vals)
		}
		return vals
	case *types.Struct:
		fields := make([]*types.Var, u.NumFields())
		for i := range fields {
			fields[i] = u.Field(i)
		}
		offs := sizes.Offsetsof(fields)
		for i, fd := range fields {
			vals = f.tableBytes(data[offs[i]:], fd.Type(), vals)
		}
		return vals
	}
	if len(vals) == 0 {
		f.errorf("table of type %s: too few initial values", t)
	}
	c := vals[0]
	if cs, isC := complexPart(t); isC {
		var re, im constant.Value
		if c != nil {
			re, im = constant.Real(c), constant.Imag(c)
		}
		copy(data, appendConst(appendConst(nil, cs, re), cs, im))
	} else {
		copy(data, appendConst(nil, f.scalar(t), c))
	}
	return vals[1:]
}

func appendConst(b []byte, s scalar, c constant.Value) []byte {
	var bits uint64
	if c != nil {
		switch {
		case s == sF64:
			x, _ := constant.Float64Val(constant.ToFloat(c))
			bits = math.Float64bits(x)
		case s == sF32:
			x, _ := constant.Float32Val(constant.ToFloat(c))
			bits = uint64(math.Float32bits(x))
		case s == sBool:
			if constant.BoolVal(c) {
				bits = 1
			}
		default:
			ic := constant.ToInt(c)
			if x, ok := constant.Int64Val(ic); ok {
				bits = uint64(x)
			} else {
				bits, _ = constant.Uint64Val(ic)
			}
		}
	}
	var w [8]byte
	binary.LittleEndian.PutUint64(w[:], bits)
	return append(b, w[:s.size()]...)
}
