package loopgen

import (
	"go/ast"
	"go/token"
)

// Labeled loops around barriers. A loop around barriers runs as a Go loop
// around the loops over the block's threads, so a labeled break or
// continue that every thread of the block reaches together (in a
// block-level list, or in code that runs once per block: a uniform
// compound or a promoted if) leaves or continues it for the whole block,
// written as it is. unlabelLoops takes the labels off the loops around
// barriers, which the transform then takes like others, and remembers
// them (loopLabels, labelOf); the block loop writes each label before its
// loop. A labeled break or continue in one thread's code that names a
// loop around barriers is refused, like an unlabeled one (checkBranches).

// unlabelLoops replaces each labeled for or range statement around
// barriers in the kernel's statement lists by the loop, recording its
// label.
func (f *fissioner) unlabelLoops() {
	f.loopLabels, f.labelOf = map[string]bool{}, map[ast.Stmt]string{}
	unlabel := func(list []ast.Stmt) {
		for i, s := range list {
			ls, ok := s.(*ast.LabeledStmt)
			if !ok || !f.hasColl(ls) {
				continue
			}
			switch ls.Stmt.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				list[i] = ls.Stmt
				f.loopLabels[ls.Label.Name] = true
				f.labelOf[ls.Stmt] = ls.Label.Name
			}
		}
	}
	ast.Inspect(f.fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			unlabel(n.List)
		case *ast.CaseClause:
			unlabel(n.Body)
		}
		return true
	})
}

// loopBranch reports whether b is a break or continue, unlabeled or
// naming a loop around barriers.
func (f *fissioner) loopBranch(b *ast.BranchStmt) bool {
	return (b.Tok == token.BREAK || b.Tok == token.CONTINUE) && (b.Label == nil || f.loopLabels[b.Label.Name])
}
