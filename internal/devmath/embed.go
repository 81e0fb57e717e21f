package devmath

import (
	"embed"
	"io/fs"
)

//go:embed doc.go dd.go exp.go log.go pow.go trig.go atan.go hyper.go misc.go erf.go gamma.go lgzeros.go tables.go f32.go f32b.go bitsfn.go cmplx.go
var source embed.FS

// Source returns the library's own Go source, file name to content, so that
// nugo's compiler can compile it into kernels in a binary that has no
// source tree. The files are the package's non-test .go files.
func Source() map[string][]byte {
	m := make(map[string][]byte)
	entries, err := fs.ReadDir(source, ".")
	if err != nil {
		return m // cannot happen: the FS is built into the binary
	}
	for _, e := range entries {
		b, err := source.ReadFile(e.Name())
		if err == nil {
			m[e.Name()] = b
		}
	}
	return m
}
