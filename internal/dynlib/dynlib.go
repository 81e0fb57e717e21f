// Package dynlib is what nugo's bindings of NVIDIA's libraries (the CUDA
// driver in internal/driver, NVML in internal/nvml) share: opening a shared
// library with dlopen through purego, no cgo; entry points resolved on
// first use and cached; C strings copied out of the library's memory.
package dynlib

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Open opens the library at path (a soname searched the dynamic loader's
// way, or a file path) with every symbol bound now and kept local. Its
// error carries the loader's reason.
func Open(path string) (handle uintptr, err error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		return 0, fmt.Errorf("cannot load %s: %v", path, err)
	}
	return h, nil
}

// Lookup is the address of the symbol name in the library handle.
func Lookup(handle uintptr, name string) (uintptr, error) {
	return purego.Dlsym(handle, name)
}

// Proc is one entry point of a library: resolved on its first use, then
// served from the cache. The zero Proc is ready; it is safe for
// concurrent use.
type Proc struct {
	once sync.Once
	addr uintptr
	err  error
}

// Resolve returns the entry point's address, calling lookup the first
// time only; a failed lookup is remembered too.
func (p *Proc) Resolve(lookup func() (uintptr, error)) (uintptr, error) {
	p.once.Do(func() { p.addr, p.err = lookup() })
	return p.addr, p.err
}

// CString copies the NUL-terminated string at p, which the library owns
// (static storage, or a buffer it filled); nil gives "".
func CString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
