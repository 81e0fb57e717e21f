package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

// capturePTX runs `nugo ptx args` and returns what it printed.
func capturePTX(t *testing.T, args ...string) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	out := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		out <- string(b)
	}()
	runErr := runPTX(args)
	os.Stdout = old
	w.Close()
	return <-out, runErr
}

// TestPTXLineInfoAndMaxRegs: -lineinfo writes .file and .loc directives,
// -maxregs the entry's .maxnreg; without them neither appears, and a cap
// outside 16..255 is refused before compiling.
func TestPTXLineInfoAndMaxRegs(t *testing.T) {
	const dir = "../../cuda/internal/testkernels"
	cases := []struct {
		name    string
		args    []string
		want    []string
		notWant []string
		err     string
	}{
		{"plain", nil, []string{".entry Scale("}, []string{".loc", ".file", ".maxnreg"}, ""},
		{"lineinfo", []string{"-lineinfo"}, []string{"\n.file 1 \"", "kernels.go\"\n", "\t.loc 1 "}, []string{".maxnreg"}, ""},
		{"maxregs", []string{"-maxregs", "32"}, []string{")\n.maxnreg 32\n{"}, []string{".loc"}, ""},
		{"both sm_90", []string{"-arch", "sm_90", "-lineinfo", "-maxregs", "255"}, []string{".target sm_90", ".maxnreg 255", "\t.loc 1 "}, nil, ""},
		{"maxregs too few", []string{"-maxregs", "8"}, nil, nil, "-maxregs 8: want 16 to 255"},
		{"maxregs too many", []string{"-maxregs", "300"}, nil, nil, "-maxregs 300: want 16 to 255"},
		{"maxregs word", []string{"-maxregs", "many"}, nil, nil, "invalid value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := capturePTX(t, append(c.args, dir, "Scale")...)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one mentioning %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			for _, w := range c.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output has %q:\n%s", w, out)
				}
			}
		})
	}
}
