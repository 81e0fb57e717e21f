// Package other is imported from a directory of another name, so that the
// generated file must name its import.
package other

// Weight is a number type of another package.
type Weight float32
