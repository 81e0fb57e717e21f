package loopgen

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// Parameters assigned and variables redefined: two rewrites of the copy
// that barrier fission transforms (inline.go), done before it, each
// giving a program that does exactly what the kernel does.
//
// A block loop reads the kernel's parameters from variables that every
// block of a worker shares, so the kernel must not assign them. A kernel
// that does (`n = min(n, len(a))`, `a = a[off:]`, `i += t.ThreadIdx().X`)
// gets, in the copy, a parameter under a fresh name and a local variable
// of the parameter's name declared from it as the body's first statement
// (paramLocals): on the goroutine path each thread has its own copy of
// its arguments, and the local variable is just that copy; the analysis
// finds it uniform or a thread's like any other local variable, and a
// uniform one is declared once per block.
//
// The uniformity analysis keeps one verdict per variable. A variable
// declared in a statement list and assigned as a whole by later
// statements of that same list (`m := n; for k < m { ...
// t.SyncThreads() }; m = tid`) holds, after each such assignment, a value
// that no statement before it reads again: splitDefs, tried when the
// kernel is refused as it is, declares a fresh variable at each such
// assignment and renames the uses up to the next one, so that each
// definition gets its own verdict.

// rewriteLocals rewrites nfd, the copy of kernel fd type-checked in ig,
// so that it assigns no parameter (paramLocals); if split, it also
// splits the variables redefined in straight-line lists (splitDefs). It
// returns the generator of the rewritten copy, type-checked anew (ig if
// nothing changed), or why the rewritten copy does not type-check.
func (g *generator) rewriteLocals(fd *ast.FuncDecl, ig *generator, nfd *ast.FuncDecl, inst, split bool) (*generator, string) {
	taken := map[string]bool{}
	for n := range g.names {
		taken[n] = true
	}
	for _, n := range ig.pkg.Types.Scope().Names() {
		taken[n] = true
	}
	collectNames(nfd, taken)
	fresh := func(base string) string {
		n := base
		for i := 2; taken[n]; i++ {
			n = base + strconv.Itoa(i)
		}
		taken[n] = true
		return n
	}
	retype := func() string {
		ng, err := g.retyped(fd, nfd, inst)
		if err != nil {
			pos := g.pkg.Fset.Position(fd.Pos())
			return fmt.Sprintf("%s:%d:%d: the kernel rewritten with local copies of its parameters or variables does not type-check: %v", shortFile(pos.Filename), pos.Line, pos.Column, err)
		}
		ig = ng
		return ""
	}
	if paramLocals(nfd, ig.pkg.TypesInfo, fresh) {
		if why := retype(); why != "" {
			return nil, why
		}
	}
	if !split {
		return ig, ""
	}
	// The names declared, which a conversion to a predeclared type must
	// not meet.
	info := ig.pkg.TypesInfo
	declared := map[string]bool{}
	for _, n := range ig.pkg.Types.Scope().Names() {
		declared[n] = true
	}
	ast.Inspect(nfd, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Defs[id] != nil {
			declared[id.Name] = true
		}
		return true
	})
	if splitDefs(nfd, info, declared, fresh) {
		if why := retype(); why != "" {
			return nil, why
		}
	}
	return ig, ""
}

// assignedRoots returns the variables that body assigns, as a whole or in
// part (an element of an array value, a field of a struct value), and
// those whose address it takes.
func assignedRoots(body ast.Node, info *types.Info) (assigned, addr map[*types.Var]bool) {
	f := &fissioner{info: info}
	assigned, addr = map[*types.Var]bool{}, map[*types.Var]bool{}
	root := func(e ast.Expr, into map[*types.Var]bool) {
		if id, ok := f.valueRoot(e).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				into[v] = true
			}
		}
	}
	eachWrite(body, info, func(x ast.Expr, kind writeKind, at ast.Node) {
		switch kind {
		case writeAssign, writeIncDec:
			root(x, assigned)
		case writeRange:
			if rangeAssigns(at) {
				root(x, assigned)
			}
		case writeAddr, writeSlice, writeMethod:
			root(x, addr)
		}
	})
	return assigned, addr
}

