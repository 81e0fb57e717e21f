//go:build !linux

package hostmem

import (
	"errors"
	"runtime"
)

// Info reports the host's physical memory and how much of it is
// available; nugo knows how to ask only on Linux.
func Info() (available, total int64, err error) {
	return 0, 0, errors.New("host memory: not known on " + runtime.GOOS)
}
