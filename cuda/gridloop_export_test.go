package cuda

// GridLoopCPUTime is cpuTime for the external tests' grid-loop benchmark.
var GridLoopCPUTime = cpuTime