// paramLocals renames each parameter of nfd but the first (the Thread)
// that the body assigns or takes the address of (`p := &n; *p += tid`
// assigns it too), and declares a local variable of its name from it at
// the top of the body. It reports whether it renamed any.
func paramLocals(nfd *ast.FuncDecl, info *types.Info, fresh func(string) string) bool {
	assigned, addr := assignedRoots(nfd.Body, info)
	var decls []ast.Stmt
	for i, field := range nfd.Type.Params.List {
		for j, id := range field.Names {
			if i == 0 && j == 0 {
				continue
			}
			v, ok := info.Defs[id].(*types.Var)
			if !ok || !assigned[v] && !addr[v] {
				continue
			}
			name := fresh("nugoParam" + strings.ToUpper(id.Name[:1]) + id.Name[1:])
			decls = append(decls, &ast.AssignStmt{
				Lhs: []ast.Expr{&ast.Ident{NamePos: id.NamePos, Name: id.Name}}, TokPos: id.NamePos, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.Ident{NamePos: id.NamePos, Name: name}},
			})
			field.Names[j] = &ast.Ident{NamePos: id.NamePos, Name: name}
		}
	}
	if len(decls) == 0 {
		return false
	}
	nfd.Body.List = append(decls, nfd.Body.List...)
	return true
}

// splitDefs splits the variables of nfd that a statement list declares
// and assigns as a whole (`v = x` or `v op= x`, one variable on the left)
// in later statements of the same list: from each such assignment on, up
// to the next, the uses name a fresh variable that the assignment
// declares. The program is the same: the list runs its statements in
// order, so a use between two assignments reads the value of the first,
// and nothing jumps into the list (goto is refused). A later version
// that nothing names is not declared (`_ = x`). A variable whose address
// is taken, or one of whose versions only assignments name, is left
// alone, and so is an assignment of a value of another type or of a
// constant whose type is not a predeclared one. It reports whether it
// split any.
func splitDefs(nfd *ast.FuncDecl, info *types.Info, declared map[string]bool, fresh func(string) string) bool {
	_, addr := assignedRoots(nfd.Body, info)
	changed := false
	var lists func(n ast.Node)
	lists = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt:
				if splitList(n.List, info, addr, declared, fresh) {
					changed = true
				}
			case *ast.CaseClause:
				if splitList(n.Body, info, addr, declared, fresh) {
					changed = true
				}
			case *ast.CommClause:
				if splitList(n.Body, info, addr, declared, fresh) {
					changed = true
				}
			case *ast.FuncLit:
				return false
			}
			return true
		})
	}
	lists(nfd.Body)
	return changed
}

// splitList splits the variables that list declares (splitDefs).
func splitList(list []ast.Stmt, info *types.Info, addr map[*types.Var]bool, declared map[string]bool, fresh func(string) string) bool {
	changed := false
	for i, s := range list {
		for _, id := range defNames(s) {
			v, ok := info.Defs[id].(*types.Var)
			if !ok || id.Name == "_" || addr[v] {
				continue
			}
			if splitVar(v, list[i+1:], info, declared, fresh) {
				changed = true
			}
		}
	}
	return changed
}

// opAssign maps an assignment operator to its binary operator.
var opAssign = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
	token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
	token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.SHL_ASSIGN: token.SHL,
	token.SHR_ASSIGN: token.SHR, token.AND_NOT_ASSIGN: token.AND_NOT,
}

// redef returns the value that s assigns to v as a whole, alone, or nil:
// the right side of `v = x`, or `v op x` for `v op= x` (whose v is the
// statement's own identifier, so it names the version before).
func redef(s ast.Stmt, v *types.Var, info *types.Info) ast.Expr {
	as, ok := s.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil
	}
	id, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
	if !ok || info.Uses[id] != v {
		return nil
	}
	if as.Tok == token.ASSIGN {
		return as.Rhs[0]
	}
	if op, ok := opAssign[as.Tok]; ok {
		y := as.Rhs[0]
		if _, bin := y.(*ast.BinaryExpr); bin {
			y = &ast.ParenExpr{Lparen: y.Pos(), X: y, Rparen: y.End()}
		}
		return &ast.BinaryExpr{X: id, OpPos: as.TokPos, Op: op, Y: y}
	}
	return nil
}

