// Package corpus is nugo's shared table of test kernels: one table run by
// every engine (the native CPU backend, ptxsim, a real GPU) and compiled and
// assembled by the compiler's tests. Each case carries its launch shape and a
// function making fresh inputs, edge values included; a case is checked by
// comparing an engine's outputs (all slice arguments after the launch) with
// the native run's, bit for bit unless MathULP allows an error in ulps. No
// golden numbers are kept.
package corpus

//go:generate go tool nugo gen
