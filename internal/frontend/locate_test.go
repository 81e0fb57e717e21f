package frontend

import (
	"strings"
	"testing"
)

func TestSplitFuncName(t *testing.T) {
	cases := []struct {
		full, pkg, name string
		generic, bad    bool
	}{
		{"github.com/x/p.kernel", "github.com/x/p", "kernel", false, false},
		{"github.com/x/p.add[...]", "github.com/x/p", "add", true, false},
		{"main.k", "main", "k", false, false},
		{"github.com/x/p.outer.func1", "", "", false, true},
		{"github.com/x/p.T.M-fm", "", "", false, true},
	}
	for _, c := range cases {
		info, err := splitFuncName(c.full)
		if c.bad {
			if err == nil {
				t.Errorf("%s: want an error", c.full)
			}
			continue
		}
		if err != nil || info.pkgPath != c.pkg || info.name != c.name || info.generic != c.generic {
			t.Errorf("%s: got %+v, %v", c.full, info, err)
		}
	}
}

func TestSourceNotFound(t *testing.T) {
	t.Setenv("NUGO_SOURCE_ROOT", "/nonexistent-root")
	_, err := findSource(funcInfo{pkgPath: "example.com/p", name: "k", file: "example.com/p/k.go"})
	if err == nil {
		t.Fatal("want an error")
	}
	for _, want := range []string{"example.com/p/k.go", "/nonexistent-root/example.com/p/k.go", "-trimpath", "NUGO_SOURCE_ROOT"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
}
