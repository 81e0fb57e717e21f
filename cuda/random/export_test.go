package random

// ULPs64 is ulps64 for the external tests.
var ULPs64 = ulps64

// RegisterErr is the outcome of the package's source registration.
func RegisterErr() error { return registerErr }
