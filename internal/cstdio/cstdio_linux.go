package cstdio

import (
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/nugo-dev/nugo/internal/dynlib"
)

// libc is the C library's fflush and puts, looked up once.
var libc = sync.OnceValues(func() (procs, error) {
	h, err := dynlib.Open("libc.so.6")
	if err != nil {
		return procs{}, err
	}
	var p procs
	if p.fflush, err = dynlib.Lookup(h, "fflush"); err != nil {
		return procs{}, fmt.Errorf("libc.so.6: %w", err)
	}
	if p.puts, err = dynlib.Lookup(h, "puts"); err != nil {
		return procs{}, fmt.Errorf("libc.so.6: %w", err)
	}
	return p, nil
})

type procs struct{ fflush, puts uintptr }

// Flush flushes every C output stream (fflush(NULL)), stdout among them.
// Where the C library cannot be loaded there is nothing to flush: the
// driver, which writes through it, could not be loaded either.
func Flush() error {
	p, err := libc()
	if err != nil {
		return nil
	}
	if r, _, _ := purego.SyscallN(p.fflush, 0); int32(r) != 0 {
		return fmt.Errorf("fflush: the C library could not write its buffered output")
	}
	return nil
}

// Puts writes s and a newline to C's stdout, buffered as the driver's
// printf output is: for tests that stand in for the driver.
func Puts(s string) error {
	p, err := libc()
	if err != nil {
		return err
	}
	b := append([]byte(s), 0)
	r, _, _ := purego.SyscallN(p.puts, uintptr(unsafe.Pointer(&b[0])))
	runtime.KeepAlive(b) // Go's heap does not move: the address holds until puts returns
	if int32(r) < 0 {
		return fmt.Errorf("puts: the C library could not write")
	}
	return nil
}
