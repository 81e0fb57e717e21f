// Package hostmem says how much host memory one allocation may ask for.
// The Go runtime ends the process (a fatal error, not a panic) when an
// allocation cannot be satisfied, so packages that allocate on a caller's
// behalf (device arrays of the host backends, vectorize's outputs) check a
// request against Limit first and return an error instead. Info reports
// the physical memory and what is available of it, which the host
// backends answer cuda.MemInfo with.
package hostmem
