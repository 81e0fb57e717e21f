package cuda

import "fmt"

// Dim3 is the shape of a grid or a block, or a position in one, as CUDA's
// dim3. Unused dimensions are 1 in shapes and 0 in positions.
type Dim3 struct{ X, Y, Z int }

// Dim1 is the 1-D shape (x, 1, 1).
func Dim1(x int) Dim3 { return Dim3{x, 1, 1} }

// Dim2 is the 2-D shape (x, y, 1).
func Dim2(x, y int) Dim3 { return Dim3{x, y, 1} }

// Size is the number of positions in the shape: X*Y*Z.
func (d Dim3) Size() int { return d.X * d.Y * d.Z }

// String formats d as "(x,y,z)".
func (d Dim3) String() string { return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z) }

// WarpSize is the number of threads in a warp on every NVIDIA GPU.
const WarpSize = 32

// Limits are the launch limits of a device: the largest block and grid.
type Limits struct {
	MaxThreadsPerBlock int
	MaxBlock           Dim3
	MaxGrid            Dim3
	MaxSharedMemory    int // bytes of shared memory per block
}

// defaultLimits are the limits that every CUDA device of compute capability
// 7.5 and later has, and that the CPU backend enforces so that a launch
// that works there works on a GPU.
var defaultLimits = Limits{
	MaxThreadsPerBlock: 1024,
	MaxBlock:           Dim3{1024, 1024, 64},
	MaxGrid:            Dim3{1<<31 - 1, 65535, 65535},
	MaxSharedMemory:    48 << 10,
}

// checkShape validates a launch shape against the limits.
func (l Limits) checkShape(grid, block Dim3) error {
	for _, s := range []struct {
		what string
		d    Dim3
		max  Dim3
	}{{"grid", grid, l.MaxGrid}, {"block", block, l.MaxBlock}} {
		if s.d.X < 1 || s.d.Y < 1 || s.d.Z < 1 {
			return fmt.Errorf("%s %v has a dimension below 1; every dimension must be at least 1 (use Dim1 or Dim2 for fewer dimensions)", s.what, s.d)
		}
		if s.d.X > s.max.X || s.d.Y > s.max.Y || s.d.Z > s.max.Z {
			return fmt.Errorf("%s %v exceeds the limit %v per dimension", s.what, s.d, s.max)
		}
	}
	if n := block.Size(); n > l.MaxThreadsPerBlock {
		return fmt.Errorf("block %v has %d threads; at most %d per block", block, n, l.MaxThreadsPerBlock)
	}
	return nil
}
