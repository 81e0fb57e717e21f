package testkernels

import "github.com/nugo-dev/nugo/cuda"

// Strided views (issue 21, item 12): kernels that take Array2 and Array3
// parameters, given strided device views (DeviceArray.Sub, T) as they are.

// Scale2 multiplies every element of a 2-D array view by f, in place,
// through its strides: each thread one element.
func Scale2(t cuda.Thread, a cuda.Array2[float32], f float32) {
	i, j := t.Grid2()
	if r, c := a.Shape(); i < r && j < c {
		a.Set(i, j, a.At(i, j)*f)
	}
}

// Copy2 copies src into dst (the same shape), each thread one element:
// a transposed or stepped src is read through its strides.
func Copy2(t cuda.Thread, dst, src cuda.Array2[float64]) {
	i, j := t.Grid2()
	if r, c := dst.Shape(); i < r && j < c {
		dst.Set(i, j, src.At(i, j))
	}
}

// Index3 writes into each element of a 3-D view its index, i*100+j*10+k,
// and the view's length and strides into info (thread 0).
func Index3(t cuda.Thread, a cuda.Array3[int32], info []int64) {
	i := t.Grid1()
	d0, d1, d2 := a.Shape()
	if i == 0 {
		s0, s1, s2 := a.Strides()
		info[0], info[1], info[2], info[3], info[4] = int64(a.Len()), int64(s0), int64(s1), int64(s2), int64(a.Offset())
	}
	if i < d0*d1*d2 {
		x, y, z := i/(d1*d2), i/d2%d1, i%d2
		a.Set(x, y, z, int32(x*100+y*10+z))
	}
}

// TransposeInKernel writes the transpose of src into dst through
// src.T(), the view made in the kernel.
func TransposeInKernel(t cuda.Thread, dst, src cuda.Array2[int32]) {
	i, j := t.Grid2()
	s := src.T()
	if r, c := s.Shape(); i < r && j < c {
		dst.Set(i, j, s.At(i, j))
	}
}

// SharedTile2 transposes a 16×16 tile of in into out through a
// SharedArray2 (Numba's cuda.shared.array((16, 16), ...)); the block is
// 16×16 threads, the grid one block per tile.
func SharedTile2(t cuda.Thread, in, out cuda.Array2[float32]) {
	tile := cuda.SharedArray2[float32](t, 16, 17) // a padding column
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	i, j := t.BlockIdx().Y*16+ty, t.BlockIdx().X*16+tx
	r, c := in.Shape()
	if i < r && j < c {
		tile.Set(ty, tx, in.At(i, j))
	}
	t.SyncThreads()
	oi, oj := t.BlockIdx().X*16+ty, t.BlockIdx().Y*16+tx
	if oi < c && oj < r {
		out.Set(oi, oj, tile.At(tx, ty))
	}
}

// SharedCube3 sums, per block, a 2×4×8 SharedArray3 that each of the
// block's 64 threads fills with its index, and writes the sum and the
// array's shape to out[block*4:].
func SharedCube3(t cuda.Thread, out []int64) {
	cube := cuda.SharedArray3[int64](t, 2, 4, 8)
	x := t.ThreadIdx().X
	cube.Set(x/32, x/8%4, x%8, int64(x+t.BlockIdx().X))
	t.SyncThreads()
	if x == 0 {
		s := int64(0)
		d0, d1, d2 := cube.Shape()
		for i := 0; i < d0; i++ {
			for j := 0; j < d1; j++ {
				for k := 0; k < d2; k++ {
					s += cube.At(i, j, k)
				}
			}
		}
		b := t.BlockIdx().X * 4
		out[b], out[b+1], out[b+2], out[b+3] = s, int64(d0), int64(d1), int64(d2)
	}
}
