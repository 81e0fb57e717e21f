package ptxsim

import (
	"os"
	"strings"
	"testing"
)

// FuzzParseAndRun feeds arbitrary text to Parse and runs whatever parses:
// the interpreter may reject or fault, but never panic or hang.
func FuzzParseAndRun(f *testing.F) {
	if src, err := os.ReadFile("testdata/primes.ptx"); err == nil {
		f.Add(string(src))
	}
	f.Add(header + ".visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n\tst.global.u64 [%rd1], %rd1;\n\tret;\n}\n")
	f.Add(printfKernel("%d %s %f\n", []pArg{{"i32", 1}, {"str", "x"}, {"f64", 2.5}}))
	f.Add(header + ".func (.param .b32 r) f(.param .b32 a)\n{\n\t.reg .b32 %r<2>;\n\tld.param.b32 %r1, [a];\n\tst.param.b32 [r], %r1;\n\tret;\n}\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t{\n\t.param .b32 p;\n\tst.param.b32 [p], 1;\n\t.param .b32 q;\n\tcall (q), f, (p);\n\t}\n\tbar.sync 0;\n\tret;\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		m, err := Parse(src)
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
			return
		}
		mem := NewMemory()
		p, err := m.Load(mem)
		if err != nil {
			return
		}
		for _, k := range m.Kernels() {
			n, _ := m.ParamSize(k)
			params := make([]byte, n)
			err := p.Run(Config{Kernel: k, Grid: [3]int{2}, Block: [3]int{3}, Params: params, MaxSteps: 1000, SharedMem: 64})
			if err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatal(err)
			}
		}
	})
}
