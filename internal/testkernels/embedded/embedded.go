// Package embedded registers its own source with the front end, as a
// library of nugo does so that kernels calling it (and its own kernels)
// compile in a binary that runs far from any source tree.
package embedded

import (
	"embed"

	"github.com/nugo-dev/nugo/cuda"
	"github.com/nugo-dev/nugo/internal/frontend"
)

// Path is this package's import path.
const Path = "github.com/nugo-dev/nugo/internal/testkernels/embedded"

//go:embed *.go
var source embed.FS

func init() {
	if err := frontend.RegisterPackageFS(Path, source); err != nil {
		panic(err) // the package's own source does not register: a build error
	}
}

// Square is a device function kernels of other packages call.
func Square(x float64) float64 { return x * x }

// Kernel squares a in place.
func Kernel(t cuda.Thread, a []float64) {
	if i := t.Grid1(); i < len(a) {
		a[i] = Square(a[i])
	}
}
