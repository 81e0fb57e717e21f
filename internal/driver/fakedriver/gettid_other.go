//go:build !linux

package fakedriver

// threadID cannot tell threads apart here; every thread shares one binding.
func threadID() int { return 0 }
