// Package compiler lowers a kernel's checked SSA (from package frontend) to a
// PTX module (package ptx) plus the metadata a backend needs to launch it:
// entry name, parameter layout, static shared memory, printf and debug-record
// use, and debug sites. It knows nothing of the driver.
//
// Files follow language features: arith.go (operators), convert.go,
// memory.go (allocation, loads, stores, state spaces), slices.go, calls.go
// (device functions and dispatch of intrinsics), cuda.go (thread indices,
// shared memory, Array2/Array3), atomics.go, printf.go, math.go, bits.go,
// debug.go (bounds and division checks), function.go (blocks, phis, control
// flow).
//
// Values are lowered to one PTX register per scalar leaf: a slice is
// (pointer, len, cap), a struct its fields in order, a bool a predicate.
// Integers narrower than 32 bits live in 32-bit registers, kept sign- or
// zero-extended after every operation, so that they wrap as Go's do.
package compiler
