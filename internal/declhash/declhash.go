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
