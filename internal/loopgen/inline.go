package loopgen

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"github.com/nugo-dev/nugo/internal/declhash"
)

// Inlining synchronising helpers. Barrier fission transforms the barriers
// of a kernel's own body; a kernel that synchronises through a device
// function of its package (a warpReduce(t, v) helper) would keep the
// goroutine path. Before fission, such calls are replaced by the callee's
// body: parameters bound to fresh variables (arguments evaluated once, in
// order; an argument that is a variable the callee never assigns is used
// as it is, so the Thread stays the Thread), the callee's names renamed so
// that they capture nothing, its final return turned into the declaration
// of fresh result variables, and the call replaced by those variables.
// A call inside an expression is hoisted to the statements before the one
// holding it. The inlined statements keep the callee's positions, so the
// block loop's //line directives, and its panics, name the callee's lines.
// The edited kernel is type-checked again with the rest of the package,
// and fission runs on it as on any kernel. Plain device functions stay
// calls; only functions that synchronise are inlined.

// maxInlineDepth bounds the nesting of inlined synchronising helpers.
const maxInlineDepth = 16

// inlined returns the generator and declaration that barrier fission
// transforms for kernel fd, the fingerprint of the block loop (the
// kernel's declaration and those of the helpers inlined into it) and the
// names of those helpers, or why fd cannot be inlined. For inst, an
// instantiation of the generic kernel fd, the copy is a function of its
// own (instanceName) with the type arguments written in.
func (g *generator) inlined(fd *ast.FuncDecl, inst *instance) (ig *generator, ifd *ast.FuncDecl, hash string, callees []string, why string) {
	in := &inliner{g: g, info: g.pkg.TypesInfo, decls: g.packageFuncs(), used: map[*types.Func]bool{}, taken: map[string]bool{}, lastResults: map[string][]string{}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*errFission)
			if !ok {
				// A construct the copy does not foresee: the kernel keeps
				// the goroutine path rather than nugo gen failing.
				p := g.pkg.Fset.Position(fd.Pos())
				e = &errFission{fmt.Sprintf("%s:%d:%d: nugo gen could not copy this kernel for barrier fission (internal error: %v); please report it", shortFile(p.Filename), p.Line, p.Column, r)}
			}
			ig, ifd, hash, callees, why = nil, nil, "", nil, e.msg
		}
	}()
	// Fission works on a copy of the kernel, type-checked anew, even when
	// nothing is inlined: it edits the syntax tree it transforms, which
	// must stay as written for the helpers inlined into other kernels.
	in.reach(fd, nil)
	for n := range in.g.names {
		in.taken[n] = true
	}
	for _, n := range g.pkg.Types.Scope().Names() {
		in.taken[n] = true
	}
	for fn := range in.used {
		collectNames(in.decls[fn], in.taken)
	}
	collectNames(fd, in.taken)
	in.addrTaken = in.assignedVars(fd, true)
	for fn := range in.used {
		for v := range in.assignedVars(in.decls[fn], true) {
			in.addrTaken[v] = true
		}
	}
	// The kernel's own variables that bear the name of a package-level
	// name, an import or a predeclared identifier that an inlined helper
	// uses are renamed, so that they do not hide it from the helper's code.
	free := map[string]bool{}
	for fn := range in.used {
		in.freeNames(in.decls[fn], free)
	}
	top := &inlineFrame{rename: map[types.Object]string{}}
	ast.Inspect(fd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && free[id.Name] {
			if obj := in.info.Defs[id]; obj != nil && obj.Parent() != nil && obj.Parent() != g.pkg.Types.Scope() {
				top.rename[obj] = in.fresh(id.Name)
			}
		}
		return true
	})
	for obj, name := range shadowRenames(fd, in.info, in.fresh) {
		if _, ok := top.rename[obj]; !ok {
			top.rename[obj] = name
		}
	}
	in.frame = top
	in.fileImports = map[string]string{}
	for _, f := range g.pkg.Syntax {
		if f.Pos() <= fd.Pos() && fd.End() <= f.End() {
			for _, spec := range f.Imports {
				obj := in.info.Defs[spec.Name]
				if obj == nil {
					obj = in.info.Implicits[spec]
				}
				if pn, ok := obj.(*types.PkgName); ok && pn.Name() != "_" && pn.Name() != "." {
					in.fileImports[pn.Imported().Path()] = pn.Name()
				}
			}
		}
	}
	if inst != nil {
		top.targs = in.typeParamArgs(fd, inst.targs, fd.Pos())
	}
	nfd := in.copy(fd).(*ast.FuncDecl)
	nfd.Doc = nil
	if inst != nil {
		nfd.Name = &ast.Ident{NamePos: fd.Name.NamePos, Name: g.instanceName(fd)}
		nfd.Type.TypeParams = nil
	}

	var used []*ast.FuncDecl
	for fn := range in.used {
		used = append(used, in.decls[fn])
		callees = append(callees, fn.Name())
	}
	slices.SortFunc(used, func(a, b *ast.FuncDecl) int {
		if a.Name.Name < b.Name.Name {
			return -1
		}
		return 1
	})
	slices.Sort(callees)
	h, err := declhash.OfAll(g.pkg.Fset, append([]*ast.FuncDecl{fd}, used...))
	if err != nil {
		return nil, nil, "", nil, err.Error()
	}
	ng, err := g.retyped(fd, nfd, inst != nil)
	if err != nil {
		pos := g.pkg.Fset.Position(fd.Pos())
		return nil, nil, "", nil, fmt.Sprintf("%s:%d:%d: inlining %v into the kernel does not type-check: %v", shortFile(pos.Filename), pos.Line, pos.Column, callees, err)
	}
	return ng, nfd, h, callees, ""
}

