package difftest

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// skipDevmath skips corpus cases that need the device math library when
// this build has none (the compiler's own corpus test does the same).
func skipDevmath(t *testing.T, c corpus.Case) {
	if c.Devmath && !frontend.HasDevmath() {
		t.Skip("SKIP: the device math library is not linked into this build yet")
	}
}

func fromCorpus(c corpus.Case) Case {
	return Case{Name: c.Name, Kernel: c.Kernel, Grid: c.Grid, Block: c.Block, SharedMem: c.SharedMem,
		Args: c.Args, MathULP: c.MathULP, Printf: c.Printf, Cooperative: c.Cooperative}
}

// TestCorpus runs every corpus kernel natively and through compiler +
// ptxsim on the same inputs; the results must agree.
func TestCorpus(t *testing.T) {
	for _, cc := range corpus.All() {
		c := fromCorpus(cc)
		t.Run(c.Name, func(t *testing.T) {
			skipDevmath(t, cc)
			runCase(t, c)
		})
	}
}

// TestCorpusDebug repeats the corpus with the compiler's debug checks on:
// they must not change results, nor fire on kernels that index correctly.
func TestCorpusDebug(t *testing.T) {
	if testing.Short() {
		t.Skip("the debug variant of the corpus is not run with -short")
	}
	for _, cc := range corpus.All() {
		c := fromCorpus(cc)
		t.Run(c.Name, func(t *testing.T) {
			skipDevmath(t, cc)
			if err := Check(c, Options{Debug: true}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCorpusCatchesInjectedBug: one swapped comparison in every compiled
// corpus kernel that has one makes the corpus fail, kernel by kernel.
func TestCorpusCatchesInjectedBug(t *testing.T) {
	failed, mutated := 0, 0
	for _, cc := range corpus.All() {
		c := fromCorpus(cc)
		m, err := CompileCase(c, Options{})
		// A mutated grid-syncing kernel may leave blocks waiting at
		// different barriers, which no engine can run to an end.
		if err != nil || !strings.Contains(m.PTX, "setp.lt.s") || c.Printf || c.Cooperative {
			continue
		}
		mutated++
		err = Check(c, Options{Mutate: func(p string) string { return strings.ReplaceAll(p, "setp.lt.s", "setp.le.s") }})
		var mm *Mismatch
		if errors.As(err, &mm) {
			failed++
		}
	}
	if mutated == 0 {
		t.Fatal("no corpus kernel has a signed less-than to swap")
	}
	if failed == 0 {
		t.Fatalf("swapping < for <= in %d corpus kernels went unnoticed", mutated)
	}
	t.Logf("swapping < for <= broke %d of %d mutated corpus kernels", failed, mutated)
}
