// Cublas multiplies two matrices held in nugo device arrays with NVIDIA's
// cuBLAS (cublasSgemm), called through purego on nugo's context and
// stream, and checks the product against a nugo kernel: how nugo's raw
// handles (DevicePointer, Stream.Handle, ContextHandle) let a program use
// a CUDA library on nugo's memory without a copy. Without a GPU or
// without libcublas it says so and exits.
package main

//go:generate go tool nugo gen

import (
	"errors"
	"fmt"
	"log"
	"math"
	"runtime"

	"github.com/ebitengine/purego"
	"github.com/nugo-dev/nugo/cuda"
)

// matmul sets c = a·b, one thread per element of c.
func matmul(t cuda.Thread, a, b, c cuda.Array2[float32]) {
	col, row := t.Grid2()
	n, k := a.Shape()
	_, m := b.Shape()
	if row < n && col < m {
		var s float32
		for l := 0; l < k; l++ {
			s += a.At(row, l) * b.At(l, col)
		}
		c.Set(row, col, s)
	}
}

// errSkip reports why the example cannot run here.
var errSkip = errors.New("skipping")

// cublas holds the few cuBLAS and driver entry points the example calls.
type cublas struct {
	create    func(handle *uintptr) int32
	destroy   func(handle uintptr) int32
	setStream func(handle, stream uintptr) int32
	sgemm     func(handle uintptr, transa, transb, m, n, k int32, alpha *float32, a uintptr, lda int32, b uintptr, ldb int32, beta *float32, c uintptr, ldc int32) int32
	ctxSet    func(ctx uintptr) int32
}

func loadCublas() (*cublas, error) {
	var lib uintptr
	var err error
	for _, name := range []string{"libcublas.so.13", "libcublas.so.12", "libcublas.so.11", "libcublas.so"} {
		if lib, err = purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: libcublas not found (%v)", errSkip, err)
	}
	cu, err := purego.Dlopen("libcuda.so.1", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("%w: libcuda.so.1: %v", errSkip, err)
	}
	var b cublas
	purego.RegisterLibFunc(&b.create, lib, "cublasCreate_v2")
	purego.RegisterLibFunc(&b.destroy, lib, "cublasDestroy_v2")
	purego.RegisterLibFunc(&b.setStream, lib, "cublasSetStream_v2")
	purego.RegisterLibFunc(&b.sgemm, lib, "cublasSgemm_v2")
	purego.RegisterLibFunc(&b.ctxSet, cu, "cuCtxSetCurrent")
	return &b, nil
}

// run multiplies an n×k and a k×m matrix with cuBLAS and with a kernel and
// returns the largest difference between the two products.
func run(n, k, m int) (maxDiff float64, err error) {
	if be, err := cuda.CurrentBackend(); err != nil || be != cuda.GPU {
		return 0, fmt.Errorf("%w: cuBLAS needs the GPU backend (this one is %v)", errSkip, be)
	}
	lib, err := loadCublas()
	if err != nil {
		return 0, err
	}
	a, b := cuda.NewArray2[float32](n, k), cuda.NewArray2[float32](k, m)
	for i := range a.Data() {
		a.Data()[i] = float32(i%7) - 3
	}
	for i := range b.Data() {
		b.Data()[i] = float32(i%5) * 0.5
	}
	da, err := cuda.ToDevice2(a)
	if err != nil {
		return 0, err
	}
	defer da.Free()
	db, err := cuda.ToDevice2(b)
	if err != nil {
		return 0, err
	}
	defer db.Free()
	dc, err := cuda.NewDeviceArray[float32](n, m)
	if err != nil {
		return 0, err
	}
	defer dc.Free()
	s, err := cuda.NewStream()
	if err != nil {
		return 0, err
	}

	// cuBLAS uses the calling thread's context: make it nugo's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx, err := cuda.ContextHandle()
	if err != nil {
		return 0, err
	}
	if r := lib.ctxSet(ctx); r != 0 {
		return 0, fmt.Errorf("cuCtxSetCurrent: error %d", r)
	}
	var h uintptr
	if r := lib.create(&h); r != 0 {
		return 0, fmt.Errorf("cublasCreate: status %d", r)
	}
	defer lib.destroy(h)
	if r := lib.setStream(h, s.Handle()); r != 0 {
		return 0, fmt.Errorf("cublasSetStream: status %d", r)
	}
	// cuBLAS is column-major: the row-major C = A·B is the column-major
	// Cᵀ = Bᵀ·Aᵀ, which is B and A as they lie in memory.
	alpha, beta := float32(1), float32(0)
	const opN = 0
	if r := lib.sgemm(h, opN, opN, int32(m), int32(n), int32(k), &alpha,
		db.DevicePointer(), int32(m), da.DevicePointer(), int32(k), &beta, dc.DevicePointer(), int32(m)); r != 0 {
		return 0, fmt.Errorf("cublasSgemm: status %d", r)
	}
	if err := s.Synchronize(); err != nil {
		return 0, err
	}
	runtime.KeepAlive(da)
	runtime.KeepAlive(db)

	want := cuda.NewArray2[float32](n, m)
	grid := cuda.Dim2((m+15)/16, (n+15)/16)
	if err := cuda.Jit(matmul).Launch(grid, cuda.Dim2(16, 16), a, b, want); err != nil {
		return 0, err
	}
	got, err := dc.ToHost()
	if err != nil {
		return 0, err
	}
	for i, w := range want.Data() {
		maxDiff = max(maxDiff, math.Abs(float64(got[i]-w)))
	}
	return maxDiff, nil
}

func main() {
	const n, k, m = 256, 128, 192
	diff, err := run(n, k, m)
	if errors.Is(err, errSkip) {
		fmt.Println(err)
		return
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("cublasSgemm on nugo device arrays: %dx%d · %dx%d, largest difference from nugo's kernel %g\n", n, k, k, m, diff)
	if diff > 1e-3 {
		log.Fatalf("cuBLAS and the kernel differ by %g", diff)
	}
}
