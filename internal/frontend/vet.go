package frontend

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// vet refuses, at the exact position, what a GPU thread cannot do, with a
// sentence that says what to write instead (the section 3).
//
// srcs holds every package of the kernel's program, so that a read-only
// table of another package is recognised as one.
func vet(files []*ast.File, info *types.Info, kernel string, srcs map[*types.Package]source, d *diags) {
	funcParams := kernelFuncParams(files, info, kernel)
	for _, f := range files {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Name.Name == instantiateFunc {
				continue
			}
			if fd.Recv == nil && fd.Name.Name == kernel {
				vetKernelSignature(fd, info, d)
			}
			if fd.Body != nil {
				vetBody(fd.Body, info, srcs, funcParams, d)
			}
			vetSignature(fd.Type, info, funcParams, d)
		}
	}
}

// vetKernelSignature checks the kernel's parameters: a cuda.Thread first, then
// what a launch can pass.
func vetKernelSignature(fd *ast.FuncDecl, info *types.Info, d *diags) {
	obj, _ := info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return
	}
	sig := obj.Type().(*types.Signature)
	if sig.Results().Len() > 0 {
		d.add(fd.Type.Results.Pos(), "a kernel returns nothing; write results into a slice parameter")
	}
	params := sig.Params()
	if params.Len() == 0 || !isCudaNamed(params.At(0).Type(), "Thread") {
		d.add(fd.Type.Params.Pos(), "the first parameter of a kernel must be a cuda.Thread (func %s(t cuda.Thread, ...))", fd.Name.Name)
		return
	}
	if sig.Variadic() {
		d.add(params.At(params.Len()-1).Pos(), "a kernel cannot be variadic; pass a slice")
	}
	for i := 1; i < params.Len(); i++ {
		p := params.At(i)
		if agg, why := ByValueProblem(p.Type(), types.RelativeTo(p.Pkg())); agg {
			if why != "" {
				d.add(p.Pos(), "kernel parameter %s has type %s, passed by value: %s; such arrays and structs hold numbers, bools and cuda.Float16s and arrays and structs of them (pass memory as a slice parameter)", p.Name(), types.TypeString(p.Type(), types.RelativeTo(p.Pkg())), why)
			}
			continue
		}
		if !kernelParamOK(p.Type()) {
			d.add(p.Pos(), "kernel parameter %s has type %s; kernels take numeric scalars, bool, cuda.Float16, slices of numbers, bools or structs of numbers, cuda.Array2, cuda.Array3 or a func of numbers, bools and cuda.Float16 and slices of them (pass a slice instead of a pointer, map or string)", p.Name(), types.TypeString(p.Type(), types.RelativeTo(p.Pkg())))
		}
	}
}

// kernelFuncParams returns the kernel's parameters of func type that a
// launch binds to a top-level function (see FuncParamOK); they are the only
// function values a kernel may hold, and it may only call them.
func kernelFuncParams(files []*ast.File, info *types.Info, kernel string) map[types.Object]bool {
	fd := declOf(files, kernel)
	if kernel == "" || fd == nil {
		return nil
	}
	obj, _ := info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return nil
	}
	params := obj.Type().(*types.Signature).Params()
	var out map[types.Object]bool
	for i := 1; i < params.Len(); i++ {
		if FuncParamOK(params.At(i).Type()) {
			if out == nil {
				out = map[types.Object]bool{}
			}
			out[params.At(i)] = true
		}
	}
	return out
}

// FuncParamOK reports whether t is a func type a kernel parameter may have:
// not variadic, its parameters numbers, bools, cuda.Float16s, slices of or
// pointers to those, cuda.Array2 or cuda.Array3, its results numbers, bools
// or cuda.Float16s (type parameters count as numbers). The launch binds such a parameter to a top-level
// function, which the compiler calls directly.
func FuncParamOK(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Variadic() || sig.TypeParams().Len() > 0 {
		return false
	}
	return funcOperandsOK(sig)
}