// inliner copies a kernel with the synchronising helpers it calls inlined.
type inliner struct {
	g     *generator
	info  *types.Info
	decls map[*types.Func]*ast.FuncDecl // the package's functions
	used  map[*types.Func]bool          // the helpers inlined
	taken map[string]bool               // names no fresh name may take
	frame *inlineFrame                  // of the function whose code is being copied
	// addrTaken are the variables whose address the kernel or a helper
	// takes.
	addrTaken map[types.Object]bool
	// fileImports maps the import paths of the kernel's file to their
	// names there.
	fileImports map[string]string
	// lastResults maps the first result name of an inlined call to all
	// of them, for calls with several results.
	lastResults map[string][]string
}

// inlineFrame is one function being copied: the kernel, or one inlined
// call of a helper.
type inlineFrame struct {
	fn     *types.Func // nil for the kernel
	rename map[types.Object]string
	// targs are the type arguments of a generic function's copy, by
	// type parameter, as the generated code writes them.
	targs map[types.Object]ast.Expr
	// results are the fresh names of the callee's results; declared says
	// whether they are declared before the body (named results, or a
	// return that is not the body's last statement).
	results  []string
	declared bool
	resTypes []ast.Expr // the result types, as the callee writes them
	last     *ast.ReturnStmt
	// pending collects the statements inlined for the statement being
	// copied, which go before it.
	pending *[]ast.Stmt
}

func (in *inliner) fail(pos token.Pos, format string, args ...any) {
	p := in.g.pkg.Fset.Position(pos)
	panic(&errFission{fmt.Sprintf("%s:%d:%d: %s", shortFile(p.Filename), p.Line, p.Column, fmt.Sprintf(format, args...))})
}

// fresh returns a name that no name of the kernel, its helpers or the
// package takes.
func (in *inliner) fresh(base string) string {
	if base == "" || base == "_" {
		base = "v"
	}
	n := base
	for i := 2; in.taken[n]; i++ {
		n = base + strconv.Itoa(i)
	}
	in.taken[n] = true
	return n
}

// helper returns the package function that call calls and that
// synchronises the block, or nil.
func (in *inliner) helper(call *ast.CallExpr) *types.Func {
	if k, _ := in.g.collective(call); k != collNone {
		return nil
	}
	c := in.g.callee(call)
	if c == nil || c.Pkg() != in.g.pkg.Types || !in.g.syncingFuncs()[c.Origin()] {
		return nil
	}
	return c
}

// callsHelpers reports whether n calls a synchronising helper.
func (in *inliner) callsHelpers(n ast.Node) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && in.helper(call) != nil {
			found = true
		}
		return !found
	})
	return found
}

// reach records the helpers that fd calls, transitively, and refuses
// recursion and helpers that cannot be inlined.
func (in *inliner) reach(fd *ast.FuncDecl, stack []*types.Func) {
	if len(stack) > maxInlineDepth {
		in.fail(fd.Pos(), "synchronising helpers nest deeper than %d calls", maxInlineDepth)
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		c := in.helper(call)
		if c == nil {
			return true
		}
		d := in.decls[c.Origin()]
		sig := c.Type().(*types.Signature)
		switch {
		case slices.Contains(stack, c.Origin()):
			in.fail(call.Pos(), "calls %s, which synchronises the block and calls itself; recursive helpers are not inlined", c.Name())
		case sig.Recv() != nil:
			in.fail(call.Pos(), "calls method %s, which synchronises the block; only functions are inlined", c.Name())
		case sig.Variadic():
			in.fail(call.Pos(), "calls %s, a variadic function that synchronises the block; variadic helpers are not inlined", c.Name())
		case d == nil:
			in.fail(call.Pos(), "calls %s, which synchronises the block and has no body here", c.Name())
		}
		in.used[c.Origin()] = true
		in.reach(d, append(stack, c.Origin()))
		return true
	})
}

// collectNames adds every identifier's name in n to names.
func collectNames(n ast.Node, names map[string]bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names[id.Name] = true
		}
		return true
	})
}

