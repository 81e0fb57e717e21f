package drivertest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/driver/drivertest"
)

func TestRunChild(t *testing.T) {
	cases := []struct {
		name     string
		exitCode int // what the child exits with; 0 = passes
	}{
		{"passes", 0},
		{"dies", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if drivertest.InChild(t) {
				t.Logf("child of %s sees NUGO_TEST_VALUE=%s", t.Name(), os.Getenv("NUGO_TEST_VALUE"))
				if c.exitCode != 0 {
					os.Exit(c.exitCode) // as a crash inside the driver would end it
				}
				return
			}
			out, err := drivertest.RunChild(t, "NUGO_TEST_VALUE=42")
			if !strings.Contains(out, "child of "+t.Name()+" sees NUGO_TEST_VALUE=42") {
				t.Fatalf("child output lacks its log line:\n%s", out)
			}
			if c.exitCode == 0 && err != nil {
				t.Fatalf("child failed: %v\n%s", err, out)
			}
			if c.exitCode != 0 {
				ee, ok := err.(*exec.ExitError)
				if !ok || ee.ExitCode() != c.exitCode {
					t.Fatalf("child exit = %v, want status %d", err, c.exitCode)
				}
			}
		})
	}
}
