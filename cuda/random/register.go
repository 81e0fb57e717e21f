package random

import (
	_ "embed"

	"github.com/nugo-dev/nugo/internal/frontend"
)

// kernelSource is the kernel side of the package, which nugo's compiler
// compiles into the kernels that call it.
//
//go:embed xoroshiro.go
var kernelSource []byte

// importPath is this package's import path, under which its kernel-side
// source is registered.
const importPath = "github.com/nugo-dev/nugo/cuda/random"

// registerErr is the outcome of registering the kernel-side source with
// nugo's front end, so that a binary compiles kernels that call this
// package without a source tree. It cannot fail for a source that
// compiles; a test checks it. Were it to fail, the front end would still
// find the source through the module, as for any package.
var registerErr = frontend.RegisterPackage(importPath, map[string][]byte{"xoroshiro.go": kernelSource})
