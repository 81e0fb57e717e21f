package loopgen

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const kernDir = "testdata/kern"

// TestGenerate checks what nugo gen finds in its test package and that
// the file it writes is the committed one, which go vet and go test
// compile with the package (see testdata/kern).
func TestGenerate(t *testing.T) {
	res, err := Generate(kernDir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Scale", "Mixed", "Rotate", "a1", "Generic[float32]", "Generic[other.Weight]"}; !slices.Equal(res.Kernels, want) {
		t.Errorf("kernels %v, want %v", res.Kernels, want)
	}
	// Instantiations count once however they are spelled (Sum[float32] in
	// kern.go and in ext_test.go as kern.Sum[float32]).
	if want := []string{"HalfSum", "Hypot", "Heavier", "Scaled", "Ratio", "Twice[float64]", "Sum[float32]", "Sum[other.Weight]", "Cube", "Square", "Sum[int32]"}; !slices.Equal(res.Ufuncs, want) {
		t.Errorf("vectorized functions %v, want %v", res.Ufuncs, want)
	}
	// Scaled's operands differ and Ratio's result is not its operands'
	// type: no reduction can take them. HalfSum's cuda.Float16 is a
	// struct, but a ufunc element, and gets its fold.
	if want := []string{"HalfSum", "Hypot", "Heavier", "Sum[float32]", "Sum[other.Weight]", "Sum[int32]"}; !slices.Equal(res.Folds, want) {
		t.Errorf("folds %v, want %v", res.Folds, want)
	}
	for _, s := range []string{"RegisterFold(Scaled", "RegisterScan(Scaled", "RegisterFold(Ratio", "RegisterScan(Ratio"} {
		if bytes.Contains(res.Source, []byte(s)) {
			t.Errorf("generated file has %q", s)
		}
	}
	wantSkips := map[string]string{
		"Unused":     "instantiate it nowhere",
		"Generic[T]": "type parameter T is not a concrete type",
		"Device":     "returns results",
		"Variadic":   "variadic",
		"OnLinux":    "build constraints",
		"Sum":        "without type arguments",
		"Sum[local]": "written in a test file, is neither predeclared nor a type of the package",
	}
	if len(res.Skipped) != len(wantSkips) {
		t.Errorf("skipped %v, want %d functions", res.Skipped, len(wantSkips))
	}
	for _, s := range res.Skipped {
		if w, ok := wantSkips[s.Name]; !ok || !strings.Contains(s.Reason, w) {
			t.Errorf("skipped %s (%s), want a reason with %q", s.Name, s.Reason, w)
		}
	}
	committed, err := os.ReadFile(filepath.Join(kernDir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Source, committed) {
		t.Errorf("generated file differs from %s/%s (run go generate there):\n%s", kernDir, FileName, res.Source)
	}
	// Names the package already uses are not reused by the file.
	for _, s := range []string{"cuda2 \"github.com/nugo-dev/nugo/cuda\"", "args2[0].([]complex64), args2[1].(complex128), args2[2].(cuda2.Array3[complex128])", "args2 []any", "a02, a12", "for t2, n2 := r2.StartGrid1(); n2 > 0; t2, n2 = r2.More() {",
		"func(acc2 other.Weight, x []other.Weight) other.Weight", "acc2 = Heavier(acc2, v2)\n\t\t\tout[i] = acc2",
		"other \"github.com/nugo-dev/nugo/internal/loopgen/testdata/kern/otherdir\"",
		"vectorize.RegisterFold(Sum[other.Weight], func(acc2 other.Weight, x []other.Weight) other.Weight"} {
		if !bytes.Contains(res.Source, []byte(s)) {
			t.Errorf("generated file lacks %q", s)
		}
	}
}

// TestGeneratedFileRuns compiles the committed file with its package and
// runs the package's tests, which reduce through the generated fold and
// scan: the go command skips testdata in ./..., so nothing else does.
func TestGeneratedFileRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs another package's tests")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "test", "-count=1", "./"+kernDir).CombinedOutput()
	if err != nil {
		t.Fatalf("go test ./%s: %v\n%s", kernDir, err, out)
	}
}

