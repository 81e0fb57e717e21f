package difftest

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

var dumpPTX = flag.Bool("dumpptx", false, "print the PTX of each case run")

func runCase(t *testing.T, c Case) {
	t.Helper()
	if *dumpPTX {
		if m, err := CompileCase(c, Options{}); err == nil {
			t.Logf("PTX of %s:\n%s", c.Name, m.PTX)
		} else {
			t.Logf("compile %s: %v", c.Name, err)
		}
	}
	if err := Check(c, Options{}); err != nil {
		t.Fatal(err)
	}
}

func TestSamples(t *testing.T) {
	for _, c := range Samples() {
		t.Run(c.Name, func(t *testing.T) { runCase(t, c) })
	}
}

// TestInjectedMiscompilationIsCaught rewrites the compiled PTX the way real
// code generation bugs would (a swapped comparison, a dropped sign
// extension, a wrong rounding) and requires the differential check to fail.
func TestInjectedMiscompilationIsCaught(t *testing.T) {
	samples := map[string]Case{}
	for _, c := range Samples() {
		samples[c.Name] = c
	}
	bugs := []struct {
		name, sample, from, to string
	}{
		{"swapped comparison", "sample/compare", "setp.lt.s32", "setp.ge.s32"},
		{"dropped sign extension", "sample/widen", "cvt.s64.s32", "cvt.u64.u32"},
		{"wrong rounding", "sample/float", "cvt.rn.f32.f64", "cvt.rz.f32.f64"},
		{"signed division as unsigned", "sample/shared", "div.s32", "div.u32"},
	}
	for _, bug := range bugs {
		t.Run(bug.name, func(t *testing.T) {
			c := samples[bug.sample]
			m, err := CompileCase(c, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(m.PTX, bug.from) {
				t.Fatalf("the compiled PTX of %s has no %q to break; the demonstration needs another mutation:\n%s", c.Name, bug.from, m.PTX)
			}
			// unmutated, the case passes
			if err := Check(c, Options{}); err != nil {
				t.Fatalf("unmutated: %v", err)
			}
			err = Check(c, Options{Mutate: func(p string) string { return strings.ReplaceAll(p, bug.from, bug.to) }})
			var mm *Mismatch
			if !errors.As(err, &mm) {
				t.Fatalf("with %s (%s -> %s) the differential check passed; want a mismatch", bug.name, bug.from, bug.to)
			}
			for _, want := range []string{"inputs:", "native outputs:", "compiled outputs:", "-dumpptx", c.Name} {
				if !strings.Contains(mm.Report, want) {
					t.Errorf("mismatch report lacks %q:\n%s", want, mm.Report)
				}
			}
			if testing.Verbose() {
				t.Logf("caught, as it should be:\n%s", clip(mm.Report, 1500))
			}
		})
	}
}
