package frontend

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCudaStubMatchesPackage checks that every function and method the stub
// declares exists in package cuda's source with the same signature, so that
// kernels type-check against the API the CPU backend implements.
func TestCudaStubMatchesPackage(t *testing.T) {
	dir := filepath.Join("..", "..", "cuda")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("read package cuda: %v", err)
	}
	real := map[string]string{} // "Recv.Name" → signature text
	fs := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fs, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !fd.Name.IsExported() {
				continue
			}
			real[declKey(fd)] = sigText(fd.Type)
		}
	}
	stub, err := stubs.Import(CudaPath)
	if err != nil {
		t.Fatal(err)
	}
	src, _ := stubFS.ReadFile(stubFiles[CudaPath])
	f, err := parser.ParseFile(fs, "stub.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		n++
		key := declKey(fd)
		got, ok := real[key]
		if !ok {
			t.Errorf("stub declares %s, which package cuda lacks", key)
			continue
		}
		if want := sigText(fd.Type); got != want {
			t.Errorf("%s: package cuda has %s, stub has %s", key, got, want)
		}
	}
	if n < 30 || stub.Scope().Lookup("Thread") == nil {
		t.Errorf("stub looks incomplete: %d functions", n)
	}
	_ = types.Typ
}

func declKey(fd *ast.FuncDecl) string {
	if fd.Recv == nil {
		return fd.Name.Name
	}
	return recvTypeName(fd) + "." + fd.Name.Name
}

// sigText is a signature's parameter and result types, names dropped.
func sigText(ft *ast.FuncType) string {
	var b strings.Builder
	list := func(fl *ast.FieldList) {
		b.WriteString("(")
		if fl != nil {
			for i, f := range fl.List {
				n := len(f.Names)
				if n == 0 {
					n = 1
				}
				for j := 0; j < n; j++ {
					if i > 0 || j > 0 {
						b.WriteString(",")
					}
					b.WriteString(types.ExprString(f.Type))
				}
			}
		}
		b.WriteString(")")
	}
	list(ft.Params)
	list(ft.Results)
	return b.String()
}
