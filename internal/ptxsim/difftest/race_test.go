//go:build race

package difftest

// raceEnabled reports whether the tests run under the race detector, which
// slows the interpreter about tenfold: the long sweeps then run short (the
// plain run keeps the full sweep).
const raceEnabled = true
