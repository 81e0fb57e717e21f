// Package drivertest runs a test in a child process of its own: the way to
// test a kernel that faults on a real GPU (a fault poisons the CUDA context
// for the rest of the process, see package driver) or anything else that
// changes process-wide state, without taking the rest of the suite down.
//
// A test calls InChild first; in the child it does the dangerous part and
// returns, in the parent it calls RunChild and checks the child's output
// and exit status:
//
//	func TestOutOfBoundsWriteFaults(t *testing.T) {
//		if drivertest.InChild(t) {
//			// launch the faulting kernel; report what happened with t.Log
//			return
//		}
//		out, err := drivertest.RunChild(t, "NUGO_BACKEND=gpu")
//		// assert on err and out
//	}
package drivertest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// ChildEnv is the environment variable that marks the child process; its
// value is the name of the test the child runs.
const ChildEnv = "NUGO_DRIVERTEST_CHILD"

// InChild reports whether this process is the child RunChild started for t.
func InChild(t *testing.T) bool { return os.Getenv(ChildEnv) == t.Name() }

// RunChild runs t alone in a new process of the test binary, verbose, with env
// ("KEY=value" entries) added to the current environment. It returns the
// child's combined output and its exit error (nil when the child's test passed
// or skipped).
func RunChild(t *testing.T, env ...string) (string, error) {
	t.Helper()
	parts := strings.Split(t.Name(), "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	limit := ChildTimeout
	if d, ok := t.Deadline(); ok && time.Until(d)-10*time.Second < limit {
		limit = max(time.Until(d)-10*time.Second, time.Second)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run="+strings.Join(parts, "/"), "-test.v", "-test.count=1",
		fmt.Sprintf("-test.timeout=%s", limit))
	cmd.Env = append(append(os.Environ(), env...), ChildEnv+"="+t.Name())
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		err = fmt.Errorf("child test %s killed after %s (a hung kernel or driver call?): %w", t.Name(), limit, err)
	}
	return string(out), err
}

// ChildTimeout bounds a child's run (less when the parent test's deadline
// is nearer): a kernel that hangs on a real GPU must not hang the suite.
const ChildTimeout = 2 * time.Minute
