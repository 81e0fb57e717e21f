package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// TestVet runs nugo vet over the testdata packages: it reports each kernel
// the GPU cannot run with its position, checks generic kernels per
// instantiation written in the package, and fails only when a kernel does
// not compile.
func TestVet(t *testing.T) {
	const good, bad = "testdata/vet/good", "testdata/vet/bad"
	cases := []struct {
		name    string
		args    []string
		err     string   // "" when vet passes
		want    []string // lines (or parts of them) in the report
		notWant []string

		needsPTXAS bool // the case runs ptxas
	}{
		{
			name: "good package",
			args: []string{"-v", good},
			want: []string{
				"testdata/vet/good/kernels.go:6:6: scale: ok",
				"add[int32]: ok", "add[float64]: ok", "apply: ok",
				"neverInstantiated: generic, not instantiated with predeclared types in its package: not checked",
				"nugo vet: 4 kernels in 1 package checked for sm_75, 0 failed",
			},
			notWant: []string{"notAKernel"},
		},
		{
			name: "bad package",
			args: []string{bad},
			err:  "2 of 4 kernels and functions do not compile for sm_75",
			want: []string{
				"testdata/vet/bad/kernels.go:8:2: kernel lookup: cannot use a map in a kernel",
				"testdata/vet/bad/kernels.go:13:7: kernel grow: append may allocate on the heap",
				"nugo vet: 4 kernels in 1 package checked for sm_75, 2 failed",
			},
			notWant: []string{"fine", "syncsGrid", ": ok"},
		},
		{
			name: "target too old for grid sync",
			args: []string{"-arch", "sm_50", bad},
			err:  "3 of 4 kernels and functions do not compile for sm_50",
			want: []string{"kernel syncsGrid: t.SyncGrid needs a cooperative launch, which needs compute capability 6.0"},
		},
		{
			name: "every package below",
			args: []string{"testdata/vet/..."},
			err:  "3 of 13 kernels and functions",
			want: []string{"nugo vet: 9 kernels and 4 functions in 3 packages checked for sm_75, 3 failed"},
		},
		{
			name: "functions passed to vectorize and launches",
			args: []string{"-v", "testdata/vet/funcs"},
			err:  "1 of 5 kernels and functions do not compile for sm_75",
			want: []string{
				"funcs.go:35:21: function square (passed to vectorize.New1): ok",
				"funcs.go:13:2: function lookup (passed to vectorize.New1): cannot use a map in a kernel",
				"function twice[int32] (passed to vectorize.New1): ok",
				"function norm (passed to vectorize.GU): ok",
				"nugo vet: 1 kernel and 4 functions in 1 package checked for sm_75, 1 failed",
			},
		},
		{
			name:       "assembled by ptxas",
			args:       []string{"-ptxas", "-arch", "sm_90", good},
			want:       []string{"nugo vet: 4 kernels in 1 package checked for sm_90, 0 failed"},
			needsPTXAS: true,
		},
		{
			name:    "the examples and benchmarks",
			args:    []string{"../../examples/...", "../../bench/..."},
			want:    []string{"checked for sm_75, 0 failed"},
			notWant: []string{"kernels in 0 packages"},
		},
		{name: "bad arch", args: []string{"-arch", "90", good}, err: `-arch "90": want sm_XX`},
		{name: "arch too old", args: []string{"-arch", "sm_35", good}, err: "targets sm_50 and later"},
		{name: "missing dir", args: []string{"testdata/vet/nothing"}, err: "testdata/vet/nothing"},
		{
			// A package that does not parse is reported; the next one is
			// still checked (issue 21, item 16).
			name: "unreadable package first",
			args: []string{brokenPackage(t), good},
			err:  "1 package could not be read: ",
			want: []string{"broken.go:3:", "nugo vet: 4 kernels in 1 package checked for sm_75, 0 failed; 1 package could not be read"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.needsPTXAS {
				ptxastest.Need(t) // skips with a message outside CI, fails under CI=true
			}
			var out strings.Builder
			err := vet(&out, c.args)
			if c.err == "" && err != nil {
				t.Fatalf("vet %v: %v\n%s", c.args, err, out.String())
			}
			if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("vet %v = %v, want an error mentioning %q\n%s", c.args, err, c.err, out.String())
			}
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(out.String(), w) {
					t.Errorf("report has %q:\n%s", w, out.String())
				}
			}
		})
	}
}

// brokenPackage writes a package with a syntax error in a temporary
// directory and returns the directory.
func brokenPackage(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "broken")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.go"), []byte("package broken\n\nfunc k( {\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
