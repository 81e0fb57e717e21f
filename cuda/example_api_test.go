package cuda_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/nugo-dev/nugo/cuda"
)

func scaleBy(t cuda.Thread, a float32, x []float32) {
	if i := t.Grid1(); i < len(x) {
		x[i] *= a
	}
}

// A kernel is a Go function whose first parameter is cuda.Thread; Jit
// checks it and Launch runs it over a grid of blocks. A host slice is
// copied to the device and back.
func ExampleJit() {
	x := []float32{1, 2, 3, 4, 5}
	if err := cuda.Jit(scaleBy).Launch(cuda.Dim1(1), cuda.Dim1(32), float32(10), x); err != nil {
		log.Fatal(err)
	}
	fmt.Println(x)
	// Output: [10 20 30 40 50]
}

// Launch checks every argument before anything runs and says what is wrong.
func ExampleKernel_Launch_wrongArgument() {
	err := cuda.Jit(scaleBy).Launch(cuda.Dim1(1), cuda.Dim1(32), float32(10), []float64{1, 2})
	fmt.Println(err)
	// Output: launch scaleBy: argument 2 ([]float32): got []float64; pass a []float32 or a *cuda.DeviceArray[float32]
}

// ForAll launches n threads with a block size chosen for the kernel, as
// Numba's forall does.
func ExampleKernel_ForAll() {
	x := make([]float32, 1000)
	for i := range x {
		x[i] = 1
	}
	if err := cuda.Jit(scaleBy).ForAll(len(x), float32(3), x); err != nil {
		log.Fatal(err)
	}
	fmt.Println(x[0], x[999])
	// Output: 3 3
}

// A device array stays on the device between launches; CopyToHost brings
// it back.
func ExampleToDevice() {
	d, err := cuda.ToDevice([]float32{1, 2, 3})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Free()
	k := cuda.Jit(scaleBy)
	for range 3 {
		if err := k.ForAll(d.Len(), float32(2), d); err != nil {
			log.Fatal(err)
		}
	}
	host, err := d.ToHost()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(host)
	// Output: [8 16 24]
}

func transposeTile(t cuda.Thread, in, out cuda.Array2[int32]) {
	tile := cuda.SharedArray[int32](t, 16*17) // 17: no shared-memory bank conflicts
	tx, ty := t.ThreadIdx().X, t.ThreadIdx().Y
	x, y := t.Grid2()
	rows, cols := in.Shape()
	if y < rows && x < cols {
		tile[ty*17+tx] = in.At(y, x)
	}
	t.SyncThreads()
	// The block writes the transposed tile: swap the block's coordinates.
	ox := t.BlockIdx().Y*16 + tx
	oy := t.BlockIdx().X*16 + ty
	if oy < cols && ox < rows {
		out.Set(oy, ox, tile[tx*17+ty])
	}
}

// SharedArray gives each block a buffer its threads share; SyncThreads
// waits until every thread of the block has written its element.
func ExampleSharedArray() {
	in := cuda.NewArray2[int32](2, 3)
	for i := range in.Data() {
		in.Data()[i] = int32(i)
	}
	out := cuda.NewArray2[int32](3, 2)
	if err := cuda.Jit(transposeTile).Launch(cuda.Dim2(1, 1), cuda.Dim2(16, 16), in, out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(in.Data(), "→", out.Data())
	// Output: [0 1 2 3 4 5] → [0 3 1 4 2 5]
}

// Work queued on a stream runs in order; events recorded on it time the
// device's work.
func ExampleNewStream() {
	s, err := cuda.NewStream()
	if err != nil {
		log.Fatal(err)
	}
	start, _ := cuda.NewEvent()
	end, _ := cuda.NewEvent()
	x := []float32{1, 2, 3}
	d, err := cuda.ToDeviceAsync(x, s)
	if err != nil {
		log.Fatal(err)
	}
	cfg := cuda.LaunchConfig{Grid: cuda.Dim1(1), Block: cuda.Dim1(32), Stream: s}
	if err := errors.Join(
		start.Record(s),
		cuda.Jit(scaleBy).LaunchWith(cfg, float32(-1), d),
		end.Record(s),
		d.CopyToHostAsync(x, s),
		s.Synchronize(),
	); err != nil {
		log.Fatal(err)
	}
	elapsed, err := cuda.ElapsedTime(start, end)
	fmt.Println(x, elapsed >= 0, err)
	// Output: [-1 -2 -3] true <nil>
}

func checkedIndex(t cuda.Thread, x []int32) {
	x[t.Grid1()] = 1 // no bounds check: the grid is larger than x
}

// A thread that fails (here, an index out of range) stops the launch,
// which returns a *cuda.KernelError with the block, the thread and the Go
// line; on compiled backends debug mode adds the checks that find it.
func ExampleKernelError() {
	err := cuda.Jit(checkedIndex, cuda.Debug).Launch(cuda.Dim1(1), cuda.Dim1(4), make([]int32, 3))
	var kerr *cuda.KernelError
	fmt.Println(errors.As(err, &kerr))
	// Output: true
}
