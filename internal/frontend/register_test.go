package frontend_test

import (
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
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
		{"unparsable", "example.com/nugotest/broken", map[string][]byte{"b.go": []byte("package broken\n\nfunc (\n")}, "b.go:3"},
		{"two packages", "example.com/nugotest/two", map[string][]byte{"a.go": []byte("package a\n"), "b.go": []byte("package b\n")}, "declares package"},
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
