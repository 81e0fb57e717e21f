package srcgen

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestGenerateCopiesWhatKernelsReach: app's kernel and ufuncs reach lib's
// Poly, Scale (and through it a package-level variable), Pair's methods
// and an unexported helper; lib.go is copied whole, unused.go is not; the
// exported functions and methods of the copy are checked against the
// binary; the closure is reported as not carried.
func TestGenerateCopiesWhatKernelsReach(t *testing.T) {
	res, err := Generate("testdata/app")
	if err != nil {
		t.Fatal(err)
	}
	if res.Source == nil {
		t.Fatal("no file for a package with a kernel")
	}
	if want := []string{"app.go"}; !slices.Equal(res.Embedded, want) {
		t.Errorf("embedded %v, want %v", res.Embedded, want)
	}
	for _, root := range []string{"Apply", "twice", "lib.Poly"} {
		if !slices.Contains(res.Roots, root) {
			t.Errorf("roots %v lack %s", res.Roots, root)
		}
	}
	if len(res.Copied) != 1 || res.Copied[0].Path != "github.com/nugo-dev/nugo/internal/srcgen/testdata/lib" ||
		!slices.Equal(res.Copied[0].Files, []string{"lib.go"}) || res.Copied[0].Checks != 4 {
		t.Errorf("copied %+v; want lib.go of lib with 4 checks (Poly, Scale, Pair.Sum, (*Pair).Norm)", res.Copied)
	}
	src := string(res.Source)
	for _, want := range []string{
		Header,
		"//go:embed app.go\n",
		"cuda.RegisterSource(cuda.Source{",
		"Anchor: nugoSourceAnchor,",
		`"lib.go": ` + "`" + "// Package lib is a library",
		"{Func: nugosrc_lib.Poly, File: \"lib.go\", Line: 5, BodyLine: 6}",
		"{Func: nugosrc_lib.Pair.Sum, File: \"lib.go\", Line: 16, BodyLine: 16}",
		"{Func: (*nugosrc_lib.Pair).Norm,",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the generated file lacks %q:\n%s", want, src)
		}
	}
	if strings.Contains(src, "Unused") {
		t.Errorf("unused.go is copied:\n%s", src)
	}
	found := false
	for _, s := range res.Skipped {
		found = found || strings.Contains(s.Name, "literal") && strings.Contains(s.Reason, "top-level function")
	}
	if !found {
		t.Errorf("the closure is not reported: %+v", res.Skipped)
	}
}

// A package without kernels and without functions passed to cuda or
// vectorize gets no file, and Write removes one left from before.
func TestGenerateNothingToCarry(t *testing.T) {
	dir := copyDir(t, "testdata/plain")
	stale := filepath.Join(dir, FileName)
	if err := os.WriteFile(stale, []byte(Header+"\n\npackage plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if res.Source != nil {
		t.Fatalf("a file for a package with nothing to carry:\n%s", res.Source)
	}
	if changed, err := Write(res); err != nil || !changed {
		t.Fatalf("Write = %v, %v; want the old file removed", changed, err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the old generated file is still there: %v", err)
	}
}

// Every nugo_source.go of the repository is what nugo gen writes now.
func TestGeneratedFilesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIP: loads every generated package; not in -short")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".build") {
			return filepath.SkipDir
		}
		if d.Name() == FileName && !strings.Contains(path, string(filepath.Separator)+"testdata"+string(filepath.Separator)+"app") {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found %d generated files; the walk missed them", len(dirs))
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			res, err := Generate(dir)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := UpToDate(res); err != nil || !ok {
				t.Errorf("%s/%s is out of date (%v): run go generate ./%s", rel, FileName, err, rel)
			}
		})
	}
}

func TestImportable(t *testing.T) {
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"example.com/a", "example.com/b", true},
		{"example.com/m/x", "example.com/m/internal/y", true},
		{"example.com/m", "example.com/m/internal/y", true},
		{"example.com/other", "example.com/m/internal/y", false},
		{"example.com/m/x", "example.com/m/internal", true},
		{"example.com/n", "example.com/m/internal", false},
	} {
		if got := importable(c.from, c.to); got != c.want {
			t.Errorf("importable(%s, %s) = %v", c.from, c.to, got)
		}
	}
}

// copyDir copies a testdata package into a temporary directory inside
// this package's testdata (so that it stays in the module).
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dir, err := os.MkdirTemp("testdata", "tmp-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
