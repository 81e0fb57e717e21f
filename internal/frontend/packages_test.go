package frontend_test

import (
	"errors"
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/frontend"
	"github.com/nugo-dev/nugo/internal/testkernels/devlib"
)

// multimod is a module of its own under testdata: kernels in package kern
// call lib, other, a vendored and a replaced package.
var multimod = filepath.Join("testdata", "multimod", "kern")

func TestLoadOtherPackages(t *testing.T) {
	cases := []struct {
		kernel string
		pkgs   []string // packages the program must hold with bodies
		funcs  []string // functions of those packages the program must hold
	}{
		{"kCalls", []string{"example.com/multimod/lib"}, []string{"Clamp", "Dot"}},
		{"kGeneric[int64]", []string{"example.com/multimod/lib"}, []string{"Sum"}},
		{"kSame", []string{"example.com/multimod/lib", "example.com/multimod/other"}, []string{"Helper", "helper"}},
		{"kReplacedVendored", []string{"example.com/replaced/sub", "example.org/vend"}, []string{"Neg", "Inc"}},
	}
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			k, err := frontend.LoadDir(multimod, c.kernel)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range c.pkgs {
				p := k.Prog.ImportedPackage(path)
				if p == nil {
					t.Fatalf("program lacks package %s", path)
				}
				for _, fn := range c.funcs {
					if f := p.Func(fn); f != nil && len(f.Blocks) == 0 && f.TypeParams().Len() == 0 {
						t.Errorf("%s.%s has no body", path, fn)
					}
				}
			}
		})
	}
}

// TestLoadPrunesImported: only what kernels reach of an imported package
// is type-checked: lib's host code (fmt, os) and its method Unused are
// left out, and so are packages kern's host code alone uses.
func TestLoadPrunesImported(t *testing.T) {
	k, err := frontend.LoadDir(multimod, "kCalls")
	if err != nil {
		t.Fatal(err)
	}
	lib := k.Prog.ImportedPackage("example.com/multimod/lib")
	for _, name := range []string{"Describe", "Helper", "Counter"} {
		if lib.Members[name] != nil {
			t.Errorf("lib.%s was kept though kCalls does not reach it", name)
		}
	}
	for _, name := range []string{"Clamp", "Sum", "Vec", "Table", "Scale"} {
		if lib.Members[name] == nil {
			t.Errorf("lib.%s is missing", name)
		}
	}
	vec := lib.Pkg.Scope().Lookup("Vec").Type().(*types.Named)
	var methods []string
	for i := range vec.NumMethods() {
		methods = append(methods, vec.Method(i).Name())
	}
	if strings.Join(methods, ",") != "Dot" {
		t.Errorf("lib.Vec has methods %v, want only Dot (the one kCalls calls)", methods)
	}
	for _, path := range []string{"fmt", "os", "example.com/multimod/bad", "example.com/multimod/missing"} {
		if k.Prog.ImportedPackage(path) != nil {
			t.Errorf("program holds %s, which only host code or other kernels use", path)
		}
	}
}

func TestLoadOtherPackagesRefused(t *testing.T) {
	cases := []struct {
		kernel string
		file   string // the diagnostic's file, relative to testdata/multimod
		line   int
		want   []string
	}{
		{"kMissing", "kern/kern.go", 43, []string{"example.com/multimod/missing.F", "could not be loaded", filepath.Join("testdata", "multimod", "missing"), "NUGO_SOURCE_ROOT"}},
		{"kMap", "bad/bad.go", 13, []string{"cannot use a map in a kernel"}},
		{"kBad", "bad/bad.go", 8, []string{"os.Getenv", "standard-library package"}},
		{"kWrite", "kern/kern.go", 47, []string{"cannot write to package-level variable Counter"}},
		{"kReadVar", "kern/kern.go", 49, []string{"cannot use package-level variable Config"}},
		{"kStd", "kern/kern.go", 53, []string{"os.Args", "standard-library package"}},
	}
	for _, c := range cases {
		t.Run(c.kernel+"/"+c.want[0], func(t *testing.T) {
			_, err := frontend.LoadDir(multimod, c.kernel)
			var fe *frontend.Error
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *frontend.Error", err)
			}
			for _, d := range fe.Diags {
				if !strings.HasSuffix(d.Pos.Filename, filepath.FromSlash(c.file)) || d.Pos.Line != c.line {
					continue
				}
				for _, w := range c.want {
					if !strings.Contains(d.Msg, w) && !strings.Contains(d.String(), w) {
						t.Errorf("%s: message lacks %q", d, w)
					}
				}
				return
			}
			t.Fatalf("no diagnostic at %s:%d; got:\n%v", c.file, c.line, err)
		})
	}
}

// writeTree writes files (slash paths relative to dir) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const farKernel = `package main

import (
	"example.net/far/lib"
	"github.com/nugo-dev/nugo/cuda"
)

