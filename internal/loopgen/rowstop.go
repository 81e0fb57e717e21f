package loopgen

import (
	"go/ast"
	"go/types"
)

// A row loop checks, after each thread, whether the thread made its block's
// threads concurrent (SyncThreads, its reducing forms, the warp operations
// and SyncGrid do), and then stops: the rest of the block runs as
// goroutines. For a kernel that can reach none of them the check is a load
// and a branch per thread for nothing, which in a kernel as short as a
// vector add is a good part of its time; such a kernel's loop starts with
// Row.Start, which leaves the check out (and makes the CPU backend fail the
// launch, instead of running threads twice, if the kernel reaches one
// after all).

// mayStop reports whether the kernel fd may make its block concurrent: it
// calls a collective operation, directly or through the package's
// functions, or may hand its Thread to code this package does not show: a
// call of another package's function (other than cuda's own, which are
// known), of a func value or of an interface method with an argument or
// receiver whose type holds a cuda.Thread.
func (g *generator) mayStop(fd *ast.FuncDecl) bool {
	if g.stopping == nil {
		g.stopping = map[*types.Func]int{}
	}
	fn, _ := g.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || fd.Body == nil {
		return true
	}
	return g.funcMayStop(fn)
}

// funcMayStop is mayStop of one function of the package, memoised in
// g.stopping (1 being visited, 2 no, 3 yes). A function that calls itself
// back, through a cycle, adds nothing to the cycle's answer.
func (g *generator) funcMayStop(fn *types.Func) bool {
	switch g.stopping[fn] {
	case 1, 2:
		return false
	case 3:
		return true
	}
	g.stopping[fn] = 1
	found := false
	ast.Inspect(g.packageFuncs()[fn].Body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			// Called or not (a method value called later), a
			// collective operation or a function of the package that
			// may reach one.
			if k, _ := g.collective(&ast.CallExpr{Fun: n}); k != collNone {
				found = true
			} else if c, ok := g.pkg.TypesInfo.Uses[n].(*types.Func); ok && g.packageFuncs()[c.Origin()] != nil {
				found = g.funcMayStop(c.Origin())
			}
		case *ast.CallExpr:
			found = g.callMayStop(n)
		}
		return !found
	})
	g.stopping[fn] = 2
	if found {
		g.stopping[fn] = 3
	}
	return found
}

// callMayStop reports whether a call of code the package does not show
// (another package's, a func value, an interface method) may make the block
// concurrent; the identifiers and calls in the call are visited on their
// own.
func (g *generator) callMayStop(call *ast.CallExpr) bool {
	info := g.pkg.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false // a conversion or a builtin
	}
	if c := g.callee(call); c != nil {
		if c.Pkg() != nil && c.Pkg().Path() == cudaPath || g.packageFuncs()[c.Origin()] != nil {
			return false // known: its identifier is visited on its own
		}
	}
	// Code this package does not show: it may synchronise if it can
	// reach a Thread.
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil {
			if holdsThread(s.Recv(), nil) {
				return true
			}
			if types.IsInterface(s.Recv()) && g.methodMayStop(sel.Sel.Name) {
				return true // one of the package's types may implement it
			}
		}
	}
	if holdsThread(info.TypeOf(call.Fun), nil) {
		return true // a func value, or a method value, that takes a Thread
	}
	for _, a := range call.Args {
		if holdsThread(info.TypeOf(a), nil) {
			return true
		}
	}
	return false
}

// methodMayStop reports whether a method of the package named name may
// make the block concurrent: an interface method call may run it.
func (g *generator) methodMayStop(name string) bool {
	for fn := range g.packageFuncs() {
		if fn.Name() == name && fn.Type().(*types.Signature).Recv() != nil && g.funcMayStop(fn) {
			return true
		}
	}
	return false
}

// holdsThread reports whether a value of type t may hold a cuda.Thread:
// t is Thread or is made of types one of which is. seen breaks cycles of
// named types.
func holdsThread(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return false
	}
	if seen[t] {
		return false
	}
	if isNamed(t, cudaPath, "Thread") {
		return true
	}
	if seen == nil {
		seen = map[types.Type]bool{}
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		return holdsThread(t.Underlying(), seen)
	case *types.Alias:
		return holdsThread(types.Unalias(t), seen)
	case *types.Pointer:
		return holdsThread(t.Elem(), seen)
	case *types.Slice:
		return holdsThread(t.Elem(), seen)
	case *types.Array:
		return holdsThread(t.Elem(), seen)
	case *types.Map:
		return holdsThread(t.Key(), seen) || holdsThread(t.Elem(), seen)
	case *types.Chan:
		return holdsThread(t.Elem(), seen)
	case *types.Struct:
		for f := range t.Fields() {
			if holdsThread(f.Type(), seen) {
				return true
			}
		}
	case *types.Signature:
		for v := range t.Params().Variables() {
			if holdsThread(v.Type(), seen) {
				return true
			}
		}
		for v := range t.Results().Variables() {
			if holdsThread(v.Type(), seen) {
				return true
			}
		}
	case *types.Tuple:
		for v := range t.Variables() {
			if holdsThread(v.Type(), seen) {
				return true
			}
		}
	case *types.TypeParam:
		return termsHoldThread(t.Constraint(), seen)
	}
	return false
}

// termsHoldThread reports whether a type argument that satisfies
// constraint may hold a Thread: the constraint allows any type (it lists
// methods only), or one of its terms holds one.
func termsHoldThread(constraint types.Type, seen map[types.Type]bool) bool {
	iface, ok := constraint.Underlying().(*types.Interface)
	if !ok || iface.IsMethodSet() {
		return true
	}
	for e := range iface.EmbeddedTypes() {
		switch e := e.(type) {
		case *types.Union:
			for i := range e.Len() {
				if holdsThread(e.Term(i).Type(), seen) {
					return true
				}
			}
		default:
			if _, ok := e.Underlying().(*types.Interface); ok {
				if termsHoldThread(e, seen) {
					return true
				}
			} else if holdsThread(e, seen) {
				return true
			}
		}
	}
	return false
}

// How a row loop starts: Row.Begin (it checks the stop flag), Row.Start
// (the kernel cannot make its block concurrent) or Row.StartGrid1 (that,
// and the kernel reads nothing of its Thread but Grid1, so that the CPU
// backend may run a worker's run of one-dimensional blocks as one row).
type rowStart int

const (
	rowBegin rowStart = iota
	rowStartPlain
	rowStartGrid1
)

// rowStartOf returns how the row loop of the kernel fd starts.
func (g *generator) rowStartOf(fd *ast.FuncDecl) rowStart {
	switch {
	case g.mayStop(fd):
		return rowBegin
	case g.onlyGrid1(fd):
		return rowStartGrid1
	}
	return rowStartPlain
}

// onlyGrid1 reports whether the kernel fd uses its Thread parameter only
// as the receiver of t.Grid1() calls: it cannot tell one block from the
// next (no ThreadIdx, BlockIdx, shared memory, nor a Thread handed on).
func (g *generator) onlyGrid1(fd *ast.FuncDecl) bool {
	params := fd.Type.Params.List
	if fd.Body == nil || len(params) == 0 || len(params[0].Names) == 0 {
		return false
	}
	info := g.pkg.TypesInfo
	thread := info.Defs[params[0].Names[0]]
	if thread == nil {
		return params[0].Names[0].Name == "_" // never read
	}
	only := true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Grid1" && len(n.Args) == 0 {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && info.Uses[id] == thread {
					return false
				}
			}
		case *ast.Ident:
			if info.Uses[n] == thread {
				only = false
			}
		}
		return only
	})
	return only
}
