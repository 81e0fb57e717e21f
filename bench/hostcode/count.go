package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// counts are the host lines of a program and, of them, the error checks.
type counts struct {
	host, errorChecks int
}

// countGo counts a Go file's code lines outside its package clause and
// imports, and the lines of its `if ... err != nil` statements.
func countGo(src string) (counts, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		return counts{}, err
	}
	skip := map[int]bool{fset.Position(f.Package).Line: true}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for l := fset.Position(g.Pos()).Line; l <= fset.Position(g.End()).Line; l++ {
				skip[l] = true
			}
		}
	}
	checks := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.IfStmt); ok && isErrCheck(s.Cond) {
			for l := fset.Position(s.Pos()).Line; l <= fset.Position(s.End()).Line; l++ {
				checks[l] = true
			}
		}
		return true
	})
	var c counts
	for i, line := range strings.Split(src, "\n") {
		n := i + 1
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "//") || skip[n] {
			continue
		}
		c.host++
		if checks[n] {
			c.errorChecks++
		}
	}
	return c, nil
}

// isErrCheck reports whether cond is `err != nil` (or an || of them).
func isErrCheck(cond ast.Expr) bool {
	b, ok := cond.(*ast.BinaryExpr)
	if !ok {
		return false
	}
	if b.Op == token.LOR {
		return isErrCheck(b.X) || isErrCheck(b.Y)
	}
	x, ok1 := b.X.(*ast.Ident)
	y, ok2 := b.Y.(*ast.Ident)
	return b.Op == token.NEQ && ok1 && ok2 && x.Name == "err" && y.Name == "nil"
}

// countPython counts a Python file's code lines outside imports and
// decorated (device) functions. Numba raises exceptions, so it has no
// error checks.
func countPython(src string) counts {
	var c counts
	inDevice := false
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		switch {
		case strings.HasPrefix(t, "@"):
			inDevice = true
			continue
		case inDevice && (indented || strings.HasPrefix(t, "def ")):
			continue
		}
		inDevice = false
		if strings.HasPrefix(t, "import ") || strings.HasPrefix(t, "from ") {
			continue
		}
		c.host++
	}
	return c
}