// freeNames adds to names the identifiers of fd's body that refer to
// something declared outside fd (package-level names, imports,
// predeclared identifiers), and checks that the kernel's file has fd's
// imports under the same names.
func (in *inliner) freeNames(fd *ast.FuncDecl, names map[string]bool) {
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := in.info.Uses[id]
		if obj == nil || obj.Parent() == nil || (obj.Pos() >= fd.Pos() && obj.Pos() < fd.End()) {
			return true
		}
		names[id.Name] = true
		return true
	})
}

// ownExprsCheck refuses a statement whose helper calls cannot be hoisted
// before it: calls in a loop's condition or post statement, in a switch
// header, under && or ||, in go or defer statements, or after another
// call that might have effects.
func (in *inliner) ownExprsCheck(s ast.Stmt) {
	refuse := func(n ast.Node, where string) {
		if n == nil || reflect.ValueOf(n).IsNil() {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if c := in.helper(call); c != nil {
					in.fail(call.Pos(), "calls %s, which synchronises the block, %s; call it in a statement of its own", c.Name(), where)
				}
			}
			return true
		})
	}
	var own []ast.Node
	switch s := s.(type) {
	case *ast.ExprStmt:
		own = []ast.Node{s.X}
	case *ast.AssignStmt:
		for _, e := range s.Lhs {
			own = append(own, e)
		}
		for _, e := range s.Rhs {
			own = append(own, e)
		}
	case *ast.DeclStmt:
		own = []ast.Node{s.Decl}
	case *ast.IncDecStmt:
		own = []ast.Node{s.X}
	case *ast.SendStmt:
		own = []ast.Node{s.Chan, s.Value}
	case *ast.ReturnStmt:
		for _, e := range s.Results {
			own = append(own, e)
		}
	case *ast.IfStmt:
		refuse(s.Init, "in an if statement's init")
		own = []ast.Node{s.Cond}
	case *ast.ForStmt:
		refuse(s.Cond, "in a loop's condition")
		refuse(s.Post, "in a loop's post statement")
		if s.Init != nil {
			in.ownExprsCheck(s.Init)
		}
	case *ast.RangeStmt:
		own = []ast.Node{s.X}
	case *ast.SwitchStmt:
		refuse(s.Init, "in a switch header")
		refuse(s.Tag, "in a switch header")
	case *ast.TypeSwitchStmt:
		refuse(s.Init, "in a switch header")
		refuse(s.Assign, "in a switch header")
	case *ast.CaseClause:
		for _, e := range s.List {
			refuse(e, "in a case expression")
		}
	case *ast.GoStmt:
		refuse(s.Call, "in a go statement")
	case *ast.DeferStmt:
		refuse(s.Call, "in a defer statement")
	}
	// Calls are evaluated left to right; a helper's body runs before the
	// statement, so a call evaluated before it must be free of effects.
	var calls []*ast.CallExpr
	for _, n := range own {
		var walk func(n ast.Node, cond bool)
		walk = func(n ast.Node, cond bool) {
			ast.Inspect(n, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false
				case *ast.BinaryExpr:
					if n.Op == token.LAND || n.Op == token.LOR {
						walk(n.X, cond)
						walk(n.Y, true)
						return false
					}
				case *ast.CallExpr:
					if c := in.helper(n); c != nil {
						if cond {
							in.fail(n.Pos(), "calls %s, which synchronises the block, on the right of && or ||; call it in a statement of its own", c.Name())
						}
						for _, p := range calls {
							if p.End() <= n.Pos() && in.effects(p) {
								in.fail(n.Pos(), "calls %s, which synchronises the block, after a call that it would precede once inlined (%s); call it in a statement of its own", c.Name(), types.ExprString(p.Fun))
							}
						}
					}
					calls = append(calls, n)
				}
				return true
			})
		}
		walk(n, false)
	}
}

// effects reports whether call might have an effect that a helper's body
// hoisted before it would observe: calls other than builtins, conversions,
// helpers (inlined in order) and the functions of cuda, math and
// math/bits.
func (in *inliner) effects(call *ast.CallExpr) bool {
	if tv, ok := in.info.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
		return false
	}
	if in.helper(call) != nil {
		return false
	}
	c := in.g.callee(call)
	if c == nil || c.Pkg() == nil {
		return true
	}
	switch c.Pkg().Path() {
	case cudaPath, "math", "math/bits":
		return false
	}
	return true
}

// copy returns a deep copy of n in which the current frame's names are
// renamed and the helper calls of its statement lists are inlined.
func (in *inliner) copy(n ast.Node) ast.Node {
	return in.copyValue(reflect.ValueOf(n)).Interface().(ast.Node)
}

var (
	objectType  = reflect.TypeFor[*ast.Object]()
	scopeType   = reflect.TypeFor[*ast.Scope]()
	commentType = reflect.TypeFor[*ast.CommentGroup]()
)

