package loopgen

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/astutil"
)

// This file holds the flow-aware part of barrier fission's uniformity
// analysis and the renaming of redeclared variables.
//
// A variable is block-uniform when every assignment that can reach a use
// gives it the same value in every thread and is made under control flow
// that is the same in every thread. Assignments in block-level statement
// lists (around barriers) qualify when their values are uniform; so do
// those inside a block-level if, for, range or block without barriers
// (a *uniform compound*) whose conditions, bounds and assignments are all
// uniform: `s := 0; if n > 64 { s = 1 }`, `if t.BlockIdx().X == 0 {
// stride = 2 }`. Such a compound runs once per block, outside the loops
// over the block's threads, like a uniform assignment; a break or continue
// in it (`if k == p { break }`) leaves or continues the loop around
// barriers for the whole block. An assignment under a thread-dependent
// condition, in a compound that also does per-thread work (a store, a
// call), or in a statement of a region makes the variable thread
// dependent; a variable whose address is taken is never uniform. Loops
// are handled by the fixpoint in findUniform: a variable starts uniform
// and is dropped when one of its assignments reads a variable dropped.

// compoundOwners maps each assignment inside a block-level compound
// statement without barriers (if, for, range, block) to that statement.
func (f *fissioner) compoundOwners() map[ast.Node]ast.Stmt {
	owners := map[ast.Node]ast.Stmt{}
	for n := range f.block {
		s, ok := n.(ast.Stmt)
		if !ok || !isCompound(s) || f.hasColl(s) || f.promoted[s] {
			continue
		}
		ast.Inspect(s, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.AssignStmt, *ast.IncDecStmt, *ast.ValueSpec, *ast.RangeStmt:
				owners[n] = s
			}
			return true
		})
	}
	return owners
}

// isCompound reports whether s is a statement the uniformity analysis
// looks into: an if, a for, a range loop or a block.
func isCompound(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.BlockStmt:
		return true
	}
	return false
}

// uniformCompound reports whether s, a compound statement without
// barriers, does the same in every thread and nothing but assign uniform
// variables: its conditions and bounds are uniform, its statements are
// uniform assignments and declarations, uniform compounds, and unlabeled
// breaks and continues. loops counts the loops of s around the statement.
func (f *fissioner) uniformCompound(s ast.Stmt, loops int) bool {
	switch s := s.(type) {
	case *ast.AssignStmt, *ast.IncDecStmt:
		return f.uniformAssign(s)
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return false
		}
		if gd.Tok != token.VAR {
			return true // constants and types
		}
		for _, sp := range gd.Specs {
			if !f.uniformAssign(sp) {
				return false
			}
		}
		return true
	case *ast.EmptyStmt:
		return true
	case *ast.BranchStmt:
		// Unlabeled: inside s it leaves a loop of s; at its top, the loop
		// around barriers that holds s (a block-level statement has no
		// other loop or switch around it).
		return f.loopBranch(s)
	case *ast.BlockStmt:
		return f.uniformCompoundList(s.List, loops)
	case *ast.IfStmt:
		if s.Init != nil && !f.uniformCompound(s.Init, loops) || !f.uniformExpr(s.Cond) || !f.uniformCompoundList(s.Body.List, loops) {
			return false
		}
		return s.Else == nil || f.uniformCompound(s.Else, loops)
	case *ast.ForStmt:
		if s.Init != nil && !f.uniformCompound(s.Init, loops) ||
			s.Cond != nil && !f.uniformExpr(s.Cond) ||
			s.Post != nil && !f.uniformCompound(s.Post, loops) {
			return false
		}
		return f.uniformCompoundList(s.Body.List, loops+1)
	case *ast.RangeStmt:
		return f.uniformAssign(s) && f.uniformCompoundList(s.Body.List, loops+1)
	}
	return false
}

func (f *fissioner) uniformCompoundList(list []ast.Stmt, loops int) bool {
	for _, s := range list {
		if !f.uniformCompound(s, loops) {
			return false
		}
	}
	return true
}

// isUniformCompound reports whether s is a block-level compound statement
// without barriers that runs once per block (see uniformCompound).
func (f *fissioner) isUniformCompound(s ast.Stmt) bool {
	return f.block[s] && isCompound(s) && !f.hasColl(s) && !f.promoted[s] && f.uniformCompound(s, 0)
}