// funcOperandsOK reports whether sig's parameters and results are what a
// function bound to a kernel's func parameter may take and return.
func funcOperandsOK(sig *types.Signature) bool {
	for i := 0; i < sig.Params().Len(); i++ {
		if !isFuncOperand(sig.Params().At(i).Type()) {
			return false
		}
	}
	for i := 0; i < sig.Results().Len(); i++ {
		if !isScalarOrTypeParam(sig.Results().At(i).Type()) {
			return false
		}
	}
	return true
}

// isFuncOperand reports whether a bound function may take a parameter of
// type t: a number, bool or cuda.Float16, or a slice of or pointer to one,
// or a cuda.Array2 or cuda.Array3 (device memory, which the kernel passes
// on).
func isFuncOperand(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return isNumber(u.Elem()) || isBool(u.Elem()) || isCudaNamed(u.Elem(), "Float16")
	case *types.Pointer:
		return isNumber(u.Elem()) || isBool(u.Elem()) || isCudaNamed(u.Elem(), "Float16")
	}
	if isCudaNamed(t, "Array2") || isCudaNamed(t, "Array3") {
		return true
	}
	return isScalarOrTypeParam(t)
}

// isScalarOrTypeParam reports whether t is a number, a bool, a
// cuda.Float16 or a type parameter.
func isScalarOrTypeParam(t types.Type) bool {
	if _, ok := t.(*types.TypeParam); ok {
		return true
	}
	if isCudaNamed(t, "Float16") {
		return true
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat|types.IsComplex|types.IsBoolean) != 0
}

func kernelParamOK(t types.Type) bool {
	if _, ok := t.(*types.TypeParam); ok {
		return true
	}
	if FuncParamOK(t) {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&(types.IsInteger|types.IsFloat|types.IsComplex|types.IsBoolean) != 0
	case *types.Slice:
		return isNumber(u.Elem()) || isBool(u.Elem()) || IsPlainStruct(u.Elem())
	case *types.TypeParam:
		return true
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		o := n.Obj()
		if o.Pkg() != nil && o.Pkg().Path() == CudaPath && (o.Name() == "Array2" || o.Name() == "Array3" || o.Name() == "Float16") {
			return true
		}
	}
	return false
}

// ByValueProblem reports whether a kernel parameter of type t is an array
// or struct passed by value (Numba's tuples and namedtuples; not
// cuda.Float16, cuda.Array2 or cuda.Array3), and if so what keeps it from
// being one, naming the field or element ("field Next is a pointer"), or
// "" when it holds only numbers, bools, cuda.Float16s and arrays and
// structs of them. Empty structs and zero-length arrays are allowed. q
// writes the types the reason names.
func ByValueProblem(t types.Type, q types.Qualifier) (aggregate bool, why string) {
	if isCudaNamed(t, "Float16") || isCudaNamed(t, "Array2") || isCudaNamed(t, "Array3") {
		return false, ""
	}
	switch t.Underlying().(type) {
	case *types.Array, *types.Struct:
	default:
		return false, ""
	}
	var walk func(t types.Type, path string) string
	walk = func(t types.Type, path string) string {
		if _, ok := t.(*types.TypeParam); ok || isCudaNamed(t, "Float16") {
			return ""
		}
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if u.Info()&(types.IsInteger|types.IsFloat|types.IsComplex|types.IsBoolean) != 0 && u.Kind() != types.UnsafePointer {
				return ""
			}
		case *types.Array:
			return walk(u.Elem(), path+"[i]")
		case *types.Struct:
			for i := range u.NumFields() {
				f := u.Field(i)
				sep := "."
				if path == "" {
					sep = ""
				}
				if w := walk(f.Type(), path+sep+f.Name()); w != "" {
					return w
				}
			}
			return ""
		}
		what := "field " + path
		if path == "[i]" {
			what = "the element"
		}
		return fmt.Sprintf("%s has type %s, which %s", what, types.TypeString(t, q), kindWord(t))
	}
	return true, walk(t, "")
}