func (in *inliner) copyValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		switch v.Type() {
		case objectType, scopeType, commentType:
			return reflect.Zero(v.Type())
		}
		if n, ok := v.Interface().(ast.Node); ok {
			if r := in.replace(n); r != nil {
				return reflect.ValueOf(r)
			}
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(in.copyValue(v.Elem()))
		return p
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := in.copyValue(v.Elem())
		r := reflect.New(v.Type()).Elem()
		r.Set(c)
		return r
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			c.Field(i).Set(in.copyValue(v.Field(i)))
		}
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(in.copyValue(v.Index(i)))
		}
		return c
	}
	return v
}

// replace returns the copy of n where copying n is more than copying its
// fields, or nil.
func (in *inliner) replace(n ast.Node) ast.Node {
	switch n := n.(type) {
	case *ast.Ident:
		obj := in.info.Defs[n]
		if obj == nil {
			obj = in.info.Uses[n]
		}
		if name, ok := in.frame.rename[obj]; ok && obj != nil {
			return &ast.Ident{NamePos: n.NamePos, Name: name}
		}
		if t, ok := in.frame.targs[in.info.Uses[n]]; ok && in.info.Uses[n] != nil {
			c := in.copyPlain(t)
			setPos(c, n.NamePos)
			return c
		}
	case *ast.BlockStmt:
		return &ast.BlockStmt{Lbrace: n.Lbrace, List: in.list(n.List), Rbrace: n.Rbrace}
	case *ast.CaseClause:
		in.ownExprsCheck(n)
		return &ast.CaseClause{Case: n.Case, List: in.exprs(n.List), Colon: n.Colon, Body: in.list(n.Body)}
	case *ast.CommClause:
		if in.callsHelpers(n.Comm) {
			in.fail(n.Pos(), "a select case calls a function that synchronises the block")
		}
		return &ast.CommClause{Case: n.Case, Comm: in.copyStmt(n.Comm), Colon: n.Colon, Body: in.list(n.Body)}
	case *ast.IfStmt:
		if e, ok := n.Else.(*ast.IfStmt); ok && in.callsHelpers(e.Cond) {
			// else if f(t) {: the call goes before the inner if.
			c := &ast.IfStmt{If: n.If, Init: in.copyStmt(n.Init), Cond: in.copy(n.Cond).(ast.Expr), Body: in.copy(n.Body).(*ast.BlockStmt)}
			c.Else = &ast.BlockStmt{Lbrace: e.Pos(), List: in.list([]ast.Stmt{e}), Rbrace: e.End()}
			return c
		}
	case *ast.ReturnStmt:
		if in.frame.fn != nil {
			return in.ret(n)
		}
	case *ast.CallExpr:
		if c := in.helper(n); c != nil {
			names := in.expand(n, c)
			if len(names) == 0 {
				in.fail(n.Pos(), "the result of %s is used, but it has none", c.Name())
			}
			// A call with several results is the whole right-hand side of
			// an assignment; list replaces the other names.
			return &ast.Ident{NamePos: n.Pos(), Name: names[0]}
		}
	}
	return nil
}

func (in *inliner) copyStmt(s ast.Stmt) ast.Stmt {
	if s == nil {
		return nil
	}
	return in.copy(s).(ast.Stmt)
}

func (in *inliner) exprs(list []ast.Expr) []ast.Expr {
	if list == nil {
		return nil
	}
	out := make([]ast.Expr, len(list))
	for i, e := range list {
		out[i] = in.copy(e).(ast.Expr)
	}
	return out
}

// list copies a statement list, inlining the helper calls of each
// statement before it.
func (in *inliner) list(stmts []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	saved := in.frame.pending
	defer func() { in.frame.pending = saved }()
	for _, s := range stmts {
		var pending []ast.Stmt
		in.frame.pending = &pending
		in.ownExprsCheck(s)
		var c ast.Stmt
		if es, ok := s.(*ast.ExprStmt); ok {
			if call, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
				if h := in.helper(call); h != nil {
					in.expand(call, h)
					out = append(out, pending...)
					continue
				}
			}
		}
		multi := in.multiCall(s)
		c = in.copyStmt(s)
		if multi != nil {
			in.spreadResults(c, multi)
		}
		out = append(out, pending...)
		if e, ok := c.(*ast.EmptyStmt); ok && e.Implicit {
			continue
		}
		out = append(out, c)
	}
	return out
}

// multiCall returns the helper call with several results that is the
// whole right-hand side of s, or nil.
func (in *inliner) multiCall(s ast.Stmt) *ast.CallExpr {
	var rhs []ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		rhs = s.Rhs
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok && len(gd.Specs) == 1 {
			if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok {
				rhs = vs.Values
			}
		}
	case *ast.ReturnStmt:
		rhs = s.Results
	}
	if len(rhs) != 1 {
		return nil
	}
	call, ok := ast.Unparen(rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if h := in.helper(call); h == nil || h.Type().(*types.Signature).Results().Len() < 2 {
		return nil
	}
	return call
}

