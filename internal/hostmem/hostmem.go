package hostmem

import "fmt"

// Check returns an error naming what if bytes is negative or more than
// Limit.
func Check(what string, bytes int) error {
	if bytes < 0 {
		return fmt.Errorf("%s: cannot allocate %d bytes", what, bytes)
	}
	if limit := Limit(); bytes > limit {
		return fmt.Errorf("%s: out of memory: %d bytes requested; this machine has %d bytes of RAM and swap", what, bytes, limit)
	}
	return nil
}
