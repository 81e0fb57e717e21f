//go:build !linux

package hostmem

import "math"

// Limit is the most bytes one allocation may ask for; without a portable
// way to ask the machine, no limit.
func Limit() int { return math.MaxInt }