// kindWord says what kind of type t is, for a refusal.
func kindWord(t types.Type) string {
	switch t.Underlying().(type) {
	case *types.Pointer:
		return "is a pointer"
	case *types.Slice:
		return "is a slice"
	case *types.Map:
		return "is a map"
	case *types.Signature:
		return "is a func"
	case *types.Interface:
		return "is an interface"
	case *types.Chan:
		return "is a channel"
	case *types.Basic:
		if u := t.Underlying().(*types.Basic); u.Info()&types.IsString != 0 {
			return "is a string"
		}
	}
	return "a kernel argument cannot hold"
}

// IsPlainStruct reports whether t is a struct whose fields are numbers,
// bools, arrays of them and such structs (at least one field): memory
// that kernels read and write in place, laid out on the device exactly as
// Go lays it out on the host.
func IsPlainStruct(t types.Type) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || st.NumFields() == 0 {
		return false
	}
	var plain func(t types.Type) bool
	plain = func(t types.Type) bool {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			return u.Info()&(types.IsInteger|types.IsFloat|types.IsComplex|types.IsBoolean) != 0 && u.Kind() != types.UnsafePointer
		case *types.Array:
			return plain(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				if !plain(u.Field(i).Type()) {
					return false
				}
			}
			return true
		}
		return false
	}
	return plain(st)
}

func isNumber(t types.Type) bool {
	if _, ok := t.(*types.TypeParam); ok {
		return true
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat|types.IsComplex) != 0
}

func isCudaNamed(t types.Type, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == CudaPath && n.Obj().Name() == name
}

// vetSignature refuses device-function parameter and result types that have
// no GPU representation; the kernel's func parameters are allowed.
func vetSignature(ft *ast.FuncType, info *types.Info, funcParams map[types.Object]bool, d *diags) {
	for _, list := range []*ast.FieldList{ft.Params, ft.Results} {
		if list == nil {
			continue
		}
		for _, f := range list.List {
			if len(f.Names) > 0 && funcParams[info.Defs[f.Names[0]]] {
				continue
			}
			if t := info.TypeOf(f.Type); t != nil {
				if msg := badType(t); msg != "" {
					d.add(f.Type.Pos(), "%s", msg)
				}
			}
		}
	}
}

// badType says why a value of type t cannot exist in a kernel, or "".
func badType(t types.Type) string {
	seen := map[types.Type]bool{}
	var walk func(t types.Type) string
	walk = func(t types.Type) string {
		if seen[t] {
			return ""
		}
		seen[t] = true
		switch u := t.Underlying().(type) {
		case *types.Map:
			return "cannot use a map in a kernel; pass a slice and index it instead"
		case *types.Chan:
			return "cannot use a channel in a kernel; threads of a block communicate through shared memory (cuda.SharedArray) and t.SyncThreads()"
		case *types.Interface:
			if _, isTP := t.(*types.TypeParam); isTP {
				return ""
			}
			return "cannot use an interface value in a kernel; use a concrete type, or a type parameter constrained by the interface"
		case *types.Signature:
			return "cannot use a function value in a kernel; call the function directly (a function literal that captures nothing may be assigned once to a local variable and called)"
		case *types.Basic:
			if u.Info()&types.IsString != 0 {
				return "cannot use a string in a kernel (only a constant format string of cuda.Printf); pass the text's bytes as a []byte or []uint8"
			}
			if u.Kind() == types.UnsafePointer {
				return "unsafe.Pointer cannot be used in a kernel; index slices instead"
			}
		case *types.Slice:
			return walk(u.Elem())
		case *types.Array:
			return walk(u.Elem())
		case *types.Pointer:
			if _, ok := u.Elem().Underlying().(*types.Slice); ok {
				return "cannot use a pointer to a slice in a kernel; pass the slice itself (it already refers to the same memory)"
			}
			return walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				if m := walk(u.Field(i).Type()); m != "" {
					return m
				}
			}
		}
		return ""
	}
	return walk(t)
}

