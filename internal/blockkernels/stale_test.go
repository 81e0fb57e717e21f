package blockkernels

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/cpu"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// TestBlockLoopsCurrent checks that every kernel of the package has a
// block loop made from its current source, so that the other tests and
// the benchmarks measure the transformed kernels.
func TestBlockLoopsCurrent(t *testing.T) {
	for _, c := range cases {
		fn := reflect.ValueOf(c.kernel)
		rb, ok := cpu.Rows(fn)
		if _, isBlock := rb.Bind.(func([]any) func() cuda.BlockLoop); !ok || !isBlock {
			t.Errorf("%s has no block loop (run go generate ./internal/blockkernels)", c.name)
			continue
		}
		if h, found := frontend.DeclHash(c.kernel, rb.Inlined...); !found || h != rb.Source {
			t.Errorf("%s: block loop made from source %s, the kernel's is %s (found %v): run go generate ./internal/blockkernels", c.name, rb.Source, h, found)
		}
	}
}

// staleKernel doubles a; a test registers a block loop for it that does
// something else, as a block loop generated before an edit would.
func staleKernel(t cuda.Thread, a []int32) {
	i := t.Grid1()
	v := a[i] * 2
	t.SyncThreads()
	a[i] = v
}

// TestStaleBlockLoop: a launch whose kernel has a block loop made from
// another version of its source fails with a *cuda.CompileError that says
// the generated file is out of date and to run go generate, and runs
// nothing (neither the old body nor goroutines); a block loop whose
// fingerprint is the kernel's is run.
func TestStaleBlockLoop(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	defer cuda.SetBackend(cuda.Auto)
	current, found := frontend.DeclHash(staleKernel)
	if !found {
		t.Fatal("the test's own source was not found")
	}
	checkStaleLaunches(t, staleKernel, []staleCase{
		{"stale", "0123456789abcdef", 7, []string{"staleKernel", "stale_test.go:", "out of date", "run go generate", "0123456789abcdef", current}},
		{"current", current, -1, nil},
	})
}

// staleCase is a fingerprint a test registers a marker block loop under,
// and what a launch of the kernel then does: a[0] is want after it (-1
// when the marker ran, the kernel's result or 7, untouched, otherwise)
// and, when wantErr is not nil, the launch fails with a *cuda.CompileError
// containing each of wantErr's strings.
type staleCase struct {
	name    string
	source  string
	want    int32
	wantErr []string
}

// checkStaleLaunches registers, for each case, a block loop for kernel
// with the case's fingerprint and inlined helpers, which writes -1 for
// each thread, launches kernel over one block of 4 threads, and checks
// the outcome.
func checkStaleLaunches(t *testing.T, kernel func(cuda.Thread, []int32), cases []staleCase, inlined ...string) {
	t.Helper()
	marker := func(args []any) func() cuda.BlockLoop {
		a := args[0].([]int32)
		return func() cuda.BlockLoop {
			return func(b *cuda.Block) {
				for i := range b.Size() {
					a[b.Thread(i).Grid1()] = -1
				}
			}
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cuda.RegisterBlockLoop(kernel, tc.source, marker, inlined...)
			a := []int32{7, 7, 7, 7}
			err := cuda.Jit(kernel).Launch(cuda.Dim1(1), cuda.Dim1(4), a)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var ce *cuda.CompileError
				if !errors.As(err, &ce) {
					t.Fatalf("launch returned %v (%T), want a *cuda.CompileError", err, err)
				}
				for _, sub := range tc.wantErr {
					if !strings.Contains(err.Error(), sub) {
						t.Errorf("error %q does not contain %q", err, sub)
					}
				}
			}
			if a[0] != tc.want {
				t.Errorf("a[0] = %d, want %d", a[0], tc.want)
			}
		})
	}
}
