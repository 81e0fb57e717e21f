package blockkernels

import (
	"reflect"
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
		if h, found := frontend.DeclHash(c.kernel); !found || h != rb.Source {
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

// TestStaleBlockLoopUnused: a block loop whose fingerprint is not the
// kernel's is not run; one whose fingerprint is, is.
func TestStaleBlockLoopUnused(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	defer cuda.SetBackend(cuda.Auto)
	wrong := func(args []any) func() cuda.BlockLoop {
		a := args[0].([]int32)
		return func() cuda.BlockLoop {
			return func(b *cuda.Block) {
				for i := range b.Size() {
					a[b.Thread(i).Grid1()] = -1
				}
			}
		}
	}
	current, found := frontend.DeclHash(staleKernel)
	if !found {
		t.Fatal("the test's own source was not found")
	}
	for _, tc := range []struct {
		source string
		want   int32
	}{{"0123456789abcdef", 14}, {current, -1}} {
		cuda.RegisterBlockLoop(staleKernel, tc.source, wrong)
		a := []int32{7, 7, 7, 7}
		if err := cuda.Jit(staleKernel).Launch(cuda.Dim1(1), cuda.Dim1(4), a); err != nil {
			t.Fatal(err)
		}
		if a[0] != tc.want {
			t.Errorf("registered with source %s: a[0] = %d, want %d", tc.source, a[0], tc.want)
		}
	}
}
