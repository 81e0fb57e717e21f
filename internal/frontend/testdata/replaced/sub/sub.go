// Package namedsub is found through a replace directive; its name is not
// its directory's.
package namedsub

// Neg negates x.
func Neg(x int32) int32 { return -x }