// packageVar reports whether v is a package-level variable of one of the
// program's packages (the kernel's, or one it calls).
func packageVar(v *types.Var, srcs map[*types.Package]source) bool {
	if v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return false
	}
	_, ok := srcs[v.Pkg()]
	return ok
}

// vetGlobalWrite refuses writes to (and addresses of) package-level variables.
func vetGlobalWrite(e ast.Expr, info *types.Info, srcs map[*types.Package]source, d *diags) {
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.IndexExpr:
			if _, isSlice := info.TypeOf(x.X).Underlying().(*types.Slice); isSlice {
				return
			}
			e = x.X
			continue
		case *ast.SelectorExpr:
			if v, ok := info.Uses[x.Sel].(*types.Var); ok && packageVar(v, srcs) {
				e = x.Sel // pkg.Var: another package's variable
				continue
			}
			e = x.X
			continue
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && packageVar(v, srcs) {
				d.add(x.Pos(), "cannot write to package-level variable %s in a kernel: every thread would share it and the host would not see it; write into a slice parameter instead", x.Name)
			}
		}
		return
	}
}

// isTable reports whether a package-level variable is a read-only table the
// compiler can place in global memory.
func isTable(v *types.Var, srcs map[*types.Package]source) bool {
	_, found, ok := tableInit(srcs[v.Pkg()], v)
	return found && ok
}

func vetBody(body *ast.BlockStmt, info *types.Info, srcs map[*types.Package]source, funcParams map[types.Object]bool, d *diags) {
	callOnly := callOnlyFuncs(body, info)
	recursive := recursiveClosures(body, info)
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			d.add(n.Pos(), "cannot start a goroutine in a kernel; every GPU thread already runs the kernel, so split the work by thread index (t.Grid1())")
			return false
		case *ast.DeferStmt:
			d.add(n.Pos(), "defer is not supported in kernels; call the function at the end of the kernel (before each return)")
			return false
		case *ast.SelectStmt:
			d.add(n.Pos(), "select is not supported in kernels; threads of a block communicate through shared memory and t.SyncThreads()")
			return false
		case *ast.SendStmt:
			d.add(n.Pos(), "cannot send on a channel in a kernel; threads of a block communicate through shared memory (cuda.SharedArray) and t.SyncThreads()")
			return false
		case *ast.RangeStmt:
			// One sentence for the construct, not the compiler's view of
			// its iterator (issue 21, item 16).
			if tv, ok := info.Types[n.X]; ok {
				if b, isBasic := tv.Type.Underlying().(*types.Basic); isBasic && b.Info()&types.IsString != 0 {
					d.add(n.Pos(), "range over a string is not supported in kernels (strings are not); range over a []byte or []rune parameter")
					return false
				}
			}
		case *ast.TypeSwitchStmt:
			d.add(n.Pos(), "type switches need interfaces, which kernels do not support; use a concrete type or a generic function")
			return false
		case *ast.TypeAssertExpr:
			d.add(n.Pos(), "type assertions need interfaces, which kernels do not support; use a concrete type or a generic function")
			return false
		case *ast.FuncLit:
			if v := recursive.lits[n]; v != nil {
				if other := capturedOtherThan(n, v, info); other != nil {
					// One sentence for the construct; the variable's
					// other uses (its declaration, the assignment, the
					// calls) are not reported again as function values.
					d.add(n.Pos(), "a recursive closure may capture only its own variable (%s) in a kernel, but this one also captures %s; pass %s to it as an argument, or declare it as a top-level function (func %s(...)), which may call itself", v.Name(), other.Name(), other.Name(), v.Name())
					return false
				}
			}
			if recursive.lits[n] != nil {
				return true // captures only itself: a recursive device function (compiler/closures.go)
			}
			if v := capturedVar(n, info); v != nil {
				d.add(n.Pos(), "closures that capture variables (here %s) are not supported in kernels; write a top-level device function and pass %s as an argument", v.Name(), v.Name())
				return false
			}
		case *ast.CallExpr:
			if vetCall(n, info, d) {
				return false
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				vetGlobalWrite(l, info, srcs, d)
			}
		case *ast.IncDecStmt:
			vetGlobalWrite(n.X, info, srcs, d)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				vetGlobalWrite(n.X, info, srcs, d)
			}
		case *ast.Ident:
			obj := info.Uses[n]
			if v, ok := obj.(*types.Var); ok && packageVar(v, srcs) {
				if !isTable(v, srcs) {
					d.add(n.Pos(), "cannot use package-level variable %s in a kernel: the GPU does not see it; pass it as a parameter, or declare it as a constant (a variable initialized with constants, or with an array or struct literal of constants, n-d arrays and arrays of structs included, is allowed as a read-only table)", n.Name)
				}
				return true
			}
			if obj == nil {
				obj = info.Defs[n]
			}
			if funcParams[obj] {
				return true // the compiler checks that it is only called
			}
			if v, ok := obj.(*types.Var); ok && recursive.vars[v] {
				return true // reported once, at the function literal
			}
			if v, ok := obj.(*types.Var); ok && !callOnly[v] {
				if msg := badType(v.Type()); msg != "" {
					d.add(n.Pos(), "%s", msg)
				}
			}
		case ast.Expr:
			if tv, ok := info.Types[n]; ok && tv.Value == nil && tv.IsValue() {
				if _, isLit := n.(*ast.BasicLit); !isLit {
					if _, isFunc := tv.Type.Underlying().(*types.Signature); !isFunc {
						if msg := badType(tv.Type); msg != "" {
							d.add(n.Pos(), "%s", msg)
						}
					}
				}
			}
		}
		return true
	})
}

