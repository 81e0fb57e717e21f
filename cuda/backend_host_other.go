//go:build !linux

package cuda

import "math"

// hostMemoryLimit is the most bytes a host backend allocates for one
// device array; without a portable way to ask the machine, no limit.
func hostMemoryLimit() int { return math.MaxInt }
