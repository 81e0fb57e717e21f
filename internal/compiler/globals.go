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
		et := elem
		if a, isArr := elem.Underlying().(*types.Array); isArr {
			et = a.Elem()
		}
		var data []byte
		if cs, isC := complexPart(et); isC {
			// A complex table: real and imaginary parts in turn.
			for _, c := range vals {
				if c == nil {
					data = appendConst(appendConst(data, cs, nil), cs, nil)
					continue
				}
				data = appendConst(appendConst(data, cs, constant.Real(c)), cs, constant.Imag(c))
			}
		} else {
			s := f.scalar(et)
			data = make([]byte, 0, len(vals)*s.size())
			for _, c := range vals {
				data = appendConst(data, s, c)
			}
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