// promoteIfs marks the block-level ifs without barriers, under a uniform
// condition, that also do a thread's work but assign, at the top of a
// branch, a variable that a loop or if around barriers reads in its head
// (`if n > 4 { rounds = 2; a[i] = 0 }` before `for k := 0; k < rounds;
// k++ { ... t.SyncThreads() }`), or break or continue the loop around
// barriers there (`if k == n { a[i] = 0; break }`). A promoted if is transformed as one
// around barriers: a Go if around the loops over the block's threads, its
// branches block-level lists where the uniform assignment runs once per
// block. It reports whether it marked any; findUniform must then run
// again, and promoteIfs after it (promoting an if makes more variables
// uniform, and so more conditions).
// Ifs with an init statement are left alone.
func (f *fissioner) promoteIfs() bool {
	any := false
	for changed := true; changed; {
		changed = false
		needed := f.headVars()
		for n := range f.block {
			s, ok := n.(*ast.IfStmt)
			if !ok || f.promoted[s] || s.Init != nil || f.hasColl(s) || f.isUniformCompound(s) || !f.uniformExpr(s.Cond) {
				continue
			}
			if !f.assignsTop(s, needed) {
				continue
			}
			f.promoted[s] = true
			f.markBlock([]ast.Stmt{s})
			changed, any = true, true
		}
	}
	return any
}

// assignsTop reports whether a statement at the top of a branch of if s
// (or of its else-if chain, or of an if at the top of a branch) assigns one of vars or is a break or continue: made
// block-level, it runs once per block.
func (f *fissioner) assignsTop(s *ast.IfStmt, vars map[*types.Var]bool) bool {
	list := s.Body.List
	switch e := s.Else.(type) {
	case *ast.BlockStmt:
		list = append(slices.Clip(list), e.List...)
	case *ast.IfStmt:
		if f.assignsTop(e, vars) {
			return true
		}
	}
	for _, st := range list {
		var lhs []ast.Expr
		switch st := st.(type) {
		case *ast.AssignStmt:
			lhs = st.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{st.X}
		case *ast.BranchStmt:
			if f.loopBranch(st) {
				return true
			}
		case *ast.IfStmt:
			// A nested if may be promoted in turn, once the variables
			// its condition reads are found uniform (fissionTry).
			if !f.hasColl(st) && f.assignsTop(st, vars) {
				return true
			}
		case *ast.BlockStmt:
			if f.assignsTop(&ast.IfStmt{Body: st}, vars) {
				return true
			}
		}
		for _, l := range lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok {
				if v := f.varOf(id); v != nil && vars[v] {
					return true
				}
			}
		}
	}
	return false
}

// blockBranch reports whether s is an unlabeled break or continue in a
// block-level list: every thread of the block reaches it, so it leaves or
// continues the loop around barriers for the whole block.
func (f *fissioner) blockBranch(s ast.Stmt) bool {
	b, ok := s.(*ast.BranchStmt)
	return ok && f.block[s] && f.loopBranch(b)
}

// headVars returns the local variables that the heads of the statements
// around barriers read (conditions, init and post statements, ranges),
// and those that their assignments read, transitively.
func (f *fissioner) headVars() map[*types.Var]bool {
	vars := map[*types.Var]bool{}
	var read func(n ast.Node)
	read = func(n ast.Node) {
		if n == nil || n == ast.Node((*ast.BlockStmt)(nil)) {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && f.info.Uses[id] != nil {
				if v := f.varOf(id); v != nil && f.local[v] && !vars[v] {
					vars[v] = true
					for _, a := range f.assigns[v] {
						read(assignedFrom(a))
					}
				}
			}
			return true
		})
	}
	for n := range f.block {
		if st, ok := n.(ast.Stmt); !ok || !f.hasColl(st) && !f.promoted[st] {
			continue
		}
		switch s := n.(type) {
		case *ast.ForStmt:
			read(s.Init)
			if s.Cond != nil {
				read(s.Cond)
			}
			read(s.Post)
		case *ast.RangeStmt:
			read(s.X)
		case *ast.IfStmt:
			read(s.Init)
			read(s.Cond)
		}
	}
	return vars
}

