package ptxastest

import (
	"testing"
)

func TestNumbered(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\nb\n", "1\ta\n2\tb\n"},
		{"a\nb", "1\ta\n2\tb\n"},
		{"", "1\t\n"},
	} {
		if got := Numbered(c.in); got != c.want {
			t.Errorf("Numbered(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// recorder is a testing.TB that keeps what a check reports.
type recorder struct {
	testing.TB
	errors int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.errors++ }
func (r *recorder) Logf(string, ...any)   {}

func TestAssembleReportsEachFailingTarget(t *testing.T) {
	Need(t)
	const bad = ".version 7.8\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tnot.an.instruction;\n}\n"
	r := &recorder{TB: t}
	if Assemble(r, "bad", bad, 75, 90) || r.errors != 2 {
		t.Errorf("Assemble of invalid PTX: %d errors reported, want one per target (2)", r.errors)
	}
	const good = ".version 7.8\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n"
	r = &recorder{TB: t}
	if !Assemble(r, "good", good, 75, 90) || r.errors != 0 {
		t.Errorf("Assemble of valid PTX: %d errors reported, want none", r.errors)
	}
}