// spreadResults replaces, in the copy c of a statement whose right-hand
// side is one call with several results, that call's first result by all
// of them.
func (in *inliner) spreadResults(c ast.Stmt, call *ast.CallExpr) {
	n := in.helper(call).Type().(*types.Signature).Results().Len()
	spread := func(rhs []ast.Expr) []ast.Expr {
		id := ast.Unparen(rhs[0]).(*ast.Ident)
		names := in.lastResults[id.Name]
		out := make([]ast.Expr, n)
		for i := range out {
			out[i] = &ast.Ident{NamePos: id.NamePos, Name: names[i]}
		}
		return out
	}
	switch c := c.(type) {
	case *ast.AssignStmt:
		c.Rhs = spread(c.Rhs)
	case *ast.DeclStmt:
		vs := c.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
		vs.Values = spread(vs.Values)
	}
}

// tailReturns adds to out the return statements that end list: its last
// statement, or those ending the branches of a last if or block.
func tailReturns(list []ast.Stmt, out map[*ast.ReturnStmt]bool) {
	if len(list) == 0 {
		return
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		out[s] = true
	case *ast.BlockStmt:
		tailReturns(s.List, out)
	case *ast.IfStmt:
		tailReturns(s.Body.List, out)
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			tailReturns(e.List, out)
		case *ast.IfStmt:
			tailReturns([]ast.Stmt{e}, out)
		}
	}
}

// expand inlines call, a call of helper c, into the current frame's
// pending statements, and returns the names of the variables holding its
// results.
func (in *inliner) expand(call *ast.CallExpr, c *types.Func) []string {
	d := in.decls[c.Origin()]
	sig := c.Type().(*types.Signature)
	caller := in.frame
	pending := caller.pending
	bodyList := normalized(d.Body.List)
	tails := map[*ast.ReturnStmt]bool{}
	tailReturns(bodyList, tails)
	ast.Inspect(d.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if !tails[n] {
				in.fail(call.Pos(), "calls %s, which synchronises the block and returns before its end (%s); only returns that end a synchronising helper are inlined",
					c.Name(), in.position(n.Pos()))
			}
		}
		return true
	})
	fr := &inlineFrame{fn: c, rename: map[types.Object]string{}, targs: in.typeArgs(call, d)}

	// Arguments: evaluated once, in order. A variable passed to a
	// parameter that the helper never assigns nor takes the address of
	// stands for the parameter itself, when no argument has effects.
	pure := true
	for _, a := range call.Args {
		ast.Inspect(a, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					pure = false
				}
			case *ast.CallExpr:
				if in.helper(n) != nil || in.effects(n) {
					pure = false
				}
			}
			return pure
		})
	}
	assigned := in.assignedVars(d, false)
	usedVars := map[types.Object]bool{}
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && in.info.Uses[id] != nil {
			usedVars[in.info.Uses[id]] = true
		}
		return true
	})
	var params []*ast.Ident
	var ptypes []ast.Expr
	for _, f := range d.Type.Params.List {
		if len(f.Names) == 0 {
			params, ptypes = append(params, nil), append(ptypes, f.Type)
		}
		for _, id := range f.Names {
			params, ptypes = append(params, id), append(ptypes, f.Type)
		}
	}
	if len(params) != len(call.Args) {
		in.fail(call.Pos(), "calls %s with a multi-valued argument; pass its values one by one", c.Name())
	}
	for i, a := range call.Args {
		ac := in.copy(a).(ast.Expr) // in the caller's frame
		id := params[i]
		if id == nil || id.Name == "_" {
			if _, isIdent := ast.Unparen(a).(*ast.Ident); !isIdent {
				*pending = append(*pending, &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: call.Pos(), Name: "_"}}, TokPos: call.Pos(), Tok: token.ASSIGN, Rhs: []ast.Expr{ac}})
			}
			continue
		}
		obj := in.info.Defs[id]
		if !usedVars[obj] {
			// An unused parameter: its argument is evaluated all the same.
			if _, isIdent := ast.Unparen(a).(*ast.Ident); !isIdent {
				*pending = append(*pending, &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: call.Pos(), Name: "_"}}, TokPos: call.Pos(), Tok: token.ASSIGN, Rhs: []ast.Expr{ac}})
			}
			continue
		}
		if aid, ok := ast.Unparen(ac).(*ast.Ident); ok && !assigned[obj] {
			// A local variable whose address is never taken keeps its
			// value while the other arguments are evaluated.
			v, isVar := in.info.Uses[ast.Unparen(a).(*ast.Ident)].(*types.Var)
			if isVar && (pure || v.Parent() != in.g.pkg.Types.Scope() && !in.addrTaken[v]) {
				fr.rename[obj] = aid.Name
				continue
			}
		}
		name := in.fresh(id.Name)
		fr.rename[obj] = name
		in.frame = fr
		typ := in.copy(ptypes[i]).(ast.Expr)
		in.frame = caller
		setPos(typ, call.Pos())
		*pending = append(*pending, varDecl(call.Pos(), name, typ, ac))
	}
	// The helper's own names become fresh ones.
	ast.Inspect(d, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		obj := in.info.Defs[id]
		if obj == nil || obj.Parent() == in.g.pkg.Types.Scope() {
			return true
		}
		if v, ok := obj.(*types.Var); ok && v.IsField() {
			return true
		}
		if _, ok := obj.Type().(*types.TypeParam); ok {
			return true // written as its argument
		}
		if _, done := fr.rename[obj]; !done {
			fr.rename[obj] = in.fresh(id.Name)
		}
		return true
	})
	// Results: the helper's last statement, a return, declares them;
	// otherwise (named results, returns in branches) they are declared
	// first and the returns assign them.
	var names []string
	if r := d.Type.Results; r != nil {
		named := len(r.List) > 0 && len(r.List[0].Names) > 0
		for _, f := range r.List {
			if !named {
				names = append(names, in.fresh("res"))
				fr.resTypes = append(fr.resTypes, f.Type)
				continue
			}
			for _, id := range f.Names {
				names = append(names, fr.rename[in.info.Defs[id]])
				fr.resTypes = append(fr.resTypes, f.Type)
			}
		}
		fr.results = names
		last, _ := bodyList[len(bodyList)-1].(*ast.ReturnStmt)
		fr.declared = named || last == nil || len(tails) != 1 || len(last.Results) != len(names)
		if fr.declared {
			in.frame = fr
			for i, n := range names {
				typ := in.copy(fr.resTypes[i]).(ast.Expr)
				setPos(typ, call.Pos())
				*pending = append(*pending, varDecl(call.Pos(), n, typ, nil))
			}
			in.frame = caller
		}
	}
	if len(names) != sig.Results().Len() {
		in.fail(call.Pos(), "calls %s, whose results could not be named", c.Name())
	}
	in.frame = fr
	body := in.list(bodyList)
	in.frame = caller
	*pending = append(*pending, body...)
	if len(names) > 0 {
		in.lastResults[names[0]] = names
	}
	return names
}

