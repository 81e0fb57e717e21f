package frontend

import (
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/nugo-dev/nugo/internal/declhash"
)

// DeclHash returns the fingerprint (package declhash) of the declaration
// of fn, a top-level function, in the source the binary carries for its
// package (nugo gen's nugo_source.go) or else in the source tree; ok is
// false when neither has it. The CPU backend compares it with the one
// nugo gen recorded for a kernel's block loop, a transformed copy of the
// kernel's body that would otherwise go on running after the kernel was
// edited.
func DeclHash(fn any) (hash string, ok bool) {
	info, err := locate(fn)
	if err != nil || info.generic {
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
	}
	h, err := declhash.Of(fs, fd)
	return h, err == nil
}
