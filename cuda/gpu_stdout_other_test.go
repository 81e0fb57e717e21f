//go:build !linux

package cuda_test

import "errors"

// captureStdout is available on Linux only; elsewhere printf output is not
// compared.
func captureStdout(f func() error) (string, error) {
	return "", errors.Join(errors.New("stdout capture needs Linux"), f())
}
