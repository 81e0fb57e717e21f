//go:build race

package cuda_test

// raceEnabled says the test binary was built with -race. Its runtime exits
// through C's exit, which flushes C's stdio buffers.
const raceEnabled = true
