// Package cpu is the execution engine of nugo's native CPU backend.
//
// It knows nothing of kernels' meaning: it hands out the blocks of a grid to
// worker goroutines (Run, or RunSpans for runs of consecutive blocks), offers the reusable barrier that the threads of a
// synchronising block meet at (Barrier), and calls a kernel function value
// with a fixed argument list and a varying first argument as cheaply as a
// direct call (Invoker). Package cuda builds the CPU backend on top of it.
//
// # Calling kernels without reflect
//
// A kernel is an ordinary Go function of any signature, known to nugo only
// as a reflect.Value. reflect.Value.Call costs hundreds of nanoseconds, far
// more than the body of a typical kernel thread. Invoker instead lays the
// fixed arguments out once, the way Go's register-based internal ABI
// (ABIInternal) passes them, and then calls the function through a func type
// of the same register and stack shape. The layout follows the rules of
// cmd/compile/abi-internal.md; TestInvokerMatchesDirectCall checks it against
// direct calls for many signatures, so an ABI change in a future Go release
// fails the tests instead of corrupting arguments. Where the architecture
// has no register ABI, or a signature needs more stack than the fast path
// provides, Invoker falls back to reflect.Value.Call.
//
// Invoker.CallRow calls the function for a run of consecutive values of the
// first argument's counter field (a block's row of threads) in one loop
// inside the shape's closure, so each call costs one indirect call instead
// of two; it stops early after a call that sets the caller's stop flag.
//
// # Generated row loops
//
// Faster still is no indirect call at all: `nugo gen` writes Go loops that
// call a kernel directly, so the compiler inlines it, and registers them
// under the kernel's code pointer (RegisterRows, Rows). The registry is
// here rather than in package cuda so that tests of other packages can run
// kernels both ways (SetRowsDisabled) and compare.
package cpu
