//go:build !linux

package cstdio

import "errors"

// Flush does nothing where nugo does not load the CUDA driver's C library.
func Flush() error { return nil }

// Puts is not available outside Linux.
func Puts(string) error { return errors.New("cstdio: C stdio is used on Linux only") }
