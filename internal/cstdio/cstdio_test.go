package cstdio_test

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/internal/cstdio"
)

// The child writes through C's stdio to a pipe, where it is buffered, and
// exits with os.Exit, which does not flush C's buffers: the line arrives
// only when the child called Flush.
func TestFlushReachesPipe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("C stdio is used on Linux only")
	}
	if mode := os.Getenv("CSTDIO_CHILD"); mode != "" {
		if err := cstdio.Puts("line from C stdio"); err != nil {
			os.Exit(3)
		}
		if mode == "flush" {
			if err := cstdio.Flush(); err != nil {
				os.Exit(4)
			}
		}
		os.Exit(0)
	}
	for _, c := range []struct {
		mode string
		want bool
	}{{"flush", true}, {"noflush", false}} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFlushReachesPipe$")
		cmd.Env = append(os.Environ(), "CSTDIO_CHILD="+c.mode)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: child: %v", c.mode, err)
		}
		if got := strings.Contains(string(out), "line from C stdio"); got != c.want {
			t.Errorf("%s: output %q; the line arrived = %v, want %v", c.mode, out, got, c.want)
		}
	}
}
