package loopgen

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Shared memory read alike by every thread of the block.
//
// A kernel that decides on the device whether to go on (Numba's Laplace
// sweeps with a convergence flag, a trip count thread 0 computed) reads
// an element of a shared array after a barrier and loops or branches on
// it around barriers:
//
//	t.SyncThreads()
//	if flag[0] == 0 { break }      // or: k := int(cnt[0]); for r < k { ... }
//
// Every thread reads the same value when no thread writes the array
// between the barrier before the read and the next one: the writes before
// the barrier are done when any thread passes it. findSharedReads marks
// such reads, and exprClass counts them as uniform, so that the loop or
// if becomes a Go loop or if around the loops over the block's threads
// and reads the element once per block.
//
// Only where that is plain from the syntax: the array is a local variable
// set once, by SharedArray with a constant size, and used only by
// indexing it and len or cap (no alias, no helper it is passed to); the
// index is a constant within the size, so the read cannot panic; the
// read sits in the statements from one SyncThreads of a block-level list
// to the next SyncThreads of the same list (or to the kernel's end, at
// its top level), none of which writes the array (an assignment to an
// element, an increment, an address taken for an atomic), nested
// statements included. A loop right after a SyncThreads may also take
// its condition from an array its body writes, between barriers of the
// body (`for flag[0] != 0 { t.SyncThreads(); ...; flag[0] = 1; ...;
// t.SyncThreads() }`): see sharedLoopCond. Elsewhere the read stays the
// thread's.

// findSharedReads records in f.sharedReads the index expressions reading
// shared memory that every thread of the block reads alike.
func (f *fissioner) findSharedReads() {
	f.sharedReads = map[*ast.IndexExpr]bool{}
	arrays := f.plainSharedArrays()
	if len(arrays) == 0 {
		return
	}
	var lists func(n ast.Node)
	lists = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if b, ok := n.(*ast.BlockStmt); ok {
				f.sharedReadsIn(b.List, b == f.fd.Body, arrays)
			}
			return true
		})
	}
	lists(f.fd.Body)
}

// sharedReadsIn marks the reads of arrays in the spans of list that start
// after a SyncThreads and end at the next one (or, top being the kernel's
// body, at its end), where no statement writes the array read.
func (f *fissioner) sharedReadsIn(list []ast.Stmt, top bool, arrays map[*types.Var]int64) {
	for i, s := range list {
		if !f.block[s] || !f.isSyncThreads(s) {
			continue
		}
		end := len(list)
		for j := i + 1; j < len(list); j++ {
			if f.isSyncThreads(list[j]) {
				end = j
				break
			}
		}
		if end == len(list) && !top {
			continue
		}
		span := list[i+1 : end]
		written := map[*types.Var]bool{}
		for _, st := range span {
			f.sharedWrites(st, arrays, written)
		}
		if len(span) > 0 {
			if fs, ok := span[0].(*ast.ForStmt); ok {
				f.sharedLoopCond(fs, span[1:], arrays, written)
			}
		}
		for _, st := range span {
			ast.Inspect(st, func(n ast.Node) bool {
				ix, ok := n.(*ast.IndexExpr)
				if !ok {
					return true
				}
				v := f.sharedVar(ix.X, arrays)
				if v == nil || written[v] {
					return true
				}
				if f.constIndexIn(ix, arrays[v]) {
					f.sharedReads[ix] = true
				}
				return true
			})
		}
	}
}

