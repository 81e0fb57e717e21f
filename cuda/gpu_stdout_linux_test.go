package cuda_test

import (
	"io"
	"os"
	"syscall"
)

// captureStdout runs f with file descriptor 1 pointed at a pipe and returns
// what was written there: by fmt on the CPU backend and by the driver's
// printf buffer (flushed at synchronization) on a GPU.
func captureStdout(f func() error) (string, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	saved, err := syscall.Dup(1)
	if err != nil {
		return "", err
	}
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	if err := syscall.Dup3(int(w.Fd()), 1, 0); err != nil {
		return "", err
	}
	ferr := f()
	os.Stdout.Sync()
	_ = syscall.Dup3(saved, 1, 0)
	_ = syscall.Close(saved)
	w.Close()
	out := <-done
	r.Close()
	return string(out), ferr
}
