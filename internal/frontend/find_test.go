package frontend

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
)

func TestParseGoMod(t *testing.T) {
	cases := []struct {
		name, text string
		path       string
		replaces   []replace
		err        string
	}{
		{"plain", "module example.com/m\n\ngo 1.26\n", "example.com/m", nil, ""},
		{"quoted and comments", "// hello\nmodule \"example.com/q\" // the module\n", "example.com/q", nil, ""},
		{"replace line", "module m\nreplace example.com/a => ../a\nreplace example.com/b v1.0.0 => example.com/c v1.2.0\n", "m",
			[]replace{{old: "example.com/a", newPath: "../a"}, {old: "example.com/b", newPath: "example.com/c", version: "v1.2.0"}}, ""},
		{"replace block", "module m\n\nreplace (\n\texample.com/a => ./a\n\texample.com/b => /abs/b\n)\nrequire x v1\n", "m",
			[]replace{{old: "example.com/a", newPath: "./a"}, {old: "example.com/b", newPath: "/abs/b"}}, ""},
		{"no module", "go 1.26\n", "", nil, "no module directive"},
		{"bad replace", "module m\nreplace a b\n", "", nil, "malformed replace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, reps, err := parseGoMod([]byte(c.text))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, want an error containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if path != c.path || !reflect.DeepEqual(reps, c.replaces) {
				t.Fatalf("got %q %+v, want %q %+v", path, reps, c.path, c.replaces)
			}
		})
	}
}

func TestEscapeModPath(t *testing.T) {
	for in, want := range map[string]string{
		"github.com/BurntSushi/toml": "github.com/!burnt!sushi/toml",
		"example.com/lower":          "example.com/lower",
		"v1.0.0-RC1":                 "v1.0.0-!r!c1",
	} {
		if got := escapeModPath(in); got != want {
			t.Errorf("escapeModPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// writeFile writes text to dir/rel, making directories.
func writeFile(t *testing.T, dir, rel, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFindInModuleCache builds a module cache with case-encoded paths and
// finds packages of the binary's dependencies in it, and through replace
// directives recorded in the build information.
func TestFindInModuleCache(t *testing.T) {
	cache := t.TempDir()
	main := t.TempDir()
	writeFile(t, cache, "github.com/!big!corp/dev@v1.2.3-!beta/sub/sub.go", "package sub\n\nfunc F() int32 { return 1 }\n")
	writeFile(t, cache, "example.com/fork@v0.9.0/lib/lib.go", "package lib\n\nfunc G() int32 { return 2 }\n")
	writeFile(t, main, "local/lib/lib.go", "package lib\n\nfunc H() int32 { return 3 }\n")
	writeFile(t, main, "local/lib/lib_test.go", "package lib\n\nfunc TestX() {}\n")
	deps := []*debug.Module{
		{Path: "github.com/BigCorp/dev", Version: "v1.2.3-Beta"},
		{Path: "github.com/BigCorp", Version: "v0.1.0"}, // a shorter prefix: the longest wins
		{Path: "example.com/orig", Version: "v1.0.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v0.9.0"}},
		{Path: "example.com/loc", Version: "v1.0.0", Replace: &debug.Module{Path: "./local"}},
	}
	fd := &finder{deps: deps, modCache: cache, mainRoot: main}
	cases := []struct {
		path, dir string
		files     int
	}{
		{"github.com/BigCorp/dev/sub", filepath.Join(cache, "github.com", "!big!corp", "dev@v1.2.3-!beta", "sub"), 1},
		{"example.com/orig/lib", filepath.Join(cache, "example.com", "fork@v0.9.0", "lib"), 1},
		{"example.com/loc/lib", filepath.Join(main, "local", "lib"), 1},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			s, err := fd.find(c.path, "")
			if err != nil {
				t.Fatal(err)
			}
			if s.dir != c.dir || len(s.files) != c.files {
				t.Fatalf("found %s with %d files, want %s with %d", s.dir, len(s.files), c.dir, c.files)
			}
		})
	}
	_, err := fd.find("github.com/BigCorp/dev/nothere", "")
	var nf *notFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), filepath.Join(cache, "github.com", "!big!corp", "dev@v1.2.3-!beta", "nothere")) {
		t.Fatalf("got %v, want a not-found error naming the module cache directory", err)
	}
	if _, err := fd.find("encoding/json", ""); !errors.Is(err, errStdlib) {
		t.Fatalf("got %v, want the standard library refused", err)
	}
}

// TestFindSourceRoot: NUGO_SOURCE_ROOT=DIR serves import path P from DIR/P,
// for a binary built with -trimpath far from its source.
func TestFindSourceRoot(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "example.net/far/lib/lib.go", "package lib\n\nfunc F() int32 { return 1 }\n")
	fd := &finder{srcRoot: root}
	s, err := fd.find("example.net/far/lib", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "example.net", "far", "lib"); s.dir != want {
		t.Fatalf("found %s, want %s", s.dir, want)
	}
	fd.srcRoot = ""
	if _, err := fd.find("example.net/far/lib", ""); err == nil || !strings.Contains(err.Error(), "NUGO_SOURCE_ROOT (not set)") {
		t.Fatalf("got %v, want a not-found error mentioning NUGO_SOURCE_ROOT", err)
	}
}

func TestModuleCacheDir(t *testing.T) {
	t.Setenv("GOMODCACHE", "/x/cache")
	if got := moduleCache(); got != "/x/cache" {
		t.Errorf("with GOMODCACHE: %s", got)
	}
	t.Setenv("GOMODCACHE", "")
	t.Setenv("GOPATH", "/gp1"+string(os.PathListSeparator)+"/gp2")
	if got, want := moduleCache(), filepath.Join("/gp1", "pkg", "mod"); got != want {
		t.Errorf("with GOPATH: %s, want %s", got, want)
	}
	t.Setenv("GOPATH", "")
	t.Setenv("HOME", "/home/u")
	if got, want := moduleCache(), filepath.Join("/home/u", "go", "pkg", "mod"); got != want {
		t.Errorf("default: %s, want %s", got, want)
	}
}

// TestFindReplaceMainOnly: as with the go command, the replace directives
// and vendor/ of the main (kernel's) module count, those of a dependency's
// go.mod do not.
func TestFindReplaceMainOnly(t *testing.T) {
	main, dep := t.TempDir(), t.TempDir()
	writeFile(t, main, "go.mod", "module example.com/mainmod\n\nreplace example.com/x => ./xlocal\n")
	writeFile(t, main, "xlocal/p/p.go", "package p\n")
	writeFile(t, main, "vendor/example.com/v/v.go", "package v\n")
	writeFile(t, dep, "go.mod", "module example.com/dep\n\nreplace example.com/x => ./other\n")
	writeFile(t, dep, "other/p/p.go", "package p\n")
	writeFile(t, dep, "vendor/example.com/v/v.go", "package v\n")
	fd := &finder{mainRoot: main}
	s, err := fd.find("example.com/x/p", filepath.Join(main, "k"))
	if err != nil || s.dir != filepath.Join(main, "xlocal", "p") {
		t.Fatalf("from the main module: got %+v, %v", s, err)
	}
	if s, err := fd.find("example.com/v", filepath.Join(main, "k")); err != nil || s.dir != filepath.Join(main, "vendor", "example.com", "v") {
		t.Fatalf("vendored in the main module: got %+v, %v", s, err)
	}
	for _, p := range []string{"example.com/x/p", "example.com/v"} {
		if s, err := fd.find(p, filepath.Join(dep, "k")); err == nil {
			t.Errorf("%s from a dependency's module: found %s through its go.mod", p, s.dir)
		}
	}
}
