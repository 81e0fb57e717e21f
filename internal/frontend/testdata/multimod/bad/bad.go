// Package bad has kernel code that a GPU cannot run.
package bad

import "os"

// Env reads the environment, which a kernel cannot.
func Env() int32 {
	return int32(len(os.Getenv("HOME")))
}

// Lookup uses a map.
func Lookup(x int32) int32 {
	m := map[int32]int32{1: 2}
	return m[x]
}
