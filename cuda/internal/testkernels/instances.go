package testkernels

import "github.com/nugo-dev/nugo/cuda"

// Instances are the instantiations of the package's generic kernels that
// the cuda tests launch, written in the package so that nugo gen makes
// their loops (a block loop for the synchronising ones): the generated
// file covers the instantiations its package names.
var Instances = []any{
	AtomicComplexAll[complex64], AtomicComplexAll[complex128],
	AtomicNanEach[float32], AtomicNanEach[float64], AtomicNanEach[cuda.Float16],
	AtomicNanAll[float32], AtomicNanAll[float64], AtomicNanAll[cuda.Float16],
	AtomicAddEach[cuda.Float16],
}
