// Package fissiontest checks nugo gen's barrier fission (the block loops of
// internal/loopgen/fission.go, docs/cpu-fission.md) with random programs.
//
// Generate writes the Go source of a random synchronising kernel: loops the
// same in every thread of the block with SyncThreads inside, shared arrays
// written at the thread's slot and read at other threads' slots after a
// barrier, values of several types living across barriers, threads
// returning early, SyncThreadsCount/And/Or (also as loop conditions), warp
// shuffles and votes. Every program is deterministic: between two barriers
// a shared slot is written by its own thread only, and other threads'
// slots are read only when no thread writes them in the same interval.
//
// The package's test writes a few hundred such kernels into one package,
// runs this tree's nugo gen on it, requires a block loop for every kernel,
// and runs each kernel through its block loop, the goroutine path and
// ptxsim, which must agree bit for bit.
package fissiontest
