// Package plain has no kernels and passes nothing to cuda or vectorize.
package plain

// Double doubles.
func Double(x int) int { return 2 * x }