// ret turns a return that ends a helper into the assignment, or the
// declaration, of the variables holding its results.
func (in *inliner) ret(n *ast.ReturnStmt) ast.Stmt {
	fr := in.frame
	if len(fr.results) == 0 || len(n.Results) == 0 {
		return &ast.EmptyStmt{Semicolon: n.Pos(), Implicit: true}
	}
	vals := in.exprs(n.Results)
	ids := func(i int) *ast.Ident { return &ast.Ident{NamePos: n.Pos(), Name: fr.results[i]} }
	if fr.declared {
		lhs := make([]ast.Expr, len(fr.results))
		for i := range lhs {
			lhs[i] = ids(i)
		}
		return &ast.AssignStmt{Lhs: lhs, TokPos: n.Pos(), Tok: token.ASSIGN, Rhs: vals}
	}
	gd := &ast.GenDecl{TokPos: n.Pos(), Tok: token.VAR}
	for i := range fr.results {
		gd.Specs = append(gd.Specs, &ast.ValueSpec{Names: []*ast.Ident{ids(i)}, Type: in.copy(fr.resTypes[i]).(ast.Expr), Values: []ast.Expr{vals[i]}})
	}
	if len(gd.Specs) > 1 {
		gd.Lparen, gd.Rparen = n.Pos(), n.End()
	}
	return &ast.DeclStmt{Decl: gd}
}

// varDecl returns `var name typ = val` (without the value when val is nil).
func varDecl(pos token.Pos, name string, typ, val ast.Expr) ast.Stmt {
	vs := &ast.ValueSpec{Names: []*ast.Ident{{NamePos: pos, Name: name}}, Type: typ}
	if val != nil {
		vs.Values = []ast.Expr{val}
	}
	return &ast.DeclStmt{Decl: &ast.GenDecl{TokPos: pos, Tok: token.VAR, Specs: []ast.Spec{vs}}}
}

// setPos sets every position in n to pos: a copy of a helper's type
// written among the caller's statements.
func setPos(n ast.Node, pos token.Pos) {
	posType := reflect.TypeFor[token.Pos]()
	var set func(v reflect.Value)
	set = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				set(v.Elem())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				f := v.Field(i)
				if f.Type() == posType {
					if token.Pos(f.Int()).IsValid() {
						f.SetInt(int64(pos))
					}
					continue
				}
				switch f.Type() {
				case objectType, scopeType, commentType:
					continue
				}
				set(f)
			}
		case reflect.Slice:
			for i := range v.Len() {
				set(v.Index(i))
			}
		}
	}
	set(reflect.ValueOf(n))
}

