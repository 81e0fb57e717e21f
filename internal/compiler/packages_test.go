package compiler_test

import (
	"regexp"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/ptxas"
	"github.com/nugo-dev/nugo/internal/ptxas/ptxastest"
)

// TestSameNamedFunctionsOfPackages: the corpus kernel packages/calls
// reaches three functions named helper (its own package's, devlib's and
// mix's, none inlined since each is recursive); each must become a PTX
// function of its own, called by name.
func TestSameNamedFunctionsOfPackages(t *testing.T) {
	c, ok := corpus.Lookup("packages/calls")
	if !ok {
		t.Fatal("no corpus case packages/calls")
	}
	m, err := compiler.CompileFunc(c.Kernel, compiler.Target{})
	if err != nil {
		t.Fatal(err)
	}
	decls := regexp.MustCompile(`(?m)^\.func \(.*\) (fn_helper\w*)\(`).FindAllStringSubmatch(m.PTX, -1)
	names := map[string]bool{}
	for _, d := range decls {
		names[d[1]] = true
		if !regexp.MustCompile(`call\.uni \(retval0\), ` + d[1] + `,`).MatchString(m.PTX) {
			t.Errorf("%s is declared but never called", d[1])
		}
	}
	if len(names) != 3 {
		t.Fatalf("PTX declares helper functions under %d names, want 3:\n%s", len(names), m.PTX)
	}
	if ptxastest.Available(t) {
		for _, arch := range []string{"sm_75", "sm_90"} {
			if _, err := ptxas.Assemble(m.PTX, arch, false); err != nil {
				t.Errorf("%s: %v", arch, err)
			}
		}
	}
}