// checkCommitted fails t unless src, generated for the test package dir,
// is that package's committed generated file.
func checkCommitted(t *testing.T, dir string, src []byte) {
	t.Helper()
	committed, err := os.ReadFile(filepath.Join(dir, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, src) {
		t.Errorf("%s/%s is stale: run go run ./cmd/nugo gen ./internal/loopgen/%s", dir, FileName, dir)
	}
}

// TestGeneratedFilesCompile type-checks every test package's committed
// generated file with its package (go vet): the go command skips
// testdata in ./..., and a generated file that does not compile (a
// uniform statement hoisted above the declaration it reads) would break
// a user's package.
func TestGeneratedFilesCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds other packages")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*", "nugo_loops.go"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"vet"}
	for _, f := range files {
		if dir := filepath.Dir(f); !strings.Contains(filepath.Base(dir), "-") { // not a test's temporary copy
			args = append(args, "./"+filepath.ToSlash(dir))
		}
	}
	if len(args) < 5 {
		t.Fatalf("found %d generated test packages, want the committed ones: %v", len(args)-1, args[1:])
	}
	if out, err := exec.Command(goCmd, args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// A stale generated file (calling a kernel that is gone) does not stop
// its own regeneration.
func TestGenerateReplacesStaleFile(t *testing.T) {
	dir, err := os.MkdirTemp(filepath.Join("testdata"), "stale-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, f := range []string{"kern.go", "linux.go"} {
		src, err := os.ReadFile(filepath.Join(kernDir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stale := Header + "\n\npackage kern\n\nfunc init() { Gone(1, 2) }\n"
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Kernels) != 6 || res.Source == nil {
		t.Fatalf("got kernels %v and %d bytes", res.Kernels, len(res.Source))
	}
	changed, err := Write(res)
	if err != nil || !changed {
		t.Fatalf("Write: changed %v, %v", changed, err)
	}
	if again, err := Generate(dir); err != nil || !bytes.Equal(again.Source, res.Source) {
		t.Fatalf("regenerating over the new file: %v", err)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	src := []byte(Header + "\n\npackage p\n")
	steps := []struct {
		name    string
		source  []byte
		changed bool
		exists  bool
	}{
		{"new file", src, true, true},
		{"same file", src, false, true},
		{"nothing to generate removes it", nil, true, false},
		{"nothing to generate, no file", nil, false, false},
	}
	for _, s := range steps {
		changed, err := Write(&Result{Dir: dir, Source: s.source})
		if err != nil || changed != s.changed {
			t.Fatalf("%s: changed %v, %v; want %v", s.name, changed, err, s.changed)
		}
		if _, err := os.Stat(path); (err == nil) != s.exists {
			t.Fatalf("%s: file exists: %v, want %v", s.name, err == nil, s.exists)
		}
	}
	// A file of that name that nugo gen did not write is never touched.
	mine := []byte("package p // mine\n")
	if err := os.WriteFile(path, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, source := range [][]byte{src, nil} {
		if _, err := Write(&Result{Dir: dir, Source: source}); err == nil || !strings.Contains(err.Error(), "not written by nugo gen") {
			t.Errorf("overwriting a hand-written file: %v", err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, mine) {
			t.Errorf("the hand-written file changed to %q", got)
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	broken, err := os.MkdirTemp("testdata", "broken-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(broken) })
	if err := os.WriteFile(filepath.Join(broken, "b.go"), []byte("package b\n\nvar x int = \"s\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A fold registered for a function of other types is refused by the
	// compiler, naming the function: a stale nugo_loops.go cannot run the
	// wrong code.
	wrongFold, err := os.MkdirTemp("testdata", "wrongfold-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(wrongFold) })
	src := `package w

import "github.com/nugo-dev/nugo/vectorize"

func mixed(x float32, y float64) float64 { return float64(x) + y }

func init() {
	vectorize.RegisterFold(mixed, func(acc float64, x []float64) float64 { return acc })
}
`
	if err := os.WriteFile(filepath.Join(wrongFold, "w.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, want string
	}{
		{"does not build", broken, "does not build"},
		{"fold of another type", wrongFold, "in call to vectorize.RegisterFold, type func(x float32, y float64) float64 of mixed does not match"},
		{"package cuda", "../../cuda", "package cuda itself"},
		{"no directory", "testdata/none", "testdata/none is not a package directory"},
		{"a file", "loopgen.go", "loopgen.go is not a package directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Generate(tc.dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error with %q", err, tc.want)
			}
		})
	}
	// A package without kernels gets no file.
	res, err := Generate("../baseline")
	if err != nil || res.Source != nil {
		t.Fatalf("package without kernels: %v, %d bytes", err, len(res.Source))
	}
}

// TestCommittedFilesUpToDate regenerates every nugo_loops.go of the
// module: each must be what nugo gen writes now, from a package that says
// how to regenerate it.
func TestCommittedFilesUpToDate(t *testing.T) {
	root := moduleRoot(t)
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.Name() == FileName {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found %d generated files, want the corpus's, the examples' and the benchmarks'", len(dirs))
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(root, dir)
		t.Run(rel, func(t *testing.T) {
			res, err := Generate(dir)
			if err != nil {
				t.Fatal(err)
			}
			old, err := os.ReadFile(filepath.Join(dir, FileName))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(old, res.Source) {
				t.Errorf("%s/%s is out of date: run go generate ./%s", rel, FileName, rel)
			}
			if !hasGenerateLine(t, dir) {
				t.Errorf("no file of %s has the //go:generate line for nugo gen", rel)
			}
		})
	}
}

func hasGenerateLine(t *testing.T, dir string) bool {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte("//go:generate go tool nugo gen\n")) {
			return true
		}
	}
	return false
}

func moduleRoot(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// TestGenerateRecursion: kernels that reach a recursive function of their
// package (directly or through a helper, self or mutual recursion) run as
// depth-counting copies, registered with cuda.RegisterCallDepthBound; the
// copies check cuda.MaxCallDepth, pass the depth on, keep the user's
// positions (//line) and the package names of the generated file; a kernel
// without recursion keeps its plain loop (issue 21 item 5).
func TestGenerateRecursion(t *testing.T) {
	res, err := Generate("testdata/recur")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Fact", "Even"}; !slices.Equal(res.Bounded, want) {
		t.Errorf("bounded kernels %v, want %v", res.Bounded, want)
	}
	if want := []string{"Fact", "Even", "Plain"}; !slices.Equal(res.Kernels, want) {
		t.Errorf("kernels %v, want %v", res.Kernels, want)
	}
	src := string(res.Source)
	for _, s := range []string{
		"cuda.RegisterCallDepthBound(Fact, nugoDepth_Fact)",
		"cuda.RegisterCallDepthBound(Even, nugoDepth_Even)",
		"nugoDepth_Fact(t, a0, a1)",
		"\n\t\t\t\t\tPlain(t, a0)",
		"//line recur.go:13\nfunc nugoDepth_Fact(t cuda.Thread, ns []int64, out []float64) {",
		"math.Sqrt(nugoDepth_fact(1, ns[i]) * nugoDepth_fact(1, ns[i]))",
		"func nugoDepth_fact(nugoDepth int, n int64) float64 {\n//line recur.go:19\n\tif nugoDepth > cuda.MaxCallDepth {\n\t\tpanic(cuda.ErrCallDepth)\n\t}\n//line recur.go:19\n",
		"return float64(n) * nugoDepth_fact(nugoDepth+1, n-1)",
		"return nugoDepth_isOdd(nugoDepth+1, n-1)",
		// a one-line function: its body keeps the line of its declaration
		"//line recur.go:33\n\treturn nugoDepth_isEven(nugoDepth+1, n)\n}",
	} {
		if !strings.Contains(src, s) {
			t.Errorf("generated file lacks %q:\n%s", s, src)
		}
	}
	if strings.Contains(src, "nugoDepth_Plain") || strings.Contains(src, "func nugoDepth_Even") && strings.Count(src, "func nugoDepth_isEven") != 1 {
		t.Errorf("unexpected copies:\n%s", src)
	}
}
