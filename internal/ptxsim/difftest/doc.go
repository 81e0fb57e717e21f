// Package difftest proves nugo's compiler right by differential testing:
// a kernel runs natively on the CPU backend (the reference: plain Go) and
// through the compiler plus the PTX interpreter on the same inputs, and the
// results must agree bit for bit (floats within a case's ulp bound for math
// functions). Its tests run every kernel of the compiler's corpus this way,
// and FuzzCompiledMatchesNative does the same for randomly generated
// kernels, evaluated by an interpreter of its own (gen.go, eval.go).
//
// A mismatch is reported with the kernel, its inputs, both outputs and the
// command that dumps its PTX.
package difftest

//go:generate go tool nugo gen