// vetCall refuses builtins that allocate or need a runtime; it reports whether
// the call was refused (and its operands need no further checks).
func vetCall(call *ast.CallExpr, info *types.Info, d *diags) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		// Calls through function values are refused by the type check above;
		// method values on interfaces likewise.
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	if !ok {
		return false
	}
	switch b.Name() {
	case "append":
		d.add(call.Pos(), "append may allocate on the heap, which kernels cannot do; write into a slice parameter or a fixed-size array with an index")
		return true
	case "make":
		for _, a := range call.Args[1:] {
			if tv := info.Types[a]; tv.Value == nil {
				d.add(call.Pos(), "make with a size not known at compile time allocates on the heap, which kernels cannot do; use a fixed-size array (var buf [N]T), cuda.SharedArray with a constant size, or cuda.DynamicSharedArray")
				return true
			}
		}
		if _, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Slice); !ok {
			return false // map or chan: the type check reports it
		}
	case "panic":
		// A constant, or errors.New of a constant string: the compiler
		// knows what the panic prints (issue 21, item 4).
		if len(call.Args) == 1 && !PanicArgOK(call.Args[0], info) {
			d.add(call.Pos(), "panic in a kernel takes a constant string, number or bool, or errors.New(\"constant text\"); write the value into a slice parameter to report it")
		}
		return true
	case "print", "println":
		d.add(call.Pos(), "%s is not supported in kernels; use cuda.Printf", b.Name())
		return true
	case "recover":
		d.add(call.Pos(), "recover is not supported in kernels (there is no panic to recover from)")
		return true
	case "copy":
		if len(call.Args) == 2 {
			if _, ok := info.TypeOf(call.Args[1]).Underlying().(*types.Slice); !ok {
				d.add(call.Pos(), "copy from a string is not supported in kernels (strings are not); copy from a slice")
				return true
			}
		}
	case "clear":
		if len(call.Args) == 1 {
			if _, ok := info.TypeOf(call.Args[0]).Underlying().(*types.Slice); !ok {
				return false // a map: reported as a map
			}
		}
	}
	return false
}

