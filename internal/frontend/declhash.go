package frontend

import (
	"go/ast"
	"path/filepath"

	"github.com/nugo-dev/nugo/internal/declhash"
)

// DeclHash returns the fingerprint (package declhash) of the declaration
// of fn, a top-level function, in the source the binary carries for its
// package (nugo gen's nugo_source.go) or else in the source tree; ok is
// false when neither has it. The CPU backend compares it with the one
// nugo gen recorded for a kernel's block loop, a transformed copy of the
// kernel's body that would otherwise go on running after the kernel was
// edited. inlined names the functions of fn's package that the block loop
// inlined; the fingerprint then covers their declarations too
// (declhash.OfAll, in that order).
func DeclHash(fn any, inlined ...string) (hash string, ok bool) {
	// An instantiation of a generic kernel (info.generic) has the
	// fingerprint of the generic declaration.
	info, err := locate(fn)
	if err != nil {
		return "", false
	}
	files, err := registeredFiles(info.pkgPath)
	if err != nil {
		return "", false
	}
	fd := declOf(files, info.name)
	if fd == nil {
		// The source tree: the kernel's file and the files of its
		// package beside it, where inlined helpers may be.
		path, err := findSource(info)
		if err != nil {
			return "", false
		}
		dir := filepath.Dir(path)
		if files, err = packageFiles(dir, dir, path, ""); err != nil {
			return "", false
		}
		if fd = declOf(files, info.name); fd == nil {
			return "", false
		}
	}
	decls := []*ast.FuncDecl{fd}
	for _, name := range inlined {
		d := declOf(files, name)
		if d == nil {
			return "", false
		}
		decls = append(decls, d)
	}
	h, err := declhash.OfAll(fset, decls)
	return h, err == nil
}
