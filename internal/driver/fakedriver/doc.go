// Package fakedriver is a CUDA driver in host memory: an implementation of
// driver.API for tests on machines without a GPU.
//
// A Fake behaves like the real driver where the cuda package can observe it:
// calls before Init fail with CUDA_ERROR_NOT_INITIALIZED, context-dependent
// calls need the primary context current on the calling OS thread, device
// memory has addresses, bounds and a capacity (and fresh allocations hold
// Garbage, not zeros: cuMemAlloc does not clear memory), PTX modules expose
// their .entry functions (and are refused, as by the real JIT, when their
// .version is newer than the driver or their .target newer than the .version
// or the device), kernels report registers, local and shared memory
// estimated from their PTX (cuFuncGetAttribute; see resources.go), launches
// are checked against the device's limits, the threads per block the
// kernel's registers allow and the kernel's declared parameters (count and
// sizes), events carry times, and a
// fault inside a kernel poisons the context until its last reference is
// released. Each launch is recorded (function name, grid, block, dynamic
// shared memory, stream, the packed argument bytes) and handed to an optional
// OnLaunch hook, which may read and write device memory to play the kernel's
// part. By default kernels do not run and all work completes at once; with
// Config.Sim kernels run in nugo's PTX interpreter (package ptxsim) over the
// fake's device memory, and device work is asynchronous, so that a caller's
// whole path (module load, globals, allocation, copies, argument packing,
// shared memory, stream order, faults) meets real kernel semantics.
//
// Every call can be made to fail: Inject a Fault naming the driver entry point
// ("cuMemAlloc", "cuModuleLoadDataEx", "cuLaunchKernel", ...) with the result
// code to return, how many matching calls to let through first and how many
// to fail, a JIT error log for module loads, or Sticky to model a kernel fault
// that surfaces on every later call.
package fakedriver
