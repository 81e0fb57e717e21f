package compiler_test

import (
	"regexp"
	"testing"

	"github.com/nugo-dev/nugo/internal/compiler"
	"github.com/nugo-dev/nugo/internal/corpus"
)

// TestDivConstLowering checks that the corpus kernels dividing by constants
// compile to multiply-high sequences, without a hardware-less division.
func TestDivConstLowering(t *testing.T) {
	want := map[string][]string{
		"arith/div_const_int64":  {`mul\.hi\.s64`},
		"arith/div_const_uint64": {`mul\.hi\.u64`, `setp\.ge\.u64`},
		"arith/div_const_narrow": {`mul\.hi\.s32`},
		"arith/div_const_int32":  {`mul\.hi\.s32`},
		"arith/div_const_uint32": {`mul\.hi\.u32`, `setp\.ge\.u32`},
		"arith/div_const_small":  {`mul\.hi\.s32`, `cvt\.s32\.s8`, `cvt\.s32\.s16`},
	}
	division := regexp.MustCompile(`\b(div|rem)\.[su](64|32)\b`)
	found := 0
	for _, c := range corpus.All() {
		pats, ok := want[c.Name]
		if !ok {
			continue
		}
		found++
		for _, debug := range []bool{false, true} {
			m, err := compiler.CompileFunc(c.Kernel, compiler.Target{Debug: debug})
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if d := division.FindString(m.PTX); d != "" {
				t.Errorf("%s (debug %v): PTX has %s:\n%s", c.Name, debug, d, m.PTX)
			}
			for _, p := range pats {
				if !regexp.MustCompile(p).MatchString(m.PTX) {
					t.Errorf("%s (debug %v): PTX lacks %s", c.Name, debug, p)
				}
			}
		}
	}
	if found != len(want) {
		t.Fatalf("found %d of the %d corpus cases", found, len(want))
	}
}
