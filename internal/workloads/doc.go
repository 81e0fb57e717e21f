// Package workloads holds nugo's benchmark workloads: primes, vecadd, logs,
// coalesced and permuted writes, a moving average and a device-to-device
// copy, each run on the current backend with the timing protocol that
// bench/numba and bench/cuda follow as well (see Run). Two programs use it:
// bench/gpu, which scripts/gpu-check.sh runs once per workload in a fresh
// process and whose JSON line is a Result, and `nugo bench`, which runs
// several in one process and prints a table.
//
// Each workload checks its output on the host: a checksum that every
// implementation must agree on (Result.Check) and a sample of elements
// compared with the same formula computed in Go (Result.Verified).
package workloads
