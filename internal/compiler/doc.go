// Package compiler lowers a kernel's checked SSA (from package frontend) to a
// PTX module (package ptx) plus the metadata a backend needs to launch it:
// entry name, parameter layout, static shared memory, printf and debug-record
// use, and debug sites. It knows nothing of the driver.
//
// Files follow language features: arith.go (operators), convert.go,
// memory.go (allocation, loads, stores, state spaces), slices.go (with
// copy and clear), calls.go
// (device functions and dispatch of intrinsics), cuda.go (thread indices,
// shared memory, Array2/Array3), atomics.go, printf.go, math.go, bits.go,
// debug.go (bounds and division checks), gridsync.go (the grid barrier of
// cuda.Thread.SyncGrid, in PTX), function.go (blocks, phis, control
// flow), ranges.go (interval analysis of integers) and narrow.go (32-bit
// arithmetic for the 64-bit integers it proves small).
//
// Values are lowered to one PTX register per scalar leaf: a slice is
// (pointer, len, cap), a struct its fields in order, a bool a predicate.
// Integers narrower than 32 bits live in 32-bit registers, kept sign- or
// zero-extended after every operation, so that they wrap as Go's do.
package compiler

// # Semantics that may surprise
//
// Floating point: float add, subtract and multiply carry .rn, so ptxas does
// not contract them into FMA and results equal the CPU's bit for bit;
// Target.FastMath drops .rn and uses approximate float32 division. math.Min
// and math.Max follow Go (NaN wins, -0 < +0) and return Go's NaN bits.
//
// Conversions of floats to integers outside the target's range are
// implementation-defined in Go; PTX saturates where amd64 produces the
// "integer indefinite" value, so such results may differ from the CPU.
//
// Read-only slices (never written by the kernel) are loaded with
// ld.global.nc. Like CUDA's const __restrict__ this assumes that the
// launch's slices do not overlap; compile with Target.NoReadOnlyCache for a
// launch whose arguments alias. Read-only tables (package-level arrays of
// constants) are loaded with ld.global.nc too, unless the program slices
// them (readonly.go).
//
// Simple counted loops (for j := lo; j <= hi; j++ over a one-block body of
// arithmetic, loads and stores) are unrolled 4 times, in a shape ptxas
// unrolls 4 times more, as nvcc's loops are (unroll.go); the operations and
// their order are unchanged.
//
// cuda.Printf becomes vprintf with a C format: %v picks the type's natural
// verb, 64-bit integers get ll, bools print "true"/"false" through %s.
// C prints negative numbers under %x/%o in two's complement where Go prints
// a minus sign, and C's %g keeps 6 significant digits where Go's %v prints
// the shortest representation.
//
// Debug mode (Target.Debug) checks indexing (slices, arrays, Array2/3),
// slicing (in gc's order), conversions of slices to arrays, MustView
// shapes and negative shift counts; the first failing thread of a launch
// fills the module's ErrorSymbol record with the check's code and values
// and exits, and Module.DecodeRecord turns the record into the message Go
// (or, for Array2/3 and MustView, the CPU backend) prints. Without it there
// are no such checks, as in CUDA C. An integer division by a divisor not
// known to be non-zero is checked in every build, as Go checks it: one
// compare and a branch not taken per divisor along a path (a check in a
// dominating block covers the others).
//
// Target.LineInfo adds .file and .loc directives (the Go position of the
// code after each) and nothing else; Target.MaxRegisters writes the entry's
// .maxnreg. cuda.Nanosleep needs sm_70 (nanosleep.u32), and so do the atomics on
// Float16 (atom.add.noftz.f16, atom.cas.b16).
