package frontend_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/testkernels/embedded"
)

func TestRegisterPackage(t *testing.T) {
	lib := map[string][]byte{"lib.go": []byte("package reglib\n\nfunc Twice(x int32) int32 { return x * 2 }\n")}
	if err := frontend.RegisterPackage("example.com/nugotest/reglib", lib); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path string
		files      map[string][]byte
		wantErr    string
	}{
		{"same again", "example.com/nugotest/reglib", lib, ""},
		{"conflict", "example.com/nugotest/reglib", map[string][]byte{"lib.go": []byte("package reglib\n\nfunc Twice(x int32) int32 { return x + x }\n")}, "registered before with different source"},
		{"no go files", "example.com/nugotest/none", map[string][]byte{"README": []byte("x")}, "no Go files"},
		{"bad path", "", lib, "not an import path"},
		{"stub", frontend.CudaPath, lib, "serves this package itself"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := frontend.RegisterPackage(c.path, c.files)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, c.wantErr)
			}
		})
	}

	// Registration parses nothing: text that does not parse, or files of
	// two packages, fail the compile of the first kernel that needs them.
	for _, c := range []struct {
		name, path string
		files      map[string][]byte
		wantErr    string
	}{
		{"unparsable", "example.com/nugotest/broken", map[string][]byte{"b.go": []byte("package broken\n\nfunc (\n")}, "b.go:3"},
		{"two packages", "example.com/nugotest/two", map[string][]byte{"a.go": []byte("package a\n"), "b.go": []byte("package b\n")}, "declares package"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := frontend.RegisterPackage(c.path, c.files); err != nil {
				t.Fatalf("registering: %v; want the error at first use", err)
			}
			src := fmt.Sprintf("package main\n\nimport (\n\tlib %q\n\t\"github.com/nugo-dev/nugo/cuda\"\n)\n\nfunc k(t cuda.Thread, a []int32) { a[0] = lib.F() }\n", c.path)
			_, err := frontend.LoadSource("use.go", []byte(src), "k")
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, c.wantErr)
			}
		})
	}

	src := `package main

import (
	"example.com/nugotest/reglib"
	"github.com/nugo-dev/nugo/cuda"
)

func k(t cuda.Thread, a []int32) {
	if i := t.Grid1(); i < len(a) {
		a[i] = reglib.Twice(a[i])
	}
}
`
	k, err := frontend.LoadSource("reg.go", []byte(src), "k")
	if err != nil {
		t.Fatal(err)
	}
	if k.Prog.ImportedPackage("example.com/nugotest/reglib") == nil {
		t.Fatal("the program lacks the registered package")
	}
}

// TestImportCycleRefused: Go forbids import cycles, but registered source
// can hold one; loading must end with an error, not recurse forever.
func TestImportCycleRefused(t *testing.T) {
	for path, src := range map[string]string{
		"example.com/nugotest/cyca": "package cyca\n\nimport \"example.com/nugotest/cycb\"\n\nfunc F(x int32) int32 { return cycb.G(x) }\n\nfunc H(x int32) int32 { return x }\n",
		"example.com/nugotest/cycb": "package cycb\n\nimport \"example.com/nugotest/cyca\"\n\nfunc G(x int32) int32 { return cyca.H(x) + 1 }\n",
	} {
		if err := frontend.RegisterPackage(path, map[string][]byte{"x.go": []byte(src)}); err != nil {
			t.Fatal(err)
		}
	}
	src := `package main

import (
	"example.com/nugotest/cyca"
	"github.com/nugo-dev/nugo/cuda"
)

func k(t cuda.Thread, a []int32) { a[0] = cyca.F(a[0]) }
`
	_, err := frontend.LoadSource("cyc.go", []byte(src), "k")
	if err == nil || !strings.Contains(err.Error(), "import cycle") {
		t.Fatalf("got %v, want an import cycle error", err)
	}
}

// TestLoadRegisteredKernel: a package that registers its own source has its
// kernels and device functions loaded from that text, not from disk.
func TestLoadRegisteredKernel(t *testing.T) {
	for _, load := range []func() (*frontend.Kernel, error){
		func() (*frontend.Kernel, error) { return frontend.LoadFunc(embedded.Kernel) },
		func() (*frontend.Kernel, error) { return frontend.LoadDevice(embedded.Square) },
	} {
		k, err := load()
		if err != nil {
			t.Fatal(err)
		}
		pos := k.Fset.Position(k.Func.Pos())
		if k.Dir != "" || pos.Filename != embedded.Path+"/embedded.go" {
			t.Errorf("%s loaded from dir %q, file %s; want the registered source", k.Name, k.Dir, pos.Filename)
		}
	}
}
