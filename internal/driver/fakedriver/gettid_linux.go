package fakedriver

import "syscall"

// threadID identifies the calling OS thread, the unit CUDA binds contexts to.
func threadID() int { return syscall.Gettid() }
