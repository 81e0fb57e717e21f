package devlib

import (
	"fmt"
	"os"
)

// Describe is host-only code: kernels never reach it, so its imports of
// fmt and os must not stop a kernel that calls this package.
func Describe() string {
	return fmt.Sprintf("devlib (scale %d, user %s)", Scale, os.Getenv("USER"))
}