func k(t cuda.Thread, a []int32) {
	if i := t.Grid1(); i < len(a) {
		a[i] = lib.F(a[i])
	}
}
`

// TestLoadFromSourceRoot: with NUGO_SOURCE_ROOT=DIR, an imported package P
// is read from DIR/P, and its errors are at that file's positions.
func TestLoadFromSourceRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"example.net/far/lib/lib.go": "package lib\n\nfunc F(x int32) int32 {\n\tm := map[int32]int32{}\n\treturn m[x]\n}\n",
	})
	t.Setenv("NUGO_SOURCE_ROOT", root)
	_, err := frontend.LoadSource("far.go", []byte(farKernel), "k")
	var fe *frontend.Error
	if !errors.As(err, &fe) {
		t.Fatalf("got %v, want a positioned error in the imported file", err)
	}
	want := filepath.Join(root, "example.net", "far", "lib", "lib.go")
	if d := fe.Diags[0]; d.Pos.Filename != want || d.Pos.Line != 4 || !strings.Contains(d.Msg, "map") {
		t.Fatalf("got %v, want a map refused at %s:4", d, want)
	}
	writeTree(t, root, map[string]string{"example.net/far/lib/lib.go": "package lib\n\nfunc F(x int32) int32 { return x * 2 }\n"})
	k, err := frontend.LoadSource("far.go", []byte(farKernel), "k")
	if err != nil {
		t.Fatal(err)
	}
	if k.Prog.ImportedPackage("example.net/far/lib") == nil {
		t.Fatal("program lacks example.net/far/lib")
	}
}

// TestLoadSeesChangedImport: a changed file of an imported package is read
// again by the next load, as the kernel's own files are.
func TestLoadSeesChangedImport(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":     "module example.com/changing\n",
		"lib/lib.go": "package lib\n\nfunc F(x int32) int32 { return x }\n",
		"kern/k.go":  "package kern\n\nimport (\n\t\"example.com/changing/lib\"\n\t\"github.com/nugo-dev/nugo/cuda\"\n)\n\nfunc k(t cuda.Thread, a []int32) { a[0] = lib.F(a[0]) }\n",
	})
	kern := filepath.Join(dir, "kern")
	if _, err := frontend.LoadDir(kern, "k"); err != nil {
		t.Fatal(err)
	}
	writeTree(t, dir, map[string]string{"lib/lib.go": "package lib\n\n// F is gone.\nfunc G(x int32) int32 { return x }\n"})
	if _, err := frontend.LoadDir(kern, "k"); err == nil || !strings.Contains(err.Error(), "F") {
		t.Fatalf("got %v, want lib.F undefined after the change", err)
	}
}

// TestLoadDeviceCallsThirdPackage: a function bound to a func parameter
// lives in devlib and calls mix; both are loaded from source.
func TestLoadDeviceCallsThirdPackage(t *testing.T) {
	k, err := frontend.LoadDevice(devlib.Bucket)
	if err != nil {
		t.Fatal(err)
	}
	if k.PkgPath != "github.com/nugo-dev/nugo/internal/testkernels/devlib" || k.Func.Name() != "Bucket" {
		t.Fatalf("loaded %s.%s", k.PkgPath, k.Func.Name())
	}
	mix := k.Prog.ImportedPackage("github.com/nugo-dev/nugo/internal/testkernels/devlib/mix")
	if mix == nil || mix.Func("Hash") == nil || len(mix.Func("Hash").Blocks) == 0 {
		t.Fatal("program lacks mix.Hash with a body")
	}
	if mix.Func("Twice") != nil {
		t.Error("mix.Twice was kept though Bucket does not reach it")
	}
}

// TestRegisteredBeforeDisk: a registered package is used before the
// module's copy on disk.
func TestRegisteredBeforeDisk(t *testing.T) {
	// Registration lasts for the process: a module path of its own per run.
	regRuns++
	mod := fmt.Sprintf("example.com/regdisk%d", regRuns)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"go.mod":     "module " + mod + "\n",
		"lib/lib.go": "package lib\n\nfunc F(x int32) int32 { return x }\n",
		"kern/k.go":  "package kern\n\nimport (\n\t\"" + mod + "/lib\"\n\t\"github.com/nugo-dev/nugo/cuda\"\n)\n\nfunc k(t cuda.Thread, a []int32) { a[0] = lib.Registered(a[0]) }\n",
	})
	if _, err := frontend.LoadDir(filepath.Join(dir, "kern"), "k"); err == nil {
		t.Fatal("lib.Registered found before it was registered")
	}
	if err := frontend.RegisterPackage(mod+"/lib", map[string][]byte{"lib.go": []byte("package lib\n\nfunc Registered(x int32) int32 { return x + 1 }\n")}); err != nil {
		t.Fatal(err)
	}
	k, err := frontend.LoadDir(filepath.Join(dir, "kern"), "k")
	if err != nil {
		t.Fatal(err)
	}
	fn := k.Prog.ImportedPackage(mod + "/lib").Func("Registered")
	if fn == nil {
		t.Fatal("program lacks the registered lib.Registered")
	}
	if pos := k.Fset.Position(fn.Pos()); pos.Filename != mod+"/lib/lib.go" {
		t.Errorf("registered function at %s, want %s/lib/lib.go", pos, mod)
	}
}

var regRuns int

// BenchmarkLoadOtherPackages measures loading corpus kernels that call
// other packages (devlib, which calls mix) against one that calls only its
// own package: finding, pruning, checking and building the extra packages
// (their parse is cached after the first iteration).
func BenchmarkLoadOtherPackages(b *testing.B) {
	for _, name := range []string{"funcs/clamp", "packages/calls", "packages/methods"} {
		c, ok := corpus.Lookup(name)
		if !ok {
			b.Fatalf("no corpus case %s", name)
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := frontend.LoadFunc(c.Kernel); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
