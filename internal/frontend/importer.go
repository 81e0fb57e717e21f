package frontend

import (
	"embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"sync"
)

// Import paths of the packages a kernel may use.
const (
	CudaPath    = "github.com/nugo-dev/nugo/cuda"
	Math32Path  = "github.com/nugo-dev/nugo/math32"
	DevmathPath = "github.com/nugo-dev/nugo/internal/devmath"
	MathPath    = "math"
	BitsPath    = "math/bits"
	CmplxPath   = "math/cmplx"
	// ErrorsPath is importable for panic(errors.New("...")) alone.
	ErrorsPath = "errors"
)

//go:embed stubs/*.go.txt
var stubFS embed.FS

var stubFiles = map[string]string{
	CudaPath:   "stubs/cuda.go.txt",
	MathPath:   "stubs/math.go.txt",
	BitsPath:   "stubs/bits.go.txt",
	CmplxPath:  "stubs/cmplx.go.txt",
	Math32Path: "stubs/math32.go.txt",
	ErrorsPath: "stubs/errors.go.txt",
}

// Supported reports whether a kernel may import the package path.
func Supported(path string) bool {
	_, ok := stubFiles[path]
	return ok
}

// fset is the one file set of every package the front end parses: the embedded
// stubs and the device math library are parsed once and shared by all
// programs, so their positions must live in the same set as the user's files.
var fset = token.NewFileSet()

// stubImporter type-checks each embedded stub once; the resulting packages are
// immutable and shared by all kernels (and goroutines).
type stubImporter struct {
	mu   sync.Mutex
	pkgs map[string]*types.Package
}

var stubs = &stubImporter{pkgs: map[string]*types.Package{}}

// Import implements types.Importer for the supported packages.
func (im *stubImporter) Import(path string) (*types.Package, error) {
	im.mu.Lock()
	defer im.mu.Unlock()
	return im.importLocked(path)
}

func (im *stubImporter) importLocked(path string) (*types.Package, error) {
	if p, ok := im.pkgs[path]; ok {
		return p, nil
	}
	name, ok := stubFiles[path]
	if !ok {
		return nil, fmt.Errorf("package %q is not available in kernels", path)
	}
	src, err := stubFS.ReadFile(name)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(fset, path+"/stub.go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("nugo stub of %s: %w", path, err)
	}
	conf := types.Config{
		IgnoreFuncBodies: true,
		Importer:         importerFunc(im.importLocked),
	}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		return nil, fmt.Errorf("nugo stub of %s: %w", path, err)
	}
	im.pkgs[path] = pkg
	return pkg, nil
}

type importerFunc func(path string) (*types.Package, error)

// Import calls f.
func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }
