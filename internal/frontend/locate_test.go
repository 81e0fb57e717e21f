package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplitFuncName(t *testing.T) {
	cases := []struct {
		full, pkg, name string
		generic, bad    bool
	}{
		{"github.com/x/p.kernel", "github.com/x/p", "kernel", false, false},
		{"github.com/x/p.add[...]", "github.com/x/p", "add", true, false},
		{"main.k", "main", "k", false, false},
		{"github.com/x/p.outer.func1", "", "", false, true},
		{"github.com/x/p.T.M-fm", "", "", false, true},
	}
	for _, c := range cases {
		info, err := splitFuncName(c.full)
		if c.bad {
			if err == nil {
				t.Errorf("%s: want an error", c.full)
			}
			continue
		}
		if err != nil || info.pkgPath != c.pkg || info.name != c.name || info.generic != c.generic {
			t.Errorf("%s: got %+v, %v", c.full, info, err)
		}
	}
}

func TestSourceNotFound(t *testing.T) {
	t.Setenv("NUGO_SOURCE_ROOT", "/nonexistent-root")
	_, err := findSource(funcInfo{pkgPath: "example.com/p", name: "k", file: "example.com/p/k.go"})
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{"kernel example.com/p.k", "example.com/p/k.go", "/nonexistent-root/example.com/p/k.go", "go generate", "NUGO_SOURCE_ROOT to a directory DIR holding DIR/example.com/p/k.go"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}

// NUGO_SOURCE_ROOT finds a kernel's file whatever name the binary records
// for it: absolute (the tree moved since the build), module-relative
// (-trimpath), module@version (-trimpath, a dependency), in the import
// path's layout or the module cache's.
func TestFindSourceUnderRoot(t *testing.T) {
	root := t.TempDir()
	put := func(rel string) string {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("package p\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Setenv("NUGO_SOURCE_ROOT", root)
	for _, c := range []struct {
		name     string
		recorded string // the binary's name for the file
		layout   string // where it is under the root
	}{
		{"absolute, import path layout", "/build/home/u/m/p/k.go", "example.com/m/p/k.go"},
		{"trimpath", "example.com/m/p/k.go", "example.com/m/p/k.go"},
		{"trimpath with a version, kept without it", "example.com/m@v1.2.3/p/k.go", "example.com/m/p/k.go"},
		{"trimpath with a version, module cache layout", "example.com/m@v1.2.3/p/k.go", "example.com/m@v1.2.3/p/k.go"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := put(c.layout)
			defer os.Remove(want)
			got, err := findSource(funcInfo{pkgPath: "example.com/m/p", name: "k", file: c.recorded})
			if err != nil || got != want {
				t.Errorf("findSource = %q, %v; want %s", got, err, want)
			}
		})
	}
}

// A name recorded by -trimpath is found in the main module's tree, upward
// from the working directory, for a package and its external test package.
func TestFindSourceInModuleTree(t *testing.T) {
	t.Setenv("NUGO_SOURCE_ROOT", "")
	want, err := filepath.Abs("locate_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"github.com/nugo-dev/nugo/internal/frontend", "github.com/nugo-dev/nugo/internal/frontend_test"} {
		got, err := findSource(funcInfo{pkgPath: pkg, name: "k", file: "github.com/nugo-dev/nugo/internal/frontend/locate_test.go"})
		if err != nil || got != want {
			t.Errorf("%s: findSource = %q, %v; want %s", pkg, got, err, want)
		}
	}
}