// assignedVars returns the variables that fd assigns, increments or
// takes the address of (only those whose address it takes, with addr).
func (in *inliner) assignedVars(fd *ast.FuncDecl, addr bool) map[types.Object]bool {
	out := map[types.Object]bool{}
	mark := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := in.info.Uses[id]; obj != nil {
				out[obj] = true
			}
		}
	}
	eachWrite(fd.Body, in.info, func(x ast.Expr, kind writeKind, at ast.Node) {
		switch {
		case kind == writeAddr:
			mark(x)
		case addr:
		case kind == writeAssign, kind == writeIncDec, kind == writeRange && rangeAssigns(at):
			mark(x)
		}
	})
	return out
}

func (in *inliner) position(pos token.Pos) string {
	p := in.g.pkg.Fset.Position(pos)
	return fmt.Sprintf("%s:%d", shortFile(p.Filename), p.Line)
}

// retyped returns a generator for the package in which kernel fd is
// replaced by nfd (or, with add, nfd is added next to it), type-checked
// anew.
func (g *generator) retyped(fd, nfd *ast.FuncDecl, add bool) (*generator, error) {
	files := make([]*ast.File, len(g.pkg.Syntax))
	for i, f := range g.pkg.Syntax {
		// Other functions' bodies are left out, but for generic ones: the
		// kernel needs only their signatures.
		c := *f
		c.Decls = slices.Clone(f.Decls)
		for j, d := range c.Decls {
			if d == ast.Decl(fd) && !add {
				c.Decls[j] = nfd
			} else if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil && !isGenericDecl(d) {
				e := *d
				e.Body = nil
				c.Decls[j] = &e
			}
		}
		if add && f.Pos() <= fd.Pos() && fd.End() <= f.End() {
			c.Decls = append(c.Decls, nfd)
		}
		files[i] = &c
	}
	imports := map[string]*types.Package{}
	for _, p := range g.pkg.Types.Imports() {
		imports[p.Path()] = p
	}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if p, ok := imports[path]; ok {
				return p, nil
			}
			return nil, fmt.Errorf("package %s is not imported by %s", path, g.pkg.PkgPath)
		}),
		Sizes: g.pkg.TypesSizes,
	}
	if g.pkg.Module != nil && g.pkg.Module.GoVersion != "" {
		conf.GoVersion = "go" + g.pkg.Module.GoVersion
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Scopes: map[ast.Node]*types.Scope{},
		Instances: map[*ast.Ident]types.Instance{}, FileVersions: map[*ast.File]string{},
	}
	// Soft errors (an import that only the left-out bodies use) do not
	// matter here.
	var hard error
	conf.Error = func(err error) {
		if te, ok := err.(types.Error); (!ok || !te.Soft) && hard == nil {
			hard = err
		}
	}
	tp, _ := conf.Check(g.pkg.PkgPath, g.pkg.Fset, files, info)
	if hard != nil {
		return nil, hard
	}
	np := *g.pkg
	np.Syntax, np.Types, np.TypesInfo = files, tp, info
	ng := &generator{pkg: &np, imports: g.imports, names: g.names}
	return ng, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// inlinedArgs returns the trailing arguments of a RegisterBlockLoop call
// naming the helpers inlined into the kernel.
func inlinedArgs(names []string) string {
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, ", %q", n)
	}
	return b.String()
}

