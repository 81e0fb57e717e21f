package cuda

import "runtime"

// Nanosleep suspends the calling thread of a kernel for about ns
// nanoseconds (Numba's cuda.nanosleep, CUDA's __nanosleep, PTX nanosleep),
// typically to back off in a loop that waits for other threads. Like the
// hardware's, the sleep is a hint: PTX allows anything from 0 to twice ns,
// and at most a millisecond. It needs compute capability 7.0 (sm_70) or
// later on the GPU; compiling it for an older target is a compile error.
//
// On the cpu backend it yields the processor (runtime.Gosched) instead of
// sleeping, so that the goroutines running other blocks make progress: a
// real sleep per thread would add up over the threads of a block, which
// that backend runs in turn. The ptxsim backend does not sleep either.
// Neither runs the other threads of the sleeper's own block meanwhile
// (both run a block's threads one after another until a barrier, in
// cooperative launches too), so a loop that waits for another thread of
// its own block, which GPUs of sm_70 and later run to its end, never ends
// on them: have such threads meet at SyncThreads instead.
func Nanosleep(ns uint32) { runtime.Gosched() }