// assignedFrom returns the part of assignment a that its values are
// computed from (a RangeStmt's range, an assignment's right side).
func assignedFrom(a ast.Node) ast.Node {
	switch a := a.(type) {
	case *ast.AssignStmt:
		return &ast.CompositeLit{Elts: a.Rhs}
	case *ast.ValueSpec:
		return &ast.CompositeLit{Elts: a.Values}
	case *ast.RangeStmt:
		return a.X
	}
	return nil
}

// shadowRenames returns fresh names for the local variables of kernel fd
// that hide a parameter or another local variable of it (a redeclaration
// in an inner scope: `x := x + 1` in a loop around barriers). The block
// loop declares the variables living across barriers at the head of each
// region's loop, where the inner declaration would clash with the outer
// one; the copy that fission transforms (inline.go) takes these names, in
// declarations and uses.
func shadowRenames(fd *ast.FuncDecl, info *types.Info, fresh func(string) string) map[types.Object]string {
	out := map[types.Object]string{}
	fn, _ := info.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return out
	}
	body := fn.Scope()
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || id.Name == "_" {
			return true
		}
		v, ok := info.Defs[id].(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || v.Parent() == body || v.Parent().Parent() == nil {
			return true
		}
		// The scopes between v's and the function's (itself included).
		for sc := v.Parent().Parent(); sc != nil; sc = sc.Parent() {
			if o, ok := sc.Lookup(v.Name()).(*types.Var); ok && o.Pos() < v.Pos() {
				out[v] = fresh(v.Name())
				break
			}
			if sc == body {
				break
			}
		}
		return true
	})
	return out
}

// switchesToIfs rewrites each switch statement with barriers or warp
// operations in its cases, or with plain expressions (plainSwitch), into
// a chain of ifs (`switch tag { case a, b:
// X; default: Y }` becomes `if tag == a || tag == b { X } else { Y }`,
// with the init statement, if any, in a block around), which the
// transform takes when the conditions are the same in every thread. The
// tag is then evaluated once per case; that is only written out when it
// is uniform, which reads no memory and calls nothing that could tell.
// A switch with fallthrough, or a break that leaves the switch, stays
// (and is refused).
func (f *fissioner) switchesToIfs() {
	astutil.Apply(f.fd.Body, nil, func(c *astutil.Cursor) bool {
		s, ok := c.Node().(*ast.SwitchStmt)
		if !ok || s.Tag != nil && f.hasColl(s.Tag) || s.Init != nil && f.hasColl(s.Init) {
			return true
		}
		if !f.hasColl(s) && !plainSwitch(s) {
			return true
		}
		if _, inList := c.Parent().(*ast.BlockStmt); !inList {
			if _, inCase := c.Parent().(*ast.CaseClause); !inCase {
				return true
			}
		}
		var def *ast.CaseClause
		var clauses []*ast.CaseClause
		for _, st := range s.Body.List {
			cc := st.(*ast.CaseClause)
			if switchBranches(cc) || slices.ContainsFunc(cc.List, func(e ast.Expr) bool { return f.hasColl(e) }) {
				return true
			}
			if cc.List == nil {
				def = cc
			} else {
				clauses = append(clauses, cc)
			}
		}
		paren := func(e ast.Expr) ast.Expr {
			if _, ok := e.(*ast.BinaryExpr); ok {
				return &ast.ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.Pos()}
			}
			return e
		}
		body := func(cc *ast.CaseClause) *ast.BlockStmt {
			return &ast.BlockStmt{Lbrace: cc.Colon, List: cc.Body}
		}
		var chain ast.Stmt
		if def != nil {
			chain = body(def)
		}
		for i := len(clauses) - 1; i >= 0; i-- {
			cc := clauses[i]
			var cond ast.Expr
			for _, e := range cc.List {
				at := cc.Case
				x := f.placed(e, at)
				if s.Tag != nil {
					x = &ast.BinaryExpr{X: paren(f.placed(s.Tag, at)), OpPos: at, Op: token.EQL, Y: paren(x)}
				}
				if cond == nil {
					cond = x
				} else {
					cond = &ast.BinaryExpr{X: cond, OpPos: at, Op: token.LOR, Y: paren(x)}
				}
			}
			// An else if has no position: a //line directive before it
			// would split "else" from "if".
			pos := token.NoPos
			if i == 0 {
				pos = cc.Case
			}
			chain = &ast.IfStmt{If: pos, Cond: cond, Body: body(cc), Else: chain}
		}
		if chain == nil {
			chain = &ast.EmptyStmt{Semicolon: s.Pos(), Implicit: true}
		}
		if s.Init != nil {
			chain = &ast.BlockStmt{Lbrace: s.Pos(), List: []ast.Stmt{s.Init, chain}}
		}
		c.Replace(chain)
		return true
	})
}

