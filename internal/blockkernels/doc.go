// Package blockkernels holds the kernels that synchronise a block (shared
// memory with SyncThreads, warp shuffles, reducing barriers) which the CPU
// backend's barrier fission is measured and checked on, with the plain Go
// loops they are measured against.
//
// The kernels are the tutorials' classics: a shared-memory tree reduction,
// the matmul example's tiled product, a block scan, a histogram with
// shared atomics, a 1-D stencil over a shared tile and a warp-shuffle
// reduction. The tests run each one through the generated block loop that
// `nugo gen` writes (nugo_loops.go), through the goroutine path and
// through ptxsim, and require the same bits from all three; the
// benchmarks put the same paths and a hand-written loop side by side.
package blockkernels

//go:generate go tool nugo gen