// splitVar splits v over rest, the statements after its declaration.
// taken are the names that the package or the kernel declares.
func splitVar(v *types.Var, rest []ast.Stmt, info *types.Info, taken map[string]bool, fresh func(string) string) bool {
	var at []int      // the statements of rest that redefine v
	var xs []ast.Expr // the values they give it
	for i, s := range rest {
		if x := redef(s, v, info); x != nil {
			if _, op := x.(*ast.BinaryExpr); !op || rest[i].(*ast.AssignStmt).Tok == token.ASSIGN {
				// v op x has v's type; a plain value must have it too.
				tv := info.Types[x]
				if tv.IsNil() || !types.Identical(tv.Type, v.Type()) || tv.Value != nil && !predeclaredBasic(v.Type(), taken) {
					return false
				}
			}
			at = append(at, i)
			xs = append(xs, x)
		}
	}
	if len(at) == 0 {
		return false
	}
	// Each version must be read (a variable only assigned does not
	// compile): by the statements after its definition or by the right
	// side of the next one. A later version that nothing names at all
	// (`m = tid` with no use of m after it) is not declared: its
	// definition becomes `_ = tid`.
	rhs := func(k int) ast.Expr { return xs[k] }
	unnamed := map[int]bool{} // the versions that nothing names, by index in at
	for k := 0; k <= len(at); k++ {
		start, end := 0, len(rest)
		if k > 0 {
			start = at[k-1] + 1
		}
		n, named := 0, 0
		if k < len(at) {
			end = at[k]
			n = reads(rhs(k), v, info)
			named = uses(rhs(k), v, info)
		}
		for _, s := range rest[start:end] {
			n += reads(s, v, info)
			named += uses(s, v, info)
		}
		switch {
		case k > 0 && named == 0:
			unnamed[k-1] = true
		case n == 0:
			return false
		}
	}
	rename := func(n ast.Node, name string) {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
				id.Name = name
			}
			return true
		})
	}
	for k, i := range at {
		name := fresh(v.Name())
		as := rest[i].(*ast.AssignStmt)
		end := len(rest)
		if k+1 < len(at) {
			end = at[k+1]
			rename(rhs(k+1), name)
		}
		for _, s := range rest[i+1 : end] {
			rename(s, name)
		}
		x := xs[k]
		if tv := info.Types[x]; tv.Value != nil {
			// A constant takes v's type, not its default one.
			x = &ast.CallExpr{Fun: &ast.Ident{NamePos: x.Pos(), Name: v.Type().(*types.Basic).Name()}, Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
		}
		lhs := as.Lhs[0].(*ast.Ident)
		if unnamed[k] {
			rest[i] = &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: lhs.NamePos, Name: "_"}}, TokPos: as.TokPos, Tok: token.ASSIGN, Rhs: []ast.Expr{x}}
			continue
		}
		rest[i] = &ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{NamePos: lhs.NamePos, Name: name}}, TokPos: as.TokPos, Tok: token.DEFINE, Rhs: []ast.Expr{x}}
	}
	return true
}

// uses counts the identifiers in n that denote v.
func uses(n ast.Node, v *types.Var, info *types.Info) int {
	c := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && info.Uses[id] == v {
			c++
		}
		return true
	})
	return c
}

// reads counts the uses of v in n other than on the left of an
// assignment or an increment (which the compiler does not count as uses).
func reads(n ast.Node, v *types.Var, info *types.Info) int {
	c := 0
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				c += reads(r, v, info)
			}
			for _, l := range n.Lhs {
				if _, ok := ast.Unparen(l).(*ast.Ident); !ok {
					c += reads(l, v, info)
				}
			}
			return false
		case *ast.IncDecStmt:
			if _, ok := ast.Unparen(n.X).(*ast.Ident); !ok {
				c += reads(n.X, v, info)
			}
			return false
		case *ast.RangeStmt:
			c += reads(n.X, v, info) + reads(n.Body, v, info)
			return false
		case *ast.Ident:
			if info.Uses[n] == v {
				c++
			}
		}
		return true
	})
	return c
}

// predeclaredBasic reports whether t is a typed predeclared basic type
// whose name no declaration of taken hides.
func predeclaredBasic(t types.Type, taken map[string]bool) bool {
	b, ok := t.(*types.Basic)
	return ok && b.Info()&types.IsUntyped == 0 && types.Universe.Lookup(b.Name()) != nil && !taken[b.Name()]
}
