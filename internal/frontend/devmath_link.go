package frontend

import "github.com/nugo-dev/nugo/internal/devmath"

// The device math library's source comes embedded in the devmath package,
// so kernels calling math.Exp and friends compile in a deployed binary.
func init() { devmathSource = devmath.Source }
