// Package testkernels holds packages whose functions kernels of other
// packages call, so that tests can check kernels that span packages: see
// devlib (a library of device functions, types, constants and tables) and
// devlib/mix (a third package devlib calls).
package testkernels
