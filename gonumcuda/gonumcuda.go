// Package gonumcuda moves gonum matrices (gonum.org/v1/gonum/mat) to and
// from nugo's arrays: host views (cuda.Array2, slices) and device arrays.
//
// A *mat.Dense whose rows lie next to each other in memory (its stride
// equals its column count, as for every matrix mat.NewDense makes) is
// viewed, not copied: Array2 shares its memory, and ToDevice and
// CopyToDense copy straight between it and the device. A matrix with a
// larger stride (a slice of a bigger one) is packed through a temporary
// host buffer. The same holds for a *mat.VecDense and its increment.
//
// The package is apart from cuda so that programs without gonum do not
// link it.
package gonumcuda

import (
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"github.com/nugo-dev/nugo/cuda"
)

// Array2 returns m's elements as a cuda.Array2 and whether it shares m's
// memory (true when m's rows are contiguous); otherwise it is a packed
// copy, which later changes of m do not reach.
func Array2(m *mat.Dense) (a cuda.Array2[float64], shared bool) {
	raw := m.RawMatrix()
	if raw.Rows == 0 || raw.Cols == 0 {
		return cuda.NewArray2[float64](raw.Rows, raw.Cols), true
	}
	if raw.Stride == raw.Cols {
		return cuda.MustView2(raw.Data[:raw.Rows*raw.Cols], raw.Rows, raw.Cols), true
	}
	return cuda.MustView2(pack(raw), raw.Rows, raw.Cols), false
}

// Dense returns a *mat.Dense that shares a's memory: a kernel's results in
// a are gonum's to use without a copy. It returns an error for an empty
// array, which gonum cannot represent.
func Dense(a cuda.Array2[float64]) (*mat.Dense, error) {
	rows, cols := a.Shape()
	if rows == 0 || cols == 0 {
		return nil, fmt.Errorf("gonumcuda: a %d×%d array; gonum has no empty matrices", rows, cols)
	}
	return mat.NewDense(rows, cols, a.Data()), nil
}

// ToDevice copies m into a new rows×cols device array (Shape() is [rows
// cols], as cuda.ToDevice2 makes), straight from m's memory when its rows
// are contiguous.
func ToDevice(m *mat.Dense) (*cuda.DeviceArray[float64], error) {
	raw := m.RawMatrix()
	data := raw.Data
	if raw.Stride != raw.Cols {
		data = pack(raw)
	}
	d, err := cuda.NewDeviceArray[float64](raw.Rows, raw.Cols)
	if err != nil {
		return nil, fmt.Errorf("gonumcuda: %w", err)
	}
	if raw.Rows*raw.Cols == 0 {
		return d, nil
	}
	if err := d.CopyFromHost(data[:raw.Rows*raw.Cols]); err != nil {
		_ = d.Free()
		return nil, fmt.Errorf("gonumcuda: %w", err)
	}
	return d, nil
}

// CopyToDense copies a device array holding dst's rows×cols elements (any
// shape with that many, read row-major) into dst, straight into its
// memory when its rows are contiguous.
func CopyToDense(dst *mat.Dense, d *cuda.DeviceArray[float64]) error {
	raw := dst.RawMatrix()
	if n := raw.Rows * raw.Cols; d.Len() != n {
		return fmt.Errorf("gonumcuda: the device array has %d elements, the %d×%d matrix %d", d.Len(), raw.Rows, raw.Cols, n)
	}
	if raw.Rows*raw.Cols == 0 {
		return nil
	}
	if raw.Stride == raw.Cols {
		if err := d.CopyToHost(raw.Data[:raw.Rows*raw.Cols]); err != nil {
			return fmt.Errorf("gonumcuda: %w", err)
		}
		return nil
	}
	buf := make([]float64, raw.Rows*raw.Cols)
	if err := d.CopyToHost(buf); err != nil {
		return fmt.Errorf("gonumcuda: %w", err)
	}
	for i := range raw.Rows {
		copy(raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols], buf[i*raw.Cols:(i+1)*raw.Cols])
	}
	return nil
}

// FromDevice returns a new rows×cols *mat.Dense with a 2-D device array's
// elements.
func FromDevice(d *cuda.DeviceArray[float64]) (*mat.Dense, error) {
	shape := d.Shape()
	if len(shape) != 2 || shape[0] == 0 || shape[1] == 0 {
		return nil, fmt.Errorf("gonumcuda: a device array of shape %v; want two non-zero dimensions", shape)
	}
	m := mat.NewDense(shape[0], shape[1], nil)
	if err := CopyToDense(m, d); err != nil {
		return nil, err
	}
	return m, nil
}

// Slice returns v's elements as a slice and whether it shares v's memory
// (true when its increment is 1).
func Slice(v *mat.VecDense) (s []float64, shared bool) {
	raw := v.RawVector()
	if raw.Inc == 1 {
		return raw.Data[:raw.N], true
	}
	s = make([]float64, raw.N)
	for i := range s {
		s[i] = raw.Data[i*raw.Inc]
	}
	return s, false
}

// VecToDevice copies v into a new device array of v.Len() elements.
func VecToDevice(v *mat.VecDense) (*cuda.DeviceArray[float64], error) {
	s, _ := Slice(v)
	d, err := cuda.ToDevice(s)
	if err != nil {
		return nil, fmt.Errorf("gonumcuda: %w", err)
	}
	return d, nil
}

// CopyToVecDense copies a device array of dst.Len() elements into dst.
func CopyToVecDense(dst *mat.VecDense, d *cuda.DeviceArray[float64]) error {
	raw := dst.RawVector()
	if d.Len() != raw.N {
		return fmt.Errorf("gonumcuda: the device array has %d elements, the vector %d", d.Len(), raw.N)
	}
	if raw.N == 0 {
		return nil
	}
	if raw.Inc == 1 {
		if err := d.CopyToHost(raw.Data[:raw.N]); err != nil {
			return fmt.Errorf("gonumcuda: %w", err)
		}
		return nil
	}
	buf := make([]float64, raw.N)
	if err := d.CopyToHost(buf); err != nil {
		return fmt.Errorf("gonumcuda: %w", err)
	}
	for i, x := range buf {
		raw.Data[i*raw.Inc] = x
	}
	return nil
}

// pack copies a strided matrix's elements row after row.
func pack(raw blas64.General) []float64 {
	out := make([]float64, raw.Rows*raw.Cols)
	for i := range raw.Rows {
		copy(out[i*raw.Cols:(i+1)*raw.Cols], raw.Data[i*raw.Stride:i*raw.Stride+raw.Cols])
	}
	return out
}