// isGenericDecl reports whether fd has type parameters or is a method of
// a generic type (which go/types wants with a body).
func isGenericDecl(fd *ast.FuncDecl) bool {
	if fd.Type.TypeParams != nil {
		return true
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return false
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch ast.Unparen(t).(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return true
	}
	return false
}

// typeArgs returns the type arguments of call, a call of the generic
// function d (nil if d is not generic), by type parameter, written in the
// caller's terms.
func (in *inliner) typeArgs(call *ast.CallExpr, d *ast.FuncDecl) map[types.Object]ast.Expr {
	if d.Type.TypeParams == nil {
		return nil
	}
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	if sel, ok := fun.(*ast.SelectorExpr); ok {
		fun = sel.Sel
	}
	id, _ := fun.(*ast.Ident)
	inst, ok := in.info.Instances[id]
	if id == nil || !ok {
		in.fail(call.Pos(), "cannot tell the type arguments of this call of %s", d.Name.Name)
	}
	return in.typeParamArgs(d, slices.Collect(inst.TypeArgs.Types()), call.Pos())
}

// typeParamArgs maps the type parameters of d to the expressions writing
// targs, in the current frame's terms (a type argument that is the
// caller's own type parameter is written as the caller's argument).
func (in *inliner) typeParamArgs(d *ast.FuncDecl, targs []types.Type, pos token.Pos) map[types.Object]ast.Expr {
	out := map[types.Object]ast.Expr{}
	i := 0
	for _, f := range d.Type.TypeParams.List {
		for _, id := range f.Names {
			if i >= len(targs) {
				in.fail(pos, "%s has more type parameters than arguments", d.Name.Name)
			}
			out[in.info.Defs[id]] = in.typeExpr(targs[i], pos)
			i++
		}
	}
	return out
}

// typeExpr returns an expression writing t in the kernel's file, where
// the current frame's type parameters stand for their arguments.
func (in *inliner) typeExpr(t types.Type, pos token.Pos) ast.Expr {
	var why string
	text := types.TypeString(t, func(p *types.Package) string {
		if p == in.g.pkg.Types {
			return ""
		}
		if name, ok := in.fileImports[p.Path()]; ok {
			return name
		}
		if why == "" {
			why = fmt.Sprintf("the kernel's file does not import %s, which type %s needs", p.Path(), t)
		}
		return p.Name()
	})
	if why != "" {
		in.fail(pos, "%s", why)
	}
	e, err := parser.ParseExpr(text)
	if err != nil {
		in.fail(pos, "cannot write type %s: %v", t, err)
	}
	// The caller's type parameters, as TypeString writes them, become
	// the caller's type arguments.
	byName := map[string]ast.Expr{}
	if in.frame != nil {
		for obj, a := range in.frame.targs {
			byName[obj.Name()] = a
		}
	}
	e = astutil.Apply(e, func(c *astutil.Cursor) bool {
		if id, ok := c.Node().(*ast.Ident); ok {
			if a, ok := byName[id.Name]; ok {
				c.Replace(in.copyPlain(a))
			}
		}
		return true
	}, nil).(ast.Expr)
	setPos(e, pos)
	return e
}

// copyPlain returns a deep copy of e, an expression made by typeExpr.
func (in *inliner) copyPlain(e ast.Expr) ast.Expr {
	saved := in.frame
	in.frame = &inlineFrame{}
	defer func() { in.frame = saved }()
	return in.copy(e).(ast.Expr)
}

// normalized returns list with each `if c { ...; return }` that more
// statements follow turned into `if c { ... } else { the rest }`, so that
// the returns end the helper's body where they can.
func normalized(list []ast.Stmt) []ast.Stmt {
	for i, s := range list {
		ifs, ok := s.(*ast.IfStmt)
		if !ok || i == len(list)-1 || ifs.Else != nil || !endsInReturn(ifs.Body.List) {
			continue
		}
		c := *ifs
		body := *ifs.Body
		body.List = normalized(body.List)
		c.Body = &body
		c.Else = &ast.BlockStmt{Lbrace: list[i+1].Pos(), List: normalized(list[i+1:]), Rbrace: list[len(list)-1].End()}
		return append(slices.Clone(list[:i]), &c)
	}
	return list
}

// endsInReturn reports whether every way through list ends in a return.
func endsInReturn(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BlockStmt:
		return endsInReturn(s.List)
	case *ast.IfStmt:
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			return endsInReturn(s.Body.List) && endsInReturn(e.List)
		case *ast.IfStmt:
			return endsInReturn(s.Body.List) && endsInReturn([]ast.Stmt{e})
		}
	}
	return false
}

// instanceName returns the name of the copy of generic kernel fd that
// fission transforms for one instantiation: a name the package does not
// use. The registration names the instantiation instead
// (fissionInstance).
func (g *generator) instanceName(fd *ast.FuncDecl) string {
	scope := g.pkg.Types.Scope()
	n := "nugoInst" + fd.Name.Name
	for i := 2; scope.Lookup(n) != nil; i++ {
		n = "nugoInst" + fd.Name.Name + strconv.Itoa(i)
	}
	return n
}

// fissionInstance returns the block loop registration of inst, an
// instantiation of the generic kernel fd, or why it cannot be written.
// The block loop is made from a copy of fd with inst's type arguments
// written in; its fingerprint is that of the generic declaration, and it
// is registered for inst's func value (fd[T...]).
func (g *generator) fissionInstance(fd *ast.FuncDecl, inst instance) (src, why string) {
	src, why = g.fissionAs(fd, &inst)
	if why != "" {
		return "", why
	}
	old := "RegisterBlockLoop(" + g.instanceName(fd) + ","
	if !strings.Contains(src, old) {
		return "", fmt.Sprintf("the block loop of %s names no kernel", inst.expr)
	}
	return strings.Replace(src, old, "RegisterBlockLoop("+inst.expr+",", 1), ""
}

// varOrder orders variables by position, then name: the copies of a
// helper inlined twice declare their variables at the same positions.
func varOrder(a, b *types.Var) int {
	return cmp.Or(cmp.Compare(a.Pos(), b.Pos()), strings.Compare(a.Name(), b.Name()))
}

// stmtOrder orders statements by position, then by the first name they
// declare (as varOrder).
func stmtOrder(a, b ast.Stmt) int {
	first := func(s ast.Stmt) string {
		if ids := defNames(s); len(ids) > 0 {
			return ids[0].Name
		}
		return ""
	}
	return cmp.Or(cmp.Compare(a.Pos(), b.Pos()), strings.Compare(first(a), first(b)))
}
