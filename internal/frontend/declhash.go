package frontend

import (
	"go/ast"
	"go/parser"
	"go/token"
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
	fs := fset
	files, err := registeredFiles(info.pkgPath)
	if err != nil {
		return "", false
	}
	fd := declOf(files, info.name)
	if fd == nil {
		path, err := findSource(info)
		if err != nil {
			return "", false
		}
		fs = token.NewFileSet()
		f, err := parser.ParseFile(fs, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return "", false
		}
		if fd = declOf([]*ast.File{f}, info.name); fd == nil {
			return "", false
		}
		files = []*ast.File{f}
		if len(inlined) > 0 {
			files = append(files, siblingFiles(fs, path)...)
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
	h, err := declhash.OfAll(fs, decls)
	return h, err == nil
}

// siblingFiles parses the other Go files of path's directory, those that
// parse, in name order.
func siblingFiles(fs *token.FileSet, path string) []*ast.File {
	names, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.go"))
	var files []*ast.File
	for _, n := range names {
		if n == path {
			continue
		}
		if f, err := parser.ParseFile(fs, n, nil, parser.SkipObjectResolution); err == nil {
			files = append(files, f)
		}
	}
	return files
}
