// Package driver is nugo's binding of the NVIDIA CUDA driver API: libcuda.so.1
// opened at run time with github.com/ebitengine/purego, so nugo builds and runs
// with CGO_ENABLED=0 and needs no CUDA toolkit, only the driver.
//
// The package has three layers:
//
//   - API, an interface with one method per driver entry point nugo uses
//     (device queries, primary contexts, memory and copies, pinned host memory,
//     PTX modules with JIT options, kernel launches, streams, events), Go types
//     in and out, every failure an *Error carrying the CUresult, its name and
//     the driver's description.
//   - Library, the real implementation over libcuda.so.1 (or the file named by
//     $NUGO_LIBCUDA), with symbols bound
//     lazily and the "_v2" entry points preferred where CUDA 12's headers use
//     them. package fakedriver provides the other implementation: host memory,
//     recorded launches, injected faults, for tests on machines without a GPU.
//   - Start, QueryDevice and DeviceContext: initialisation with the no-device
//     cases mapped to ErrNoDevice, device limits, and the current-context
//     discipline below.
//
// Kernel arguments are packed into a Params (aligned little-endian bytes in
// parameter order), which the real binding turns into cuLaunchKernel's array of
// argument pointers.
//
// # RATIONALE: how the right context stays current
//
// A CUDA context is current per OS thread, while goroutines move between OS
// threads at any function call. nugo uses each device's primary context (the
// one the CUDA runtime and every other library in the process share, so memory
// and modules are interchangeable with them) and keeps it current by
// construction rather than by hope: every sequence of context-dependent calls
// runs inside DeviceContext.Do, which locks the goroutine to its OS thread
// (runtime.LockOSThread), makes the primary context current there
// (cuCtxSetCurrent, a thread-local store in the driver, tens of nanoseconds) and
// unlocks when the sequence ends. The alternatives were worse: a dedicated
// driver goroutine locked to one thread costs a channel round trip (a
// microsecond or more, two scheduler hand-offs) on every launch and serialises
// all streams behind one goroutine; setting the context once per OS thread
// cannot work because Go creates threads at will; cuCtxPushCurrent/Pop pairs
// cost the same as setting but leave a stack to unbalance on error paths. The
// cost of Do is one cuCtxSetCurrent and one lock/unlock pair per sequence (a
// launch with its copies is one sequence), which is negligible beside the
// launch itself. Do never leaves the thread locked, so callers keep Go's normal
// scheduling between sequences; it nests, because LockOSThread counts.
//
// Primary contexts also give process-wide sharing for free: two DeviceContexts
// for the same device hold references to one context, and the driver destroys
// it when the last reference is released (Close).
//
// # RATIONALE: pointers handed to the driver
//
// Go's heap does not move objects, but the runtime may move a goroutine's stack
// and collect anything it no longer sees referenced. Every call passes Go
// pointers as uintptr(unsafe.Pointer(x)) inside the call expression of a
// go:uintptrescapes function, which forces the pointee onto the heap and keeps
// it alive until the call returns. Memory the driver reaches indirectly, through
// pointers stored inside other memory (the kernel argument pointer array, the
// JIT log buffers named in the option value array), is additionally pinned with
// runtime.Pinner for the duration of the call. The driver copies kernel
// arguments during cuLaunchKernel and writes JIT results (log lengths, wall
// time) back into the option value slots before cuModuleLoadDataEx returns, so
// nothing Go-owned is needed after a call returns. Asynchronous copies are the
// exception: their host memory must outlive the copy, which is what
// MemHostAlloc's page-locked memory (outside the Go heap) is for.
//
// # Faults poison contexts
//
// A fault inside a kernel (illegal address, misaligned access, trap, assertion)
// makes the context unusable: that call or the next synchronising one returns
// the error (Result.Sticky reports which codes do this) and every later call in
// the process fails the same way. Tests that fault a kernel on purpose on a real
// GPU must therefore run in a subprocess (re-exec the test binary with
// -test.run naming the faulting test and an environment variable that enables
// it), so the rest of the suite keeps a healthy context. The fake driver models
// the poisoning (fakedriver.Fault.Sticky) so the error path itself is tested
// everywhere. Package drivertest provides the re-exec helper (InChild,
// RunChild).
//
// Kernel printf output is written by the driver to file descriptor 1 and is
// flushed only at synchronisation points (CtxSynchronize, StreamSynchronize,
// EventSynchronize, a synchronous copy).
package driver
