// Package cstdio flushes the C library's standard output, through purego
// (no cgo).
//
// A CUDA kernel's printf output is written by the driver through C's stdio,
// whose stdout is fully buffered when it is a pipe or a file. A Go program
// exits without flushing C's buffers, so that output would be lost: Numba
// calls fflush for the same reason. The GPU backend calls Flush after each
// synchronisation that may have completed a kernel that prints.
package cstdio
