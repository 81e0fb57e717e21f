// Package primes is nugo's capstone job, the last exercise of the Numba
// CUDA tutorial: for every integer 2..N, the sum of its prime factors with
// multiplicity (60 = 2·2·3·5 → 12), one kernel thread per number.
//
// Run processes the range in chunks that reuse one device array per
// device, so any N runs in bounded memory; with several devices
// (Config.Devices) the chunks go to whichever device is free next, and the
// results are still collected in order. Results stream into a checksum
// and, if asked, to a file of little-endian int64s. A sample of every
// chunk is checked against the serial reference, FactorSum.
package primes

//go:generate go tool nugo gen
