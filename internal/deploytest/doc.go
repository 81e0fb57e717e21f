// Package deploytest holds the end-to-end tests of deployable binaries:
// programs built with the go command (nugo's own, an example, and a user's
// module that uses nugo the way its README says: go get -tool, go
// generate, go build), copied into an empty directory and run where there
// is no source tree, no module cache and no Go toolchain, on ptxsim and on
// the fake driver's simulated GPU. Their results must equal those of the
// same programs run in their source tree, kernels' failure positions must
// read the same on every backend, and a copy of another package's source
// that is older than the binary must be an error that says to run go
// generate.
//
// The package has no code of its own; its tests need the go command and
// the module cache that the build machine has.
package deploytest