// sharedLoopCond marks the reads in the condition of loop fs, which
// follows a SyncThreads, of the arrays that fs writes (written) but only
// between barriers of its body: its condition is read after the barrier
// before the loop or after the last barrier of the body (and the post
// statement), and then until the first barrier of the body or, leaving
// the loop, among the statements after it (after, up to the next
// SyncThreads). None of those may write the array, and no continue may
// jump from the middle of the body to the condition.
func (f *fissioner) sharedLoopCond(fs *ast.ForStmt, after []ast.Stmt, arrays map[*types.Var]int64, written map[*types.Var]bool) {
	if fs.Cond == nil || hasContinue(fs.Body) {
		return
	}
	body := fs.Body.List
	first, last := -1, -1
	for j, st := range body {
		if f.isSyncThreads(st) {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first < 0 {
		return
	}
	edges := map[*types.Var]bool{}
	for _, st := range body[:first] {
		f.sharedWrites(st, arrays, edges)
	}
	for _, st := range body[last+1:] {
		f.sharedWrites(st, arrays, edges)
	}
	for _, st := range after {
		if f.isSyncThreads(st) {
			break
		}
		f.sharedWrites(st, arrays, edges)
	}
	for _, st := range []ast.Stmt{fs.Init, fs.Post} {
		if st != nil {
			f.sharedWrites(st, arrays, edges)
		}
	}
	f.sharedWrites(fs.Cond, arrays, edges)
	ast.Inspect(fs.Cond, func(n ast.Node) bool {
		if ix, ok := n.(*ast.IndexExpr); ok {
			if v := f.sharedVar(ix.X, arrays); v != nil && written[v] && !edges[v] && f.constIndexIn(ix, arrays[v]) {
				f.sharedReads[ix] = true
			}
		}
		return true
	})
}

// hasContinue reports whether body holds a continue of its own loop (an
// unlabeled one outside inner loops) or any labeled continue.
func hasContinue(body *ast.BlockStmt) bool {
	found := false
	var walk func(n ast.Node, inner bool)
	walk = func(n ast.Node, inner bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, true)
					return false
				}
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if m.Tok == token.CONTINUE && (m.Label != nil || !inner) {
					found = true
				}
			}
			return !found
		})
	}
	walk(body, false)
	return found
}

// constIndexIn reports whether ix's index is a constant in [0, size).
func (f *fissioner) constIndexIn(ix *ast.IndexExpr, size int64) bool {
	tv, ok := f.info.Types[ix.Index]
	if !ok || tv.Value == nil {
		return false
	}
	k, exact := constant.Int64Val(constant.ToInt(tv.Value))
	return exact && k >= 0 && k < size
}

// isSyncThreads reports whether s is a statement calling t.SyncThreads().
func (f *fissioner) isSyncThreads(s ast.Stmt) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := ast.Unparen(es.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	k, name := f.g.collective(call)
	return k == collBarrier && name == "SyncThreads"
}

// sharedVar returns the array of arrays that e names, or nil.
func (f *fissioner) sharedVar(e ast.Expr, arrays map[*types.Var]int64) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v := f.varOf(id)
	if _, ok := arrays[v]; !ok || v == nil {
		return nil
	}
	return v
}

// sharedWrites adds to written the arrays that n writes: an element
// assigned or incremented, or its address taken.
func (f *fissioner) sharedWrites(n ast.Node, arrays map[*types.Var]int64, written map[*types.Var]bool) {
	mark := func(e ast.Expr) {
		if ix, ok := ast.Unparen(e).(*ast.IndexExpr); ok {
			if v := f.sharedVar(ix.X, arrays); v != nil {
				written[v] = true
			}
		}
	}
	eachWrite(n, f.info, func(x ast.Expr, kind writeKind, _ ast.Node) {
		switch kind {
		case writeAssign, writeIncDec, writeAddr:
			mark(x)
		}
	})
}

// plainSharedArrays returns the kernel's local variables set once, by
// SharedArray with a constant size (mapped to it), and otherwise only
// indexed or measured with len or cap.
func (f *fissioner) plainSharedArrays() map[*types.Var]int64 {
	arrays := map[*types.Var]int64{}
	defs := map[*ast.Ident]bool{}
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		id, ok := as.Lhs[0].(*ast.Ident)
		call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || !isCall || len(call.Args) != 2 {
			return true
		}
		fn := f.g.callee(call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != cudaPath || fn.Name() != "SharedArray" {
			return true
		}
		v := f.varOf(id)
		tv, ok := f.info.Types[call.Args[1]]
		if v == nil || !f.single[v] || f.addr[v] || !ok || tv.Value == nil {
			return true
		}
		if size, exact := constant.Int64Val(constant.ToInt(tv.Value)); exact {
			arrays[v] = size
			defs[id] = true
		}
		return true
	})
	// Any other use of the variable (an alias, an argument, a range)
	// drops it.
	ok := map[*ast.Ident]bool{}
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			if id, isID := ast.Unparen(n.X).(*ast.Ident); isID {
				ok[id] = true
			}
		case *ast.CallExpr:
			if id, isID := ast.Unparen(n.Fun).(*ast.Ident); isID && len(n.Args) == 1 {
				if b, isB := f.info.Uses[id].(*types.Builtin); isB && (b.Name() == "len" || b.Name() == "cap") {
					if a, isID := ast.Unparen(n.Args[0]).(*ast.Ident); isID {
						ok[a] = true
					}
				}
			}
		}
		return true
	})
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID && !defs[id] && !ok[id] {
			if v := f.varOf(id); v != nil {
				delete(arrays, v)
			}
		}
		return true
	})
	return arrays
}
