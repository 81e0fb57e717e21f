//go:build !linux

package difftest

import "errors"

// captureStdout needs a descriptor-level redirection, implemented for Linux.
func captureStdout(f func() error) (string, error) {
	return "", errors.New("difftest: capturing kernel printf output is implemented on Linux only")
}
