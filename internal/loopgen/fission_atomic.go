package loopgen

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strconv"
)

// blockAtomics are the atomics a block loop writes as plain
// read-modify-writes (cuda.BlockAtomicAdd, ...) on the shared arrays it
// hoists: one goroutine runs the block, and the array is that goroutine's.
var blockAtomics = map[string]bool{
	"AtomicAdd": true, "AtomicSub": true, "AtomicMax": true, "AtomicMin": true,
	"AtomicExch": true, "AtomicAnd": true, "AtomicOr": true, "AtomicXor": true,
}

// localAtomics renames, in the kernel's body, the atomics on an element of
// a hoisted shared array (cuda.AtomicAdd(&sh[i], v) with sh := SharedArray
// at the top of the kernel, never assigned again) of a number type to
// their block loop forms. Atomics on anything else stay atomic.
func (f *fissioner) localAtomics() {
	shared := map[*types.Var]bool{}
	for s := range f.shared {
		id, ok := s.(*ast.AssignStmt).Lhs[0].(*ast.Ident)
		if !ok {
			continue
		}
		if v, ok := f.info.Defs[id].(*types.Var); ok && f.single[v] {
			shared[v] = true
		}
	}
	if len(shared) == 0 {
		return
	}
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		fn := f.g.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != cudaPath || !blockAtomics[fn.Name()] {
			return true
		}
		fun := ast.Unparen(call.Fun)
		switch x := fun.(type) {
		case *ast.IndexExpr:
			fun = x.X
		case *ast.IndexListExpr:
			fun = x.X
		}
		sel, ok := fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
		if !ok || addr.Op.String() != "&" {
			return true
		}
		ix, ok := ast.Unparen(addr.X).(*ast.IndexExpr)
		if !ok {
			return true
		}
		arr, ok := ast.Unparen(ix.X).(*ast.Ident)
		if !ok {
			return true
		}
		if v := f.varOf(arr); v == nil || !shared[v] {
			return true
		}
		b, ok := f.info.TypeOf(ix).Underlying().(*types.Basic)
		if !ok || b.Info()&(types.IsInteger|types.IsFloat) == 0 {
			return true
		}
		sel.Sel = &ast.Ident{NamePos: sel.Sel.NamePos, Name: "Block" + fn.Name()}
		return true
	})
}

// fixedShared reports the constant size of the hoisted shared array that
// s declares when every use of it indexes it, ranges over it or takes its
// len, so that the block loop can hold it as a pointer to an array of that
// size (*[n]T): Go then knows its length, and keeps it out of the
// registers that a slice's length takes. A sliced one stays a slice: a
// bound past an array's end is reported against its length, not the
// capacity a slice's is.
func (f *fissioner) fixedShared(s ast.Stmt) (n string, ok bool) {
	as := s.(*ast.AssignStmt)
	id, isID := as.Lhs[0].(*ast.Ident)
	if !isID {
		return "", false
	}
	v, _ := f.info.Defs[id].(*types.Var)
	if v == nil || !f.single[v] {
		return "", false
	}
	tv, found := f.info.Types[as.Rhs[0].(*ast.CallExpr).Args[1]]
	if !found || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return "", false
	}
	size, exact := constant.Int64Val(tv.Value)
	if !exact || size <= 0 {
		return "", false
	}
	ok = true
	var stack []ast.Node
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if use, isUse := n.(*ast.Ident); isUse && f.info.Uses[use] == v {
			switch p := stack[len(stack)-1].(type) {
			case *ast.IndexExpr:
				ok = ok && p.X == use
			case *ast.RangeStmt:
				ok = ok && p.X == use
			case *ast.CallExpr:
				b, isBuiltin := f.info.Uses[identOf(p.Fun)].(*types.Builtin)
				ok = ok && isBuiltin && b.Name() == "len"
			default:
				ok = false
			}
		}
		stack = append(stack, n)
		return true
	})
	return strconv.FormatInt(size, 10), ok
}

// identOf returns the identifier e is, unparenthesised, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
