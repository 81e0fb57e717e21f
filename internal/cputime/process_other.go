//go:build !unix

package cputime

import "time"

// Process returns -1: this system has no getrusage.
func Process() time.Duration { return -1 }
