// Package declhash fingerprints a function declaration's Go text, so that
// code generated from a kernel's body (nugo gen's block loops) can tell at
// run time whether the kernel was edited after it was generated.
package declhash

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"hash/fnv"
)

// Of returns the fingerprint of fd as parsed into fset: a hash of the
// declaration as go/printer writes it without its doc comment, so that
// comments and layout outside the function do not count.
func Of(fset *token.FileSet, fd *ast.FuncDecl) (string, error) {
	c := *fd
	c.Doc = nil
	var b bytes.Buffer
	if err := printer.Fprint(&b, fset, &c); err != nil {
		return "", fmt.Errorf("printing %s: %w", fd.Name.Name, err)
	}
	h := fnv.New64a()
	h.Write(b.Bytes())
	return fmt.Sprintf("%016x", h.Sum64()), nil
}

// OfAll returns the fingerprint of a kernel's declaration together with
// those of the functions inlined into it (decls[0] is the kernel, the
// rest in the order the caller fixes): Of(decls[0]) alone when nothing is
// inlined, so that the fingerprints of other kernels do not change.
func OfAll(fset *token.FileSet, decls []*ast.FuncDecl) (string, error) {
	if len(decls) == 0 {
		return "", fmt.Errorf("no declaration to fingerprint")
	}
	h := fnv.New64a()
	for i, fd := range decls {
		s, err := Of(fset, fd)
		if err != nil {
			return "", err
		}
		if len(decls) == 1 {
			return s, nil
		}
		if i > 0 {
			h.Write([]byte{'+'})
		}
		h.Write([]byte(s))
	}
	return fmt.Sprintf("%016x", h.Sum64()), nil
}
