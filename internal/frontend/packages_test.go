package frontend_test

import (
	"errors"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/frontend"
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
