// Package vend is a vendored dependency.
package vend

// Inc adds one.
func Inc(x int32) int32 { return x + 1 }
