package blockkernels

import (
	"errors"
	"strings"
	"testing"

	"github.com/nugo-dev/nugo/cuda"
)

// TestPanicNamesThread checks that a panic in a later region of a block
// loop, in a flat block and in a two-dimensional one, is reported for the
// thread that failed.
func TestPanicNamesThread(t *testing.T) {
	if err := cuda.SetBackend(cuda.CPU); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name         string
		grid, block  cuda.Dim3
		badX, badY   int
		wantB, wantT cuda.Dim3
	}{
		{"flat", cuda.Dim1(4), cuda.Dim1(64), 130, 0, cuda.Dim3{X: 2, Y: 0, Z: 0}, cuda.Dim3{X: 2, Y: 0, Z: 0}},
		{"flat last block", cuda.Dim1(4), cuda.Dim1(64), 255, 0, cuda.Dim3{X: 3, Y: 0, Z: 0}, cuda.Dim3{X: 63, Y: 0, Z: 0}},
		{"2d", cuda.Dim2(2, 2), cuda.Dim2(8, 4), 11, 6, cuda.Dim3{X: 1, Y: 1, Z: 0}, cuda.Dim3{X: 3, Y: 2, Z: 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := make([]int32, c.grid.X*c.block.X)
			err := cuda.Jit(FailLate).Launch(c.grid, c.block, a, c.badX, c.badY)
			var ke *cuda.KernelError
			if !errors.As(err, &ke) {
				t.Fatalf("error %v is not a *cuda.KernelError", err)
			}
			if ke.Block != c.wantB || ke.Thread != c.wantT {
				t.Errorf("failing thread block %v thread %v, want %v %v", ke.Block, ke.Thread, c.wantB, c.wantT)
			}
			if !strings.Contains(ke.Msg, "index out of range") || !strings.Contains(ke.Pos, "kernels.go:") {
				t.Errorf("message %q at %q", ke.Msg, ke.Pos)
			}
		})
	}
}
