package cuda_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	. "github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/corpus"
	"github.com/nugo-dev/nugo/internal/cstdio"
	"github.com/nugo-dev/nugo/internal/driver/drivertest"
	"github.com/nugo-dev/nugo/internal/driver/fakedriver"
)

// cStdioWriter writes kernel printf output through C's stdio, buffered
// as a real driver writes it: a line at a time, with puts.
type cStdioWriter struct{ partial []byte }

func (w *cStdioWriter) Write(p []byte) (int, error) {
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		if err := cstdio.Puts(string(w.partial[:i])); err != nil {
			return 0, err
		}
		w.partial = w.partial[i+1:]
	}
}

// A kernel's printf output reaches a pipe although the driver buffers it
// in C's stdio and a Go program exits without flushing C's buffers: the
// GPU backend flushes after synchronizing. The child process runs the
// printing kernel on a simulated GPU whose printf goes through C's stdio,
// with its stdout a pipe; without the flush (the control) the lines are
// lost, so the test can fail.
func TestSimGPUPrintfReachesPipe(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("C stdio is used on Linux only")
	}
	c, ok := corpus.Lookup("printf/values")
	if !ok {
		t.Fatal("no corpus case printf/values")
	}
	for _, flush := range []bool{true, false} {
		t.Run(fmt.Sprintf("flush=%v", flush), func(t *testing.T) {
			if !flush && raceEnabled {
				// The control needs a process that exits without C's exit:
				// the race runtime ends through it, which flushes stdio.
				t.Skip("the control (no flush loses the lines) needs a build without -race, whose exit skips C's")
			}
			if drivertest.InChild(t) {
				if !flush {
					DisablePrintfFlush(t) // first, so that it lasts past the backend's closing
				}
				fakeGPU(t, fakedriver.Config{Sim: &fakedriver.SimConfig{Stdout: &cStdioWriter{}}})
				if err := Jit(c.Kernel).Launch(c.Grid, c.Block, c.Args()...); err != nil {
					t.Fatal(err)
				}
				return
			}
			out, err := drivertest.RunChild(t)
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			got := strings.Count(out, "thread ")
			if flush && got != 4 {
				t.Errorf("with the flush, %d of the kernel's 4 lines reached the pipe:\n%s", got, out)
			}
			if !flush && got != 0 {
				t.Errorf("without the flush, %d lines reached the pipe: the test cannot tell a lost flush from a working one:\n%s", got, out)
			}
		})
	}
}
