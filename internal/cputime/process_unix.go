//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the process's CPU time so far, user and system, of all
// its threads, or -1 when the system does not tell.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
