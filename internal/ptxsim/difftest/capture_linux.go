package difftest

import (
	"io"
	"os"
	"sync"
	"syscall"
)

// stdoutMu serialises the redirection of the process's standard output.
var stdoutMu sync.Mutex

// captureStdout runs f with file descriptor 1 redirected into a pipe and
// returns what was written: the CPU backend's Printf writes to the os.Stdout
// it saw at start-up, so only a descriptor-level redirection catches it.
func captureStdout(f func() error) (string, error) {
	stdoutMu.Lock()
	defer stdoutMu.Unlock()
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	saved, err := syscall.Dup(1)
	if err != nil {
		return "", err
	}
	if err := syscall.Dup3(int(w.Fd()), 1, 0); err != nil {
		syscall.Close(saved)
		return "", err
	}
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	ferr := f()
	_ = syscall.Dup3(saved, 1, 0)
	syscall.Close(saved)
	w.Close()
	s := <-done
	r.Close()
	return s, ferr
}