// callOnlyFuncs finds the local variables that hold a function literal
// for good (`f := func(...) {...}`, never assigned again) and are only
// called: such a call is a direct call of the literal, which the compiler
// lowers like a device function.
func callOnlyFuncs(body *ast.BlockStmt, info *types.Info) map[*types.Var]bool {
	lit := map[*types.Var]bool{}
	bad := map[*types.Var]bool{}
	called := map[*ast.Ident]bool{}
	funcVar := func(id *ast.Ident, defs bool) *types.Var {
		obj := info.Uses[id]
		if defs {
			obj = info.Defs[id]
		}
		v, ok := obj.(*types.Var)
		if !ok {
			return nil
		}
		if _, isFunc := v.Type().Underlying().(*types.Signature); !isFunc {
			return nil
		}
		return v
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				called[id] = true
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				if v := funcVar(id, true); v != nil {
					_, isLit := n.Rhs[min(i, len(n.Rhs)-1)].(*ast.FuncLit)
					if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) && isLit {
						lit[v] = true
					} else {
						bad[v] = true
					}
				} else if v := funcVar(id, false); v != nil {
					bad[v] = true // assigned again
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || called[id] {
			return true
		}
		if v := funcVar(id, false); v != nil {
			bad[v] = true // used as a value
		}
		return true
	})
	out := map[*types.Var]bool{}
	for v := range lit {
		if !bad[v] {
			out[v] = true
		}
	}
	return out
}

// closureVars are the recursive closures of a function body: lits maps
// each function literal that calls itself through a variable to the
// variable, and vars holds those variables.
type closureVars struct {
	lits map[*ast.FuncLit]*types.Var
	vars map[*types.Var]bool
}

// recursiveClosures finds the function literals assigned to a local
// variable that they use themselves (`var fib func(int) int; fib =
// func(n int) int { ... fib(n-1) ... }`), Go's way of writing a recursive
// closure (issue 21, item 9). One that captures nothing else compiles to a
// recursive device function; one that captures other variables is
// refused, as every closure that captures variables is.
func recursiveClosures(body *ast.BlockStmt, info *types.Info) closureVars {
	out := closureVars{lits: map[*ast.FuncLit]*types.Var{}, vars: map[*types.Var]bool{}}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			lit, isLit := ast.Unparen(as.Rhs[i]).(*ast.FuncLit)
			if !ok || !isLit {
				continue
			}
			v, ok := info.Uses[id].(*types.Var)
			if !ok || !usesVar(lit.Body, v, info) {
				continue
			}
			out.lits[lit] = v
			out.vars[v] = true
		}
		return true
	})
	return out
}

// capturedOtherThan returns a variable other than self that a function
// literal uses from an enclosing function, or nil.
func capturedOtherThan(lit *ast.FuncLit, self *types.Var, info *types.Info) *types.Var {
	var found *types.Var
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v == self || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return true
		}
		if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
			found = v
		}
		return true
	})
	return found
}

// usesVar reports whether v occurs in n.
func usesVar(n ast.Node, v *types.Var, info *types.Info) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// capturedVar returns a variable a function literal uses from an enclosing
// function, or nil.
func capturedVar(lit *ast.FuncLit, info *types.Info) *types.Var {
	var found *types.Var
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return true
		}
		if v.Pos() < lit.Pos() || v.Pos() >= lit.End() {
			found = v
		}
		return true
	})
	return found
}

// isBool reports whether t is bool or a type defined on it.
func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// PanicArgOK reports whether a kernel may panic with the expression: a
// constant of a predeclared type (what it prints is known when compiling;
// a named type is refused, since the methods that could decide what it
// prints are pruned from the kernel's source), or errors.New of a constant
// string.
func PanicArgOK(arg ast.Expr, info *types.Info) bool {
	if tv, ok := info.Types[arg]; ok && tv.Value != nil {
		_, basic := tv.Type.(*types.Basic)
		return basic
	}
	call, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fn, ok := info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != ErrorsPath || fn.Name() != "New" {
		return false
	}
	tv, ok := info.Types[call.Args[0]]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String
}