// plainSwitch reports whether the tag and case expressions of s read only
// variables and constants through operators and fields: a switch without
// barriers that is written as ifs all the same, so that an if under a
// uniform condition can assign a uniform variable (promoteIfs).
func plainSwitch(s *ast.SwitchStmt) bool {
	plain := func(e ast.Expr) bool {
		ok := true
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case nil, *ast.Ident, *ast.BasicLit, *ast.ParenExpr, *ast.BinaryExpr, *ast.SelectorExpr:
			case *ast.UnaryExpr:
				ok = ok && n.Op != token.AND && n.Op != token.ARROW
			default:
				ok = false
			}
			return ok
		})
		return ok
	}
	if s.Tag != nil && !plain(s.Tag) {
		return false
	}
	for _, st := range s.Body.List {
		for _, e := range st.(*ast.CaseClause).List {
			if !plain(e) {
				return false
			}
		}
	}
	return true
}

// switchBranches reports whether case cc holds a fallthrough or a break
// that leaves its switch.
func switchBranches(cc *ast.CaseClause) bool {
	found := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if found || c == nil {
				return false
			}
			switch c := c.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				// A break inside it is its own.
				if c != n || !nested {
					walk(c, true)
					return false
				}
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				// A labeled break names a loop (a labeled switch is
				// not rewritten), which it leaves from an if as well.
				if c.Tok == token.FALLTHROUGH || c.Tok == token.GOTO || c.Tok == token.BREAK && c.Label == nil && !nested {
					found = true
				}
			}
			return true
		})
	}
	for _, st := range cc.Body {
		walk(st, false)
	}
	return found
}

// placed returns a copy of e with every position at pos, so that printed
// in a case's condition it does not break the line; the copy's
// identifiers and expressions mean what e's do (f.info). Expressions of
// other kinds than a plain tag has are returned as they are.
func (f *fissioner) placed(e ast.Expr, pos token.Pos) ast.Expr {
	var c ast.Expr
	switch e := e.(type) {
	case *ast.Ident:
		id := &ast.Ident{NamePos: pos, Name: e.Name}
		if o := f.info.Uses[e]; o != nil {
			f.info.Uses[id] = o
		}
		c = id
	case *ast.BasicLit:
		c = &ast.BasicLit{ValuePos: pos, Kind: e.Kind, Value: e.Value}
	case *ast.ParenExpr:
		c = &ast.ParenExpr{Lparen: pos, X: f.placed(e.X, pos), Rparen: pos}
	case *ast.UnaryExpr:
		c = &ast.UnaryExpr{OpPos: pos, Op: e.Op, X: f.placed(e.X, pos)}
	case *ast.BinaryExpr:
		c = &ast.BinaryExpr{X: f.placed(e.X, pos), OpPos: pos, Op: e.Op, Y: f.placed(e.Y, pos)}
	case *ast.SelectorExpr:
		sel := &ast.SelectorExpr{X: f.placed(e.X, pos), Sel: f.placed(e.Sel, pos).(*ast.Ident)}
		if s, ok := f.info.Selections[e]; ok {
			f.info.Selections[sel] = s
		}
		c = sel
	case *ast.CallExpr:
		call := &ast.CallExpr{Fun: f.placed(e.Fun, pos), Lparen: pos, Rparen: pos}
		for _, a := range e.Args {
			call.Args = append(call.Args, f.placed(a, pos))
		}
		c = call
	default:
		return e
	}
	if tv, ok := f.info.Types[e]; ok {
		f.info.Types[c] = tv
	}
	return c
}
