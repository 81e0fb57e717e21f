package ptx

import (
	"strings"
	"testing"
)

func TestModuleText(t *testing.T) {
	m := &Module{Version: "7.8", Target: "sm_75", AddressSize: 64}
	m.Globals = append(m.Globals, ByteArray(".global", "s", []byte("hi\x00")))
	k := &Func{Name: "k", Entry: true, Params: []Param{{Name: "p0", Type: ".u64"}}}
	r := k.NewReg(B64)
	k.Emit("ld.param.u64", r.String(), "[p0]")
	k.EmitIf("!%p1", "bra", "L1")
	k.Label("L1")
	k.Emit("ret")
	d := &Func{Name: "f", Results: []Param{{Name: "r0", Type: ".b32"}}, Params: []Param{{Name: "a", Type: ".b32"}}}
	d.Emit("ret")
	m.Funcs = []*Func{k, d}
	got := m.String()
	for _, want := range []string{
		".version 7.8\n.target sm_75\n.address_size 64",
		".global .align 1 .b8 s[3] = {104, 105, 0};",
		".visible .entry k(\n\t.param .u64 p0\n)",
		".reg .b64 \t%rd<2>;",
		"ld.param.u64 \t%rd1, [p0];",
		"@!%p1 bra \tL1;",
		".func (.param .b32 r0) f(\n\t.param .b32 a\n);",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("module text lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, ".func (.param .b32 r0) f(") > strings.Index(got, ".visible .entry k(") {
		t.Errorf("prototype of f must precede the entry:\n%s", got)
	}
}
