package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/loopgen"
)

// nugo gen -check passes on the committed files and fails, naming the
// directory, when one is stale; nugo gen then rewrites it.
func TestGenCommand(t *testing.T) {
	const kern = "../../internal/loopgen/testdata/kern"
	if err := runGen([]string{"-check", "-v", kern, "../../examples/vectoradd"}); err != nil {
		t.Fatalf("nugo gen -check on committed files: %v", err)
	}

	// -v lists the folds with the kernels and vectorized functions.
	res, err := loopgen.Generate(kern)
	if err != nil {
		t.Fatal(err)
	}
	var v strings.Builder
	report(&v, res)
	for _, want := range []string{"6 kernels, 11 vectorized functions, 6 folds\n", "\tvectorized Scaled\n",
		"\tfold and scan Hypot (Reduce, Accumulate)\n", "\tfold and scan Heavier (Reduce, Accumulate)\n"} {
		if !strings.Contains(v.String(), want) {
			t.Errorf("nugo gen -v output lacks %q:\n%s", want, v.String())
		}
	}
	if strings.Contains(v.String(), "fold and scan Scaled") {
		t.Errorf("nugo gen -v lists a fold of Scaled, whose operand types differ:\n%s", v.String())
	}

	// A copy of an example, inside the module, with a stale file.
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "gen-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	src, err := os.ReadFile("../../examples/vectoradd/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	stale := loopgen.Header + "\n\npackage main\n"
	gen := filepath.Join(dir, loopgen.FileName)
	if err := os.WriteFile(gen, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	err = runGen([]string{"-check", dir})
	if err == nil || !strings.Contains(err.Error(), "out of date: "+gen) {
		t.Fatalf("nugo gen -check on a stale file: %v", err)
	}
	if err := runGen([]string{dir}); err != nil {
		t.Fatal(err)
	}
	if err := runGen([]string{"-check", dir}); err != nil {
		t.Fatalf("after nugo gen: %v", err)
	}
	got, _ := os.ReadFile(gen)
	if !strings.Contains(string(got), "cuda.RegisterRowLoop(add, ") {
		t.Fatalf("regenerated file registers no row loop:\n%s", got)
	}
}

func TestGenCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-bogus"},
		{"testdata/none"},
		{"../../cuda"},
	} {
		if err := runGen(args); err == nil {
			t.Errorf("nugo gen %q succeeded", args)
		}
	}
}

func TestCountAgreesInNumber(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 folds"}, {1, "1 fold"}, {2, "2 folds"}} {
		if got := count(c.n, "fold", "folds"); got != c.want {
			t.Errorf("count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestGenVerboseFission: -v says which kernels get a block loop and why
// the others that synchronise keep goroutines.
func TestGenVerboseFission(t *testing.T) {
	res, err := loopgen.Generate("../../internal/loopgen/testdata/fission")
	if err != nil {
		t.Fatal(err)
	}
	var v strings.Builder
	report(&v, res)
	for _, want := range []string{
		"\tkernel Reduce (block loop: barriers split into loops over the block's threads)\n",
		"\tkernel Plain\n",
		"\tkernel Divergent keeps goroutines at its barriers: fission.go:",
		"\tkernel GridWide (block loop: barriers split into loops over the block's threads)\n",
		"\tkernel GridDivergent keeps goroutines at its barriers: fission.go:",
	} {
		if !strings.Contains(v.String(), want) {
			t.Errorf("nugo gen -v output lacks %q:\n%s", want, v.String())
		}
	}
}
